/**
 * Where a watch or a wait starts a unit from: its state at the start (from what GET /all-units/
 * says of it), and the reports it sent before the watch began read into that state.
 */
import { base, fencesAt, observe, place, type UnitSnapshot, type WatchEvent, type WatchReport } from './watch-events.js';
import { DEFAULT_WATCH_PARAMS, num, type UnitWatchState, type WatchParams } from './watch-state.js';
import { stateFromAge } from './unit-state.js';

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

/** A unit's reports in date order (stable: equal dates keep the order sent). */
export function byDate<T extends { date: number }>(reports: readonly T[]): T[] {
  return [...reports].sort((a, b) => a.date - b.date);
}
