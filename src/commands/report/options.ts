/** `report` flags → a plan; every check before anything is sent. */
import { locationScheme } from '../../io/location.js';
import type { HistoryQuery } from '../../api/history.js';
import { UsageError } from '../../errors.js';
import { parseSelection, type UnitSelection } from '../../runs/selection.js';
import { parseShard, type Shard } from '../../runs/shard.js';
import { parseTime } from '../../io/format-time.js';
import { DEFAULT_MIN_OVERSPEED_S, validateParams, type ReportParams } from '../../reports/index.js';
import { DEFAULT_CONCURRENCY } from '../../validate.js';

export interface ReportOptions {
  group?: number;
  category?: string;
  allUnits?: boolean;
  from?: string;
  to?: string;
  concurrency?: number;
  geofence?: string;
  minTripDistance?: number;
  minTripDuration?: number;
  minStop?: number;
  maxGap?: number;
  speedThreshold?: number;
  stopRadius?: number;
  outlierSpeed?: number;
  reorderWindow?: number;
  motionState?: boolean;
  shard?: string;
  explain?: boolean;
  limit?: number;
  minDuration?: number;
}

export interface ReportPlan {
  selection: UnitSelection;
  window: HistoryQuery & { from: number; to: number };
  concurrency: number;
  params: ReportParams;
  tz: string;
  geofence: string | undefined;
  /** --shard K/N: only the units of this shard (runs/shard.ts). */
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

/** `tz` is the invocation's zone (ctx.timeZone(), validated): the window is read in it and summary days are its days. */
export function parseReportPlan(args: string[], opts: ReportOptions, nowMs: number, needsFences: boolean, tz: string, env: Readonly<Record<string, string | undefined>> = {}): ReportPlan {
  const selection = parseSelection(args, opts);
  const now = Math.floor(nowMs / 1000);
  const to = time(opts.to, '--to', nowMs, tz) ?? now;
  const from = time(opts.from, '--from', nowMs, tz) ?? to - DEFAULT_WINDOW_S;
  if (from > to) throw new UsageError(`--from (${new Date(from * 1000).toISOString()}) is after --to (${new Date(to * 1000).toISOString()})`);
  const params = validateParams({
    minTripDistanceKm: opts.minTripDistance,
    minTripDurationS: opts.minTripDuration,
    minStopDurationS: opts.minStop,
    maxGapS: opts.maxGap,
    speedThreshold: opts.speedThreshold,
    stopRadiusM: opts.stopRadius,
    outlierSpeedKmh: opts.outlierSpeed,
    reorderWindowS: opts.reorderWindow,
    useMotionState: opts.motionState,
  });
  if (needsFences && (opts.geofence === undefined || opts.geofence.trim() === '')) throw new UsageError('missing --geofence FILE (a GeoJSON FeatureCollection of named Polygons)');
  const minDurationS = opts.minDuration ?? DEFAULT_MIN_OVERSPEED_S;
  if (opts.geofence !== undefined && opts.geofence.trim() === '') throw new UsageError('invalid --geofence: empty file name');
  const window: ReportPlan['window'] = { from, to };
  if (opts.geofence !== undefined) locationScheme(opts.geofence, '--geofence');
  return {
    selection, window, concurrency: opts.concurrency ?? DEFAULT_CONCURRENCY, params, tz, geofence: opts.geofence,
    explain: opts.explain === true, limit: opts.limit, minDurationS, shard: parseShard(opts.shard, env),
  };
}
