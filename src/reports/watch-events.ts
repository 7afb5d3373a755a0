/**
 * `trackctl watch`: the events of a unit, derived from its reports and the clock. Pure:
 * no I/O, no clock of its own; the state is plain JSON so a checkpoint can hold it.
 *
 * Feed a unit's reports in date order (`observe`) and the current time (`tick`, once a
 * round); each call returns the events it caused, in this order for one report:
 * `report`, `sos` | `crash`, `moving` | `stopped`, `battery_low`, `geofence_exit`s,
 * `geofence_enter`s. Event times are the report's date, so the same reports give the same
 * events whenever they are polled; `stale` is dated when the unit became stale
 * (last report + staleS), not when the tick noticed.
 *
 * Rules (the defaults are in DEFAULT_WATCH_PARAMS):
 * - motion: once a unit has sent a `motion_state` report, its moving/stopped state follows
 *   those reports only (reportValue "moving" / "stopped"). Before that, speed decides:
 *   moving when a report's speed is above `movingSpeed`; stopped when the speed stayed at
 *   or below it for `stopAfterS` (so a halt at a light is not a stop) or when the motion
 *   was not known yet. `moving`/`stopped` are emitted when the state changes, including
 *   from unknown (the first report tells). At the start the motion is read from the age of
 *   the last report, as the units map reads it (reports/unit-state.ts; a sensor is stopped):
 *   a van parked for an hour is stopped from the start, and its next report at rest says nothing.
 * - stale: once when `staleS` passed since the last report (a unit that never reported is
 *   stale from the start); the next report clears it (its `report` event says so).
 * - battery_low: once per crossing below `lowBatteryPct`; armed again when the battery
 *   is back at `lowBatteryPct + batteryHysteresisPct` or above. A unit that never reported
 *   has no battery level (the service sends 0): never low until a report says so.
 * - sos / crash: one per report of that type (late ones included).
 * - geofences: enter/exit when a report's position is inside/outside a fence it was not/was.
 * - overspeed (with a speed limit): once per episode, as `report overspeed` finds them (the
 *   same state machine, --min-duration 30 s), as soon as it has lasted that long, or when it
 *   ends if its reports came too sparse to tell before.
 * - late reports (dated before the unit's newest report) give `report` and `sos`/`crash`
 *   events but change no state: the state is that of the newest report.
 */
import { inFence, type Fence } from './fences.js';
import { stateFromAge } from './unit-state.js';
import { DEFAULT_MIN_OVERSPEED_S, newOverspeedState, overspeedStep, type OverspeedState } from './overspeed.js';

export type WatchEventName = 'report' | 'moving' | 'stopped' | 'stale' | 'battery_low' | 'sos' | 'crash' | 'geofence_enter' | 'geofence_exit' | 'overspeed';

export interface WatchEvent {
  event: WatchEventName;
  did: number;
  name: string;
  /** Unix seconds. */
  time: number;
  lat?: number;
  lng?: number;
  speed?: number;
  battery?: number;
  address?: string | null;
  reportType?: string;
  fence?: string;
  /** stale: the date of the last report (null: never reported). */
  lastReport?: number | null;
  /** sos, crash: the report's message. */
  message?: string;
  /** overspeed: the limit passed, the fence whose speedLimit it is (null for --speed-limit), when the episode began, its top speed so far. */
  limit?: number;
  start?: number;
  maxSpeed?: number;
}

/** The properties of a report this module reads. */
export interface WatchReport {
  date: number;
  lat?: number;
  lng?: number;
  speed?: number;
  battery?: number;
  address?: string | null;
  reportType?: string;
  reportValue?: string;
  message?: string;
  name?: string;
}

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

/** What GET /all-units/ says of a unit: its last report, battery and place. */
export interface UnitSnapshot {
  did: number;
  name: string;
  /** lastGPSTimestamp; 0 or missing = never reported. */
  lastReport?: number | null;
  battery?: number | null;
  lat?: number | null;
  lng?: number | null;
  address?: string | null;
  /** A sensor: it does not move. */
  stationary?: boolean;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The state a watch starts from at `now` (unix seconds), and its events: `battery_low` when the
 * last known battery is already low (dated at the last report). The motion is read from the
 * last report's age at `now` (without `now`, it is unknown until the first report). Fences are
 * taken as they are, without events; staleness is for the first tick.
 */
export function initialState(s: UnitSnapshot, params: WatchParams, now?: number): { state: UnitWatchState; events: WatchEvent[] } {
  const last = num(s.lastReport);
  const known = last !== null && last > 0;
  // A unit silent for longer than the moving window is parked (stale ones too: when it reports again, the report tells).
  const motion = known && now !== undefined ? (stateFromAge(last, now, params.staleS, s.stationary) === 'moving' ? 'moving' : 'stopped') : null;
  const lat = known ? num(s.lat) : null;
  const lng = known ? num(s.lng) : null;
  const state: UnitWatchState = {
    did: s.did,
    name: s.name,
    motion,
    motionReports: false,
    slowSince: null,
    stale: false,
    lastReport: known ? last : null,
    lat,
    lng,
    speed: null,
    battery: known ? num(s.battery) : null,
    address: known ? (s.address ?? null) : null,
    batteryLow: false,
    fences: lat !== null && lng !== null ? fencesAt(params.fences, lat, lng) : [],
    alert: null,
  };
  const events: WatchEvent[] = [];
  if (state.battery !== null && state.battery < params.lowBatteryPct && state.lastReport !== null) {
    state.batteryLow = true;
    events.push({ ...base('battery_low', state, state.lastReport), battery: state.battery, ...place(state) });
  }
  return { state, events };
}

function fencesAt(fences: readonly Fence[], lat: number, lng: number): string[] {
  return fences.filter((f) => inFence(f, lng, lat)).map((f) => f.name);
}

function base(event: WatchEventName, s: UnitWatchState, time: number): WatchEvent {
  return { event, did: s.did, name: s.name, time };
}

function place(s: UnitWatchState): Pick<WatchEvent, 'lat' | 'lng' | 'address'> {
  return { lat: s.lat ?? undefined, lng: s.lng ?? undefined, address: s.address };
}

/** One report of the unit (reports fed in date order); the state changes in place. */
export function observe(state: UnitWatchState, r: WatchReport, params: WatchParams): WatchEvent[] {
  if (typeof r.name === 'string' && r.name !== '') state.name = r.name;
  const lat = num(r.lat);
  const lng = num(r.lng);
  const speed = num(r.speed);
  const battery = num(r.battery);
  const events: WatchEvent[] = [];
  const here = { lat: lat ?? undefined, lng: lng ?? undefined, address: r.address ?? null };
  events.push({ ...base('report', state, r.date), ...here, speed: speed ?? undefined, battery: battery ?? undefined, reportType: r.reportType });
  if (r.reportType === 'sos' || r.reportType === 'crash') {
    events.push({ ...base(r.reportType, state, r.date), ...here, speed: speed ?? undefined, battery: battery ?? undefined, message: r.message });
    if (state.alert === null || r.date >= state.alert.time) state.alert = { event: r.reportType, time: r.date };
  }
  // A late report: told, but the state stays that of the newest report.
  if (state.lastReport !== null && r.date < state.lastReport) return events;

  state.lastReport = r.date;
  state.stale = false;
  if (lat !== null && lng !== null) {
    state.lat = lat;
    state.lng = lng;
  }
  if (speed !== null) state.speed = speed;
  if (battery !== null) state.battery = battery;
  if (r.address !== undefined) state.address = r.address;

  const motion = nextMotion(state, r, speed, params);
  if (motion !== null && motion !== state.motion) {
    state.motion = motion;
    events.push({ ...base(motion, state, r.date), ...place(state), speed: state.speed ?? undefined });
  }

  if (battery !== null) {
    if (!state.batteryLow && battery < params.lowBatteryPct) {
      state.batteryLow = true;
      events.push({ ...base('battery_low', state, r.date), ...place(state), battery });
    } else if (state.batteryLow && battery >= params.lowBatteryPct + params.batteryHysteresisPct) {
      state.batteryLow = false;
    }
  }

  if (lat !== null && lng !== null && params.speedLimit !== undefined) {
    state.overspeed ??= newOverspeedState(state.did, state.name);
    const rules = { limit: params.speedLimit, fences: params.fences, minDurationS: DEFAULT_MIN_OVERSPEED_S, maxGapS: 3600 };
    const told = overspeedStep(state.overspeed, { date: r.date, lat, lng, speed: speed ?? 0 }, rules).reached;
    if (told) {
      events.push({
        ...base('overspeed', state, r.date), ...place(state), speed: speed ?? undefined,
        limit: told.limit, fence: told.fence ?? undefined, start: told.start, maxSpeed: told.maxSpeed,
      });
    }
  }

  if (lat !== null && lng !== null && params.fences.length > 0) {
    const now = fencesAt(params.fences, lat, lng);
    for (const f of state.fences) if (!now.includes(f)) events.push({ ...base('geofence_exit', state, r.date), ...place(state), fence: f });
    for (const f of now) if (!state.fences.includes(f)) events.push({ ...base('geofence_enter', state, r.date), ...place(state), fence: f });
    state.fences = now;
  }
  return events;
}

function nextMotion(state: UnitWatchState, r: WatchReport, speed: number | null, params: WatchParams): Motion | null {
  if (r.reportType === 'motion_state') {
    state.motionReports = true;
    state.slowSince = null;
    return r.reportValue === 'moving' ? 'moving' : r.reportValue === 'stopped' ? 'stopped' : null;
  }
  if (state.motionReports || speed === null) return null;
  if (speed > params.movingSpeed) {
    state.slowSince = null;
    return 'moving';
  }
  state.slowSince ??= r.date;
  if (state.motion === null || r.date - state.slowSince >= params.stopAfterS) return 'stopped';
  return null;
}

/** How far before a unit's last report a watch or wait reads its reports to know its state: enough to see it stop. */
export const SEED_S = DEFAULT_WATCH_PARAMS.stopAfterS + 60;

/**
 * The reports a unit sent before the watch began (date order) read into its state, without
 * events (they happened before): its speed, place and motion are then what its last reports
 * say, not a guess from their age. A van parked at the depot whose tracker still reports is
 * stopped; one that reports without a speed keeps the age rule's guess.
 */
export function seedState(state: UnitWatchState, reports: readonly WatchReport[], params: WatchParams): void {
  if (reports.length === 0) return;
  const listed = state.lastReport;
  const guessed = state.motion;
  state.lastReport = null;
  state.motion = null;
  state.slowSince = null;
  for (const r of reports) observe(state, r, params);
  state.motion ??= guessed;
  // The snapshot's last report time may be newer than any report read (or that of one left out).
  if (listed !== null && (state.lastReport === null || listed > state.lastReport)) state.lastReport = listed;
}

/** The clock moved to `now` (unix seconds): a unit silent for staleS becomes stale, once. */
export function tick(state: UnitWatchState, now: number, params: WatchParams): WatchEvent[] {
  if (state.stale) return [];
  if (state.lastReport === null) {
    state.stale = true;
    return [{ ...base('stale', state, Math.floor(now)), lastReport: null }];
  }
  const due = state.lastReport + params.staleS;
  if (now < due) return [];
  state.stale = true;
  return [{ ...base('stale', state, due), ...place(state), lastReport: state.lastReport }];
}

/** A unit's reports in date order (stable: equal dates keep the order sent). */
export function byDate<T extends { date: number }>(reports: readonly T[]): T[] {
  return [...reports].sort((a, b) => a.date - b.date);
}

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
