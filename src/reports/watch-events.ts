/**
 * `trackctl watch`: the events of a unit, derived from its reports and the clock. Pure:
 * no I/O, no clock of its own; the state is plain JSON so a checkpoint can hold it. This file
 * holds the events and the rules that make them (observe, tick); the state, parameters and
 * saved-state reading are in watch-state.ts, a watch's start (initialState, seedState) in
 * watch-start.ts.
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
import { DEFAULT_MIN_OVERSPEED_S, newOverspeedState, overspeedStep } from './overspeed.js';
import { num, type Motion, type UnitWatchState, type WatchParams } from './watch-state.js';

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

export function fencesAt(fences: readonly Fence[], lat: number, lng: number): string[] {
  return fences.filter((f) => inFence(f, lng, lat)).map((f) => f.name);
}

export function base(event: WatchEventName, s: UnitWatchState, time: number): WatchEvent {
  return { event, did: s.did, name: s.name, time };
}

export function place(s: UnitWatchState): Pick<WatchEvent, 'lat' | 'lng' | 'address'> {
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
    const told = overspeedStep(state.overspeed, { date: r.date, lat, lng, speed: speed ?? 0, word: r.reportType === 'motion_state' }, rules).reached;
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
