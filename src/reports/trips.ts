/**
 * The trips report: one record per trip of a unit (motion.ts says what a trip is; short
 * moves are not trips). Field names are fixed by the design; drivingTime (seconds moving
 * within the trip, halts excluded), partial (cut by the edge of the window) and inferred
 * (it crossed a silence longer than --max-gap in which the unit moved, so the reports around
 * the silence bound it, none shows it) are additions.
 *
 * A trip runs from its departure to its arrival; when the first fix beyond the stop is
 * already moving, the way from the stop to it counts in the distance (not in the time).
 * avgSpeed is the mean of the reported speeds over the driving time (so it stays in the
 * service's speed unit, which the interface does not name), not distance over duration. A
 * trip still moving when the stream ends ends at the last report, partial.
 */
import type { ReportPoint } from '../api/types.js';
import { DEFAULTS, type ReportParams } from './params.js';
import { MotionTracker } from './motion.js';
import { ordered, type OrderOptions } from './order.js';
import type { Explanation, Segment, TripSegment } from './segments.js';
import { NONE, run, type UnitProcessor } from './stream.js';

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
  /** Highest reported speed during the trip (service speed unit); null when no report of it carries a speed (a trip inferred across a silence, a tracker that reads none). */
  maxSpeed: number | null;
  /** Mean reported speed over the driving time (service speed unit), leaving out ways beyond the stop radius with no speed at either end; null when no way carries one. */
  avgSpeed: number | null;
  startLat: number;
  startLng: number;
  startAddress: string | null;
  endLat: number;
  endLng: number;
  endAddress: string | null;
  /** Seconds spent moving: duration less the halts. */
  drivingTime: number;
  /** Cut by the edge of the reports: it began earlier or ended later than seen. */
  partial: boolean;
  /** It crossed a silence longer than --max-gap in which the unit moved: no report shows that part; start and end may lie anywhere in the silence. */
  inferred: boolean;
}

/** A trip with the positions of its reports, for LineString and GPX output (tripProcessor with `path: true`). */
export interface TripWithPath extends Trip {
  /** [lng, lat] of each report of the trip, in order (GeoJSON order). */
  path: [number, number][];
}

export interface TripOptions extends OrderOptions {
  /** Keep the positions of each trip (memory then grows with the longest trip, not with the history). */
  path?: boolean;
  /** Told why each stretch became a trip, short move, stop, gap or outlier. */
  explain?: (e: Explanation) => void;
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
    avgSpeed: seg.avgSpeed === null ? null : round(seg.avgSpeed, 1),
    startLat: s.lat,
    startLng: s.lng,
    startAddress: s.address ?? null,
    endLat: e.lat,
    endLng: e.lng,
    endAddress: e.address ?? null,
    drivingTime: seg.drivingTime,
    partial: seg.partial,
    inferred: seg.inferred,
  };
}

/** The trip record with its path as [lng, lat] pairs. */
export function tripWithPath(seg: TripSegment): TripWithPath {
  const flat = seg.path ?? [];
  const path: [number, number][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) path.push([flat[i] as number, flat[i + 1] as number]);
  return { ...tripRecord(seg), path };
}

/** A per-unit processor of trips; reports may arrive out of date order (see inDateOrder). */
export function tripProcessor(params?: ReportParams, options?: TripOptions & { path?: false }): UnitProcessor<Trip>;
export function tripProcessor(params: ReportParams, options: TripOptions & { path: true }): UnitProcessor<TripWithPath>;
export function tripProcessor(params: ReportParams = DEFAULTS, options: TripOptions = {}): UnitProcessor<Trip | TripWithPath> {
  const { path = false, explain, ...order } = options;
  const tracker = new MotionTracker(params, { keepPath: path, explain });
  const record = path ? tripWithPath : tripRecord;
  const pick = (segs: readonly Segment[]): readonly Trip[] => (segs.length === 0 ? NONE : segs.flatMap((s) => (s.kind === 'trip' && s.trip ? [record(s)] : [])));
  return ordered({ windowS: params.reorderWindowS, ...order }, {
    push: (r) => pick(tracker.push(r)),
    finish: () => pick(tracker.finish()),
  });
}

type Reports = AsyncIterable<ReportPoint> | Iterable<ReportPoint>;

/** The trips of one unit, in time order; with `path: true`, each with the positions of its reports. */
export function trips(reports: Reports, params?: ReportParams, options?: TripOptions & { path?: false }): AsyncIterable<Trip>;
export function trips(reports: Reports, params: ReportParams, options: TripOptions & { path: true }): AsyncIterable<TripWithPath>;
export function trips(reports: Reports, params: ReportParams = DEFAULTS, options: TripOptions = {}): AsyncIterable<Trip | TripWithPath> {
  return run(reports, options.path ? tripProcessor(params, { ...options, path: true }) : tripProcessor(params, { ...options, path: false }));
}
