/**
 * The trips report: one record per trip of a unit. Field names are fixed by the design;
 * drivingTime (seconds moving within the trip, halts excluded) is an addition.
 */
import type { ReportFeature } from '../api/types.js';
import { DEFAULTS, type ReportParams } from './params.js';
import { MotionTracker, type Segment, type TripSegment } from './motion.js';
import { inDateOrder, type OrderOptions } from './order.js';
import { chain, run, type UnitProcessor } from './stream.js';

export interface Trip {
  did: number;
  name: string;
  /** Unix s of the first moving report. */
  start: number;
  /** Unix s of the arrival (first report of the stop that ended the trip, or the last before a gap). */
  end: number;
  /** end − start, s. */
  duration: number;
  distanceKm: number;
  /** Highest reported speed during the trip (service speed unit). */
  maxSpeed: number;
  /** Mean reported speed over the driving time (service speed unit). */
  avgSpeed: number;
  startLat: number;
  startLng: number;
  startAddress: string | null;
  endLat: number;
  endLng: number;
  endAddress: string | null;
  /** Seconds spent moving: duration less the halts. */
  drivingTime: number;
}

export const round = (n: number, places: number): number => {
  const f = 10 ** places;
  return Math.round(n * f) / f;
};

export function tripRecord(seg: TripSegment): Trip {
  const s = seg.start.properties;
  const e = seg.end.properties;
  return {
    did: s.did,
    name: s.name,
    start: s.date,
    end: e.date,
    duration: e.date - s.date,
    distanceKm: round(seg.distanceKm, 3),
    maxSpeed: seg.maxSpeed,
    avgSpeed: round(seg.avgSpeed, 1),
    startLat: s.lat,
    startLng: s.lng,
    startAddress: s.address ?? null,
    endLat: e.lat,
    endLng: e.lng,
    endAddress: e.address ?? null,
    drivingTime: seg.drivingTime,
  };
}

/** A per-unit processor of trips; reports may arrive out of date order (see inDateOrder). */
export function tripProcessor(params: ReportParams = DEFAULTS, order: OrderOptions = {}): UnitProcessor<Trip> {
  const tracker = new MotionTracker(params);
  const pick = (segs: Segment[]): Trip[] => segs.flatMap((s) => (s.kind === 'trip' ? [tripRecord(s)] : []));
  return chain(inDateOrder({ windowS: params.reorderWindowS, ...order }), {
    push: (r) => pick(tracker.push(r)),
    finish: () => pick(tracker.finish()),
  });
}

/** The trips of one unit, in time order. */
export function trips(
  reports: AsyncIterable<ReportFeature> | Iterable<ReportFeature>,
  params: ReportParams = DEFAULTS,
  order: OrderOptions = {},
): AsyncIterable<Trip> {
  return run(reports, tripProcessor(params, order));
}
