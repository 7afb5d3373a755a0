/** `watch` flags → a plan; every check happens here, before anything is sent. */
import { UsageError } from '../../errors.js';
import { checkLocalPath, locationScheme } from '../../io/location.js';
import { parseSelection, type UnitSelection } from '../../runs/selection.js';
import { parseShard, type Shard } from '../../runs/shard.js';
import type { WatchEventName } from '../../reports/watch-events.js';

export interface WatchOptions {
  group?: number;
  category?: string;
  allUnits?: boolean;
  /** Seconds. */
  interval?: number;
  /** Seconds. */
  stale?: number;
  lowBattery?: number;
  geofence?: string;
  checkpoint?: string;
  shard?: string;
  exitOn?: string;
  speedLimit?: number;
}

export interface WatchPlan {
  selection: UnitSelection;
  intervalMs: number;
  staleS: number;
  lowBatteryPct: number;
  geofence: string | undefined;
  checkpoint: string | undefined;
  /** --shard K/N: only the units of this shard (runs/shard.ts). */
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

export const DEFAULT_INTERVAL_S = 30;
export const DEFAULT_STALE_S = 24 * 3600;
export const DEFAULT_LOW_BATTERY = 20;

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
    intervalMs: (opts.interval ?? DEFAULT_INTERVAL_S) * 1000,
    staleS: opts.stale ?? DEFAULT_STALE_S,
    lowBatteryPct: opts.lowBattery ?? DEFAULT_LOW_BATTERY,
    geofence: opts.geofence,
    checkpoint: opts.checkpoint,
    shard: parseShard(opts.shard, env),
    exitOn: opts.exitOn === undefined ? undefined : parseExitOn(opts.exitOn),
    speedLimit: opts.speedLimit,
  };
}
