/** `watch` flags → a plan; every check happens here, before anything is sent. */
import { UsageError } from '../../errors.js';
import { parseDuration } from '../../io/format-time.js';
import { checkLocalPath, locationScheme } from '../../io/location.js';
import { parseSelection, type UnitSelection } from '../../runs/selection.js';
import { parseShard, type Shard } from '../../lake/shard.js';
import type { WatchEventName } from '../../reports/watch-events.js';

export interface WatchOptions {
  group?: string;
  category?: string;
  allUnits?: boolean;
  interval?: string;
  stale?: string;
  lowBattery?: string;
  geofence?: string;
  checkpoint?: string;
  shard?: string;
  exitOn?: string;
  speedLimit?: string;
}

export interface WatchPlan {
  selection: UnitSelection;
  intervalMs: number;
  staleS: number;
  lowBatteryPct: number;
  geofence: string | undefined;
  checkpoint: string | undefined;
  /** --shard K/N: only the units of this shard (lake/shard.ts). */
  shard: Shard | undefined;
  /** --speed-limit, km/h: overspeed events. */
  speedLimit: number | undefined;
  /** --exit-on: the events that end the watch (exit 0) once printed. */
  exitOn: ReadonlySet<WatchEventName> | undefined;
}

export const WATCH_EVENTS: readonly WatchEventName[] = ['report', 'moving', 'stopped', 'stale', 'battery_low', 'sos', 'crash', 'geofence_enter', 'geofence_exit', 'overspeed'];

export function parseExitOn(value: string): ReadonlySet<WatchEventName> {
  const names = value.split(',').map((n) => n.trim()).filter((n) => n !== '');
  const unknown = names.filter((n) => !(WATCH_EVENTS as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(`invalid --exit-on "${value}": ${names.length === 0 ? 'no event named' : `unknown event ${unknown.join(', ')}`}`, { hint: `Events: ${WATCH_EVENTS.join(', ')}` });
  }
  return new Set(names as WatchEventName[]);
}

export const DEFAULT_INTERVAL = '30s';
export const DEFAULT_STALE = '1d';
export const DEFAULT_LOW_BATTERY = 20;

function duration(value: string, flag: string, min: number): number {
  let s: number;
  try {
    s = parseDuration(value);
  } catch (err) {
    throw new UsageError(`invalid ${flag}: ${(err as Error).message}`);
  }
  if (!(s >= min)) throw new UsageError(`invalid ${flag} "${value}": at least ${min}s`);
  return s;
}

export function parsePercent(value: string): number {
  const v = value.trim().replace(/%$/, '');
  const pct = /^\d+(?:\.\d+)?$/.test(v) ? Number(v) : Number.NaN;
  if (!(pct > 0 && pct <= 100)) throw new UsageError(`invalid --low-battery "${value}": expected a percentage from 1 to 100`);
  return pct;
}

function parseSpeedLimit(value: string): number {
  const n = /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!(n > 0)) throw new UsageError(`invalid --speed-limit "${value}": expected a positive speed (km/h)`);
  return n;
}

export function parseWatchPlan(args: string[], opts: WatchOptions, env: Readonly<Record<string, string | undefined>> = {}): WatchPlan {
  // No selection at all watches every unit.
  const none = args.length === 0 && opts.group === undefined && opts.category === undefined && !opts.allUnits;
  const selection = parseSelection(args, none ? { allUnits: true } : opts);
  if (opts.geofence !== undefined && opts.geofence.trim() === '') throw new UsageError('invalid --geofence: empty file name');
  if (opts.checkpoint !== undefined && opts.checkpoint.trim() === '') throw new UsageError('invalid --checkpoint: empty file name');
  if (opts.checkpoint !== undefined) checkLocalPath(opts.checkpoint, '--checkpoint', 'file');
  if (opts.geofence !== undefined) locationScheme(opts.geofence, '--geofence');
  return {
    selection,
    intervalMs: duration(opts.interval ?? DEFAULT_INTERVAL, '--interval', 1) * 1000,
    staleS: duration(opts.stale ?? DEFAULT_STALE, '--stale', 1),
    lowBatteryPct: opts.lowBattery === undefined ? DEFAULT_LOW_BATTERY : parsePercent(opts.lowBattery),
    geofence: opts.geofence,
    checkpoint: opts.checkpoint,
    shard: parseShard(opts.shard, env),
    exitOn: opts.exitOn === undefined ? undefined : parseExitOn(opts.exitOn),
    speedLimit: opts.speedLimit === undefined ? undefined : parseSpeedLimit(opts.speedLimit),
  };
}
