/**
 * A watched unit's state (plain JSON, so a checkpoint holds it as is), the watch's parameters
 * and defaults, how a saved state is read back, and how urgent a unit looks. The events that
 * change the state are in watch-events.ts; a watch's start in watch-start.ts.
 */
import type { Fence } from './fences.js';
import type { OverspeedState } from './overspeed.js';

export type Motion = 'moving' | 'stopped';

/** A unit's state: plain JSON, saved in the checkpoint as is. */
export interface UnitWatchState {
  did: number;
  name: string;
  motion: Motion | null;
  /** True once a motion_state report was seen: speed no longer decides. */
  motionReports: boolean;
  /** Date of the first report at or below the moving speed in the current slow spell (speed rule). */
  slowSince: number | null;
  stale: boolean;
  /** Date of the newest report (null: none known). */
  lastReport: number | null;
  lat: number | null;
  lng: number | null;
  speed: number | null;
  battery: number | null;
  address: string | null;
  /** battery_low was emitted and not re-armed yet. */
  batteryLow: boolean;
  /** Names of the fences the unit is inside, in file order. */
  fences: string[];
  /** The newest sos or crash. */
  alert: { event: 'sos' | 'crash'; time: number } | null;
  /** The overspeed episode in progress (report overspeed's state), when a speed limit is watched. */
  overspeed?: OverspeedState;
  /**
   * Reports dated from here to the unit's starting point are still to be read into this state
   * (watch reads them before its first poll): a checkpoint saved before that poll was delivered
   * keeps it, so the run that takes the checkpoint up reads them too, not the first guess alone.
   */
  seedFrom?: number;
}

export interface WatchParams {
  staleS: number;
  lowBatteryPct: number;
  batteryHysteresisPct: number;
  /** Speed (as the service reports it, km/h) above which a unit without motion_state reports is moving. */
  movingSpeed: number;
  /** How long a unit without motion_state reports must stay at or below movingSpeed to be stopped. */
  stopAfterS: number;
  fences: readonly Fence[];
  /** --speed-limit (km/h): overspeed events, as `report overspeed` finds episodes (fences' speedLimit too). */
  speedLimit?: number;
}

export const DEFAULT_WATCH_PARAMS: Omit<WatchParams, 'fences'> = {
  staleS: 24 * 3600,
  lowBatteryPct: 20,
  batteryHysteresisPct: 5,
  movingSpeed: 5,
  stopAfterS: 120,
};

/** A finite number, else null: what the service and a checkpoint may hold instead is no value. */
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Reads a saved state back; anything malformed → undefined (the unit starts afresh). */
export function restoreState(v: unknown): UnitWatchState | undefined {
  const s = v as Partial<UnitWatchState> | null;
  if (s === null || typeof s !== 'object' || typeof s.did !== 'number' || typeof s.name !== 'string') return undefined;
  if (!Array.isArray(s.fences) || typeof s.stale !== 'boolean' || typeof s.batteryLow !== 'boolean') return undefined;
  if (s.motion !== null && s.motion !== 'moving' && s.motion !== 'stopped') return undefined;
  return {
    did: s.did,
    name: s.name,
    motion: s.motion ?? null,
    motionReports: s.motionReports === true,
    slowSince: num(s.slowSince),
    stale: s.stale,
    lastReport: num(s.lastReport),
    lat: num(s.lat),
    lng: num(s.lng),
    speed: num(s.speed),
    battery: num(s.battery),
    address: typeof s.address === 'string' ? s.address : null,
    batteryLow: s.batteryLow,
    fences: s.fences.filter((f): f is string => typeof f === 'string'),
    alert: s.alert && (s.alert.event === 'sos' || s.alert.event === 'crash') && typeof s.alert.time === 'number' ? { event: s.alert.event, time: s.alert.time } : null,
    ...(restoreOverspeed(s.overspeed) ?? {}),
    ...(typeof s.seedFrom === 'number' && Number.isFinite(s.seedFrom) ? { seedFrom: s.seedFrom } : {}),
  };
}

/** A saved overspeed state, when well formed (an episode in progress is kept across restarts). */
function restoreOverspeed(v: unknown): { overspeed: OverspeedState } | undefined {
  const o = v as Partial<OverspeedState> | null | undefined;
  if (!o || typeof o !== 'object' || typeof o.did !== 'number' || typeof o.name !== 'string' || typeof o.seen !== 'boolean') return undefined;
  const e = o.episode;
  const episodeOk = e === null || (typeof e === 'object' && e !== undefined && typeof e.start === 'number' && typeof e.limit === 'number' && typeof e.last?.t === 'number');
  if (!episodeOk) return undefined;
  return { overspeed: { did: o.did, name: o.name, seen: o.seen, lastT: num(o.lastT), episode: e ?? null } };
}

/** How urgent a unit looks, 0 first: recent sos/crash, stale, low battery, moving, stopped, unknown. */
export function attentionRank(s: UnitWatchState, now: number, alertRecentS = 3600): number {
  if (s.alert !== null && now - s.alert.time <= alertRecentS) return 0;
  if (s.stale) return 1;
  if (s.batteryLow) return 2;
  if (s.motion === 'moving') return 3;
  if (s.motion === 'stopped') return 4;
  return 5;
}
