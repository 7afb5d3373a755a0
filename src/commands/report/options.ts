/** `report` flags → a plan; every check before anything is sent. */
import { locationScheme } from '../../io/location.js';
import type { HistoryQuery } from '../../api/history.js';
import { UsageError } from '../../errors.js';
import { parseSelection, type UnitSelection } from '../../runs/selection.js';
import { parseShard, type Shard } from '../../lake/shard.js';
import { parseDuration, parseTime } from '../../io/format-time.js';
import { DEFAULT_MIN_OVERSPEED_S, validateParams, type ReportParams } from '../../reports/index.js';
import { parseConcurrency } from '../../validate.js';

export interface ReportOptions {
  group?: string;
  category?: string;
  allUnits?: boolean;
  from?: string;
  to?: string;
  concurrency?: string;
  geofence?: string;
  minTripDistance?: string;
  minTripDuration?: string;
  minStop?: string;
  maxGap?: string;
  speedThreshold?: string;
  stopRadius?: string;
  outlierSpeed?: string;
  reorderWindow?: string;
  motionState?: boolean;
  shard?: string;
  explain?: boolean;
  limit?: string;
  minDuration?: string;
}

export interface ReportPlan {
  selection: UnitSelection;
  window: HistoryQuery & { from: number; to: number };
  concurrency: number;
  params: ReportParams;
  tz: string;
  geofence: string | undefined;
  /** --shard K/N: only the units of this shard (lake/shard.ts). */
  shard: Shard | undefined;
  explain: boolean;
  /** overspeed: the plain limit (undefined: fences' speedLimits only) and the shortest episode. */
  limit: number | undefined;
  minDurationS: number;
}

export const DEFAULT_WINDOW_S = 24 * 3600;

function time(value: string | undefined, flag: string, nowMs: number, zone: string): number | undefined {
  if (value === undefined) return undefined;
  try {
    const s = Math.floor(parseTime(value, nowMs, { zone }));
    if (s < 0) throw new Error('before 1970');
    return s;
  } catch (err) {
    throw new UsageError(`invalid ${flag}: ${(err as Error).message}`);
  }
}

function duration(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  try {
    return parseDuration(value);
  } catch (err) {
    throw new UsageError(`invalid ${flag}: ${(err as Error).message}`);
  }
}

function speedLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!(n > 0)) throw new UsageError(`invalid --limit "${value}": expected a positive speed (km/h)`);
  return n;
}

/** `tz` is the invocation's zone (ctx.timeZone(), validated): the window is read in it and summary days are its days. */
export function parseReportPlan(args: string[], opts: ReportOptions, nowMs: number, needsFences: boolean, tz: string, env: Readonly<Record<string, string | undefined>> = {}): ReportPlan {
  const selection = parseSelection(args, opts);
  const now = Math.floor(nowMs / 1000);
  const to = time(opts.to, '--to', nowMs, tz) ?? now;
  const from = time(opts.from, '--from', nowMs, tz) ?? to - DEFAULT_WINDOW_S;
  if (from > to) throw new UsageError(`--from (${new Date(from * 1000).toISOString()}) is after --to (${new Date(to * 1000).toISOString()})`);
  const params = validateParams({
    minTripDistanceKm: opts.minTripDistance,
    minTripDurationS: duration(opts.minTripDuration, '--min-trip-duration'),
    minStopDurationS: duration(opts.minStop, '--min-stop'),
    maxGapS: duration(opts.maxGap, '--max-gap'),
    speedThreshold: opts.speedThreshold,
    stopRadiusM: opts.stopRadius,
    outlierSpeedKmh: opts.outlierSpeed,
    reorderWindowS: duration(opts.reorderWindow, '--reorder-window'),
    useMotionState: opts.motionState,
  });
  if (params.maxGapS === 0) throw new UsageError('invalid --max-gap: must be longer than 0s');
  if (needsFences && (opts.geofence === undefined || opts.geofence.trim() === '')) throw new UsageError('missing --geofence FILE (a GeoJSON FeatureCollection of named Polygons)');
  const limit = speedLimit(opts.limit);
  const minDurationS = duration(opts.minDuration, '--min-duration') ?? DEFAULT_MIN_OVERSPEED_S;
  if (opts.geofence !== undefined && opts.geofence.trim() === '') throw new UsageError('invalid --geofence: empty file name');
  const window: ReportPlan['window'] = { from, to };
  if (opts.geofence !== undefined) locationScheme(opts.geofence, '--geofence');
  return {
    selection, window, concurrency: parseConcurrency(opts.concurrency), params, tz, geofence: opts.geofence,
    explain: opts.explain === true, limit, minDurationS, shard: parseShard(opts.shard, env),
  };
}
