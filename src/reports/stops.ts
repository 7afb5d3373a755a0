/**
 * The stops report: one record per stop of a unit (motion.ts says what a stop is: staying
 * within --stop-radius for --min-stop, silences included; it ends when the unit leaves,
 * however short the move). Field names are fixed by the design; lat/lng are the median of
 * the stop's fixes. Additions: `open`, true for the stop still in progress when the stream
 * ends (departure null, duration up to the last report); `partial`, true for a stop cut by
 * the edge of the reports (the first stop of a unit parked when the window starts begins at
 * its first report).
 */
import type { ReportPoint } from '../api/types.js';
import { roundDegrees } from './geo.js';
import { MotionTracker } from './motion.js';
import { ordered, type OrderOptions } from './order.js';
import { DEFAULTS, type ReportParams } from './params.js';
import type { Explanation, Segment, StopSegment } from './segments.js';
import { run, type UnitProcessor } from './stream.js';

export interface Stop {
  did: number;
  name: string;
  arrival: number;
  departure: number | null;
  duration: number;
  lat: number;
  lng: number;
  address: string | null;
  open: boolean;
  partial: boolean;
}

export function stopRecord(seg: StopSegment): Stop {
  const a = seg.arrival.properties;
  const until = seg.departure ?? seg.last;
  return {
    did: a.did,
    name: a.name,
    arrival: a.date,
    departure: seg.departure ? seg.departure.properties.date : null,
    duration: until.properties.date - a.date,
    lat: roundDegrees(seg.lat),
    lng: roundDegrees(seg.lng),
    address: seg.address,
    open: seg.departure === undefined,
    partial: seg.partial,
  };
}

export function stopProcessor(params: ReportParams = DEFAULTS, options: OrderOptions & { explain?: (e: Explanation) => void } = {}): UnitProcessor<Stop> {
  const { explain, ...order } = options;
  const tracker = new MotionTracker(params, { explain });
  const pick = (segs: readonly Segment[]): Stop[] => segs.flatMap((s) => (s.kind === 'stop' ? [stopRecord(s)] : []));
  return ordered({ windowS: params.reorderWindowS, ...order }, {
    push: (r) => pick(tracker.push(r)),
    finish: () => pick(tracker.finish()),
  });
}

/** The stops of one unit, in time order. */
export function stops(
  reports: AsyncIterable<ReportPoint> | Iterable<ReportPoint>,
  params: ReportParams = DEFAULTS,
  order: OrderOptions = {},
): AsyncIterable<Stop> {
  return run(reports, stopProcessor(params, order));
}
