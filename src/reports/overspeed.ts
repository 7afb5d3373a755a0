/**
 * The overspeed report and watch's overspeed event: episodes of reported speed above the
 * limit. The limit at a report is --limit, or the numeric `speedLimit` of a geofence that
 * contains it when lower (the lowest limit that applies wins; `fence` names the fence whose
 * limit applied, null for the plain limit). An episode runs from the first report above the
 * limit to the first report back at or under it (or under another limit: entering a slower
 * zone while speeding starts a new episode), and counts when it lasted --min-duration. A
 * silence longer than --max-gap, or the end of the reports, ends it at its last report above
 * the limit, partial; an episode already on at the first report, or at the first after such a
 * silence, is partial too. Not partial where the odometer bounds the silence: the report on
 * its other side is at or under the limit, and the odometer's count across it takes no longer
 * than --max-gap at the limit, so the unit sped no longer unseen than a shorter silence lets it
 * (a logger asleep from the moment it parks, an ignition-powered tracker whose first fix comes
 * minutes after it drove off, an outage over the rest of the trip). An episode
 * whose reports stayed within 100 m of each other, less than half what its limit covers in its
 * time, is no drive, and no episode: a parked unit's fix reading 15-30 km/h from position
 * noise, then the next one 20 minutes later at the same place. (A sparse drive's next report,
 * however late, is far away.)
 *
 * maxSpeed and where it was reported (lat, lng), avgSpeed (the time-weighted mean of the
 * reported speeds over the episode; the way into a motion_state report, whose speed is the
 * tracker's 0, not a measure, at the speed of the report before) and distanceKm (great circle
 * between its reports) are in the service's units. The state is plain JSON, so watch keeps it
 * in its checkpoint.
 */
import type { ReportPoint } from '../api/types.js';
import { inFence, type Fence } from './fences.js';
import { haversineKm, hasPosition } from './geo.js';
import { ordered, type OrderOptions } from './order.js';
import { NONE, type UnitProcessor } from './stream.js';
import { round } from './trips.js';

export interface Overspeed {
  did: number;
  name: string;
  start: number;
  end: number;
  duration: number;
  maxSpeed: number;
  avgSpeed: number;
  limit: number;
  distanceKm: number;
  /** Where the highest speed was reported. */
  lat: number;
  lng: number;
  /** The fence whose speedLimit applied; null for --limit. */
  fence: string | null;
  /** Cut by the edge of the reports or a silence longer than --max-gap. */
  partial: boolean;
}

export interface SpeedRules {
  /** The plain limit (km/h), if any. */
  limit: number | undefined;
  /** Fences with a speedLimit (others are ignored). */
  fences: readonly Fence[];
  minDurationS: number;
  maxGapS: number;
}

export const DEFAULT_MIN_OVERSPEED_S = 30;

/** An episode in progress. */
export interface Episode {
  limit: number;
  fence: string | null;
  start: number;
  startPartial: boolean;
  last: { t: number; lat: number; lng: number; speed: number };
  maxSpeed: number;
  maxLat: number;
  maxLng: number;
  speedTime: number;
  distanceKm: number;
  /** Watch told of it already (it lasted --min-duration while still on). */
  told: boolean;
  /** Flat [lng, lat, …] of its reports, when the state keeps paths (maps). */
  path?: number[];
}

/** One unit's overspeed state: plain JSON. */
export interface OverspeedState {
  did: number;
  name: string;
  /** Whether any report was seen (an episode at the first one began earlier). */
  seen: boolean;
  /** Date of the last report seen. */
  lastT: number | null;
  /** Its odometer (km), null without one; absent where the reports pass none (watch). */
  lastOdo?: number | null;
  episode: Episode | null;
  /** Keep each episode's positions (the report's geojson and html); watch does not. */
  keepPath?: boolean;
}

/** An episode with the positions of its reports, [lng, lat] as in GeoJSON. */
export interface OverspeedWithPath extends Overspeed {
  path: [number, number][];
}

export interface OverspeedFix {
  date: number;
  lat: number;
  lng: number;
  speed: number;
  /** Km, null when the report carries none: it bounds what the unit drove in a silence (watch passes none). */
  odometer?: number | null;
  /** A motion_state report: its speed is the tracker's 0 that goes with the word, not a measure. */
  word?: boolean;
}

export const newOverspeedState = (did: number, name: string): OverspeedState => ({ did, name, seen: false, lastT: null, episode: null });

/** The limit that applies at a position: the lowest of --limit and the speedLimits of the fences containing it. */
export function limitAt(rules: SpeedRules, lat: number, lng: number): { limit: number; fence: string | null } | undefined {
  let best = rules.limit === undefined ? undefined : { limit: rules.limit, fence: null as string | null };
  for (const f of rules.fences) {
    if (f.speedLimit === undefined || (best && f.speedLimit >= best.limit) || !inFence(f, lng, lat)) continue;
    best = { limit: f.speedLimit, fence: f.name };
  }
  return best;
}

/** Whether the episode's positions moved as a drive would (see above): 100 m, or half what the limit covers until `end`. */
function drove(e: Episode, end: number): boolean {
  return e.distanceKm >= Math.min(PARKED_KM, (0.5 * e.limit * Math.max(0, end - e.start)) / 3600);
}

/** Farther than a parked unit's position noise takes its fixes (the stops' radius). */
const PARKED_KM = 0.1;

/**
 * Whether the odometer says the unit, silent from `odo` (km) to f, could not have been above
 * `limit` for longer than `maxGapS` in between. Its count alone decides, not the positions: a
 * fix off by kilometres (a jump) still carries the odometer's reading.
 */
function bounded(odo: number | null | undefined, f: OverspeedFix, limit: number, maxGapS: number): boolean {
  const to = f.odometer;
  if (typeof odo !== 'number' || typeof to !== 'number' || !Number.isFinite(odo) || !Number.isFinite(to)) return false;
  const km = to - odo;
  return km >= 0 && (km * 3600) / limit <= maxGapS;
}

function record(s: OverspeedState, e: Episode, end: number, partial: boolean): Overspeed {
  const duration = end - e.start;
  const rec: Overspeed = {
    did: s.did, name: s.name, start: e.start, end, duration, maxSpeed: e.maxSpeed,
    avgSpeed: round(duration > 0 ? e.speedTime / duration : e.maxSpeed, 1), limit: e.limit,
    distanceKm: round(e.distanceKm, 3), lat: e.maxLat, lng: e.maxLng, fence: e.fence, partial,
  };
  if (!e.path) return rec;
  const path: [number, number][] = [];
  for (let i = 0; i + 1 < e.path.length; i += 2) path.push([e.path[i] as number, e.path[i + 1] as number]);
  return { ...rec, path } as OverspeedWithPath;
}

/** Adds the way from the episode's last report to f. */
function extend(e: Episode, f: OverspeedFix): void {
  const a = e.last;
  const dt = Math.max(0, f.date - a.t);
  e.speedTime += (dt * (a.speed + (f.word ? a.speed : f.speed))) / 2;
  e.distanceKm += haversineKm(a.lat, a.lng, f.lat, f.lng);
  e.path?.push(f.lng, f.lat);
}

export interface OverspeedStep {
  /** Episodes that ended and lasted --min-duration. */
  done: readonly Overspeed[];
  /** An episode that has just lasted --min-duration, still on (watch tells it now rather than at its end). */
  reached: Overspeed | undefined;
}

/** What a report that ends and reaches nothing gives (most): one for all, never written to. */
const QUIET: OverspeedStep = Object.freeze({ done: NONE, reached: undefined });

/** One report of the unit, in date order; the state changes in place. */
export function overspeedStep(s: OverspeedState, f: OverspeedFix, rules: SpeedRules): OverspeedStep {
  let out = QUIET;
  const first = !s.seen;
  s.seen = true;
  const gap = s.lastT !== null && f.date - s.lastT > rules.maxGapS;
  const odo = s.lastOdo;
  s.lastT = f.date;
  // watch passes none (it tells no partial): its checkpointed state stays as it was
  if (f.odometer !== undefined) s.lastOdo = typeof f.odometer === 'number' && Number.isFinite(f.odometer) ? f.odometer : null;
  // Without fences the limit is --limit: no object a report for it.
  const at = rules.fences.length === 0 ? undefined : limitAt(rules, f.lat, f.lng);
  const limit = rules.fences.length === 0 ? rules.limit : at?.limit;
  const fence = at === undefined ? null : at.fence;
  const above = limit !== undefined && f.speed > limit;
  let e = s.episode;
  // the report before a silence above the limit too: whether the unit slowed down in it is not known
  const wasAbove = e !== null;
  if (e) {
    if (gap) {
      // back at or under the limit after it: cut only when the odometer leaves room for more speeding than --max-gap
      close(s, e, e.last.t, above || !bounded(odo, f, e.limit, rules.maxGapS));
      e = null;
    } else if (above && limit === e.limit && fence === e.fence) {
      extend(e, f);
      // in place: the last report's values, not an object a report
      e.last.t = f.date;
      e.last.lat = f.lat;
      e.last.lng = f.lng;
      e.last.speed = f.speed;
      if (f.speed > e.maxSpeed) {
        e.maxSpeed = f.speed;
        e.maxLat = f.lat;
        e.maxLng = f.lng;
      }
      if (!e.told && f.date - e.start >= rules.minDurationS && drove(e, f.date)) {
        e.told = true;
        return { done: NONE, reached: record(s, e, f.date, e.startPartial) };
      }
      return out;
    } else {
      extend(e, f);
      close(s, e, f.date, false);
      e = null;
    }
  }
  s.episode = null;
  if (above) {
    s.episode = {
      limit, fence, start: f.date, startPartial: first || (gap && (wasAbove || !bounded(odo, f, limit, rules.maxGapS))),
      last: { t: f.date, lat: f.lat, lng: f.lng, speed: f.speed },
      maxSpeed: f.speed, maxLat: f.lat, maxLng: f.lng, speedTime: 0, distanceKm: 0, told: false,
    };
    if (s.keepPath) s.episode.path = [f.lng, f.lat];
  }
  return out;

  function close(st: OverspeedState, ep: Episode, end: number, cut: boolean): void {
    st.episode = null;
    if (end - ep.start < rules.minDurationS || !drove(ep, end)) return;
    const rec = record(st, ep, end, ep.startPartial || cut);
    // watch tells an episode once: while on if it lasted long enough then, else when it ends
    out = { done: [rec], reached: ep.told ? undefined : rec };
  }
}

/** The reports ended: an episode still on ends at its last report above the limit, partial. */
export function overspeedFinish(s: OverspeedState, rules: SpeedRules): Overspeed[] {
  const e = s.episode;
  s.episode = null;
  if (!e || e.last.t - e.start < rules.minDurationS || !drove(e, e.last.t)) return [];
  return [record(s, e, e.last.t, true)];
}

const speedOf = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

/** A per-unit processor of overspeed episodes; reports may arrive out of date order (see inDateOrder). */
export function overspeedProcessor(rules: SpeedRules, order: OrderOptions & { windowS: number }, keepPath = false): UnitProcessor<Overspeed> {
  let state: OverspeedState | undefined;
  // One fix for every report: overspeedStep keeps none of it.
  const fix: OverspeedFix = { date: 0, lat: 0, lng: 0, speed: 0, odometer: null, word: false };
  return ordered(order, {
    push(r: ReportPoint) {
      const p = r.properties;
      if (!hasPosition(p.lat, p.lng)) return NONE;
      state ??= { ...newOverspeedState(p.did, p.name), keepPath };
      state.name = p.name;
      fix.date = p.date;
      fix.lat = p.lat;
      fix.lng = p.lng;
      fix.speed = speedOf(p.speed);
      fix.odometer = p.odometer;
      fix.word = p.reportType === 'motion_state';
      return overspeedStep(state, fix, rules).done;
    },
    finish: () => (state ? overspeedFinish(state, rules) : []),
  });
}
