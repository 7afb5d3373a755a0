/**
 * GET /_sandbox/truth/<did>?from=&to= — what a unit really did (its trips, stops and
 * reporting gaps), straight from the plan its history is generated from, so tests can
 * check what trackctl computes from the history. Not part of the service's interface:
 * a control endpoint (no auth, never faulted, not logged).
 */
import { DAY, dayOf, type DayPlan, planDay, type Stop } from '../drive.js';
import { badRequest, invalidValue, notFound, SandboxError } from '../errors.js';
import { json, type TextReply } from '../http.js';
import type { Db } from '../service/db.js';
import type { UnitEntry } from '../types.js';

/** The widest window one request may ask for. */
const MAX_SPAN = 400 * DAY;

export interface TruthTrip {
  start: number;
  end: number;
  distanceKm: number;
  startLat: number;
  startLng: number;
  endLat: number;
  endLng: number;
  maxSpeed: number;
}

export interface TruthStop {
  arrival: number;
  departure: number | null;
  lat: number;
  lng: number;
}

export interface Truth {
  did: number;
  from: number;
  to: number;
  trips: TruthTrip[];
  stops: TruthStop[];
  gaps: Array<{ from: number; to: number }>;
}

const round = (n: number, places: number): number => {
  const f = 10 ** places;
  return Math.round(n * f) / f;
};

/**
 * The truth for a unit in [from, to), limited to its history (histFrom to the earlier of
 * now and histUntil, "top"): trips that overlap the window and ended by top; stops that
 * overlap it, with arrival no earlier than histFrom and departure null while still parked
 * at top; gaps that overlap it.
 */
export function unitTruth(seed: number, u: UnitEntry, from: number, to: number, now: number): Truth {
  const top = u.histUntil === null ? now : Math.min(now, u.histUntil);
  const lo = Math.max(from, u.histFrom);
  const hi = Math.min(to, top);
  const out: Truth = { did: u.did, from, to, trips: [], stops: [], gaps: [] };
  if (hi <= lo) return out;
  const plans: DayPlan[] = [];
  for (let d = dayOf(seed, lo); d <= dayOf(seed, hi - 1); d++) plans.push(planDay(seed, u, d));
  for (const p of plans) {
    for (const tr of p.trips) {
      if (tr.start >= hi || tr.end <= lo || tr.end > top || tr.start < u.histFrom) continue;
      const a = tr.segs[0];
      const b = tr.segs[tr.segs.length - 1];
      if (!a || !b) continue;
      out.trips.push({
        start: tr.start, end: tr.end, distanceKm: round(tr.km, 4),
        startLat: round(a.lat0, 6), startLng: round(a.lng0, 6), endLat: round(b.lat1, 6), endLng: round(b.lng1, 6),
        maxSpeed: round(tr.maxSpeed, 1),
      });
    }
    if (p.gap && p.gap[0] < hi && p.gap[1] > lo) out.gaps.push({ from: p.gap[0], to: p.gap[1] });
  }
  // Stays: the one under way when the first day begins (it may have begun days before), then
  // every stop a trip ends in; the last of a day lasts until the next trip, maybe days later.
  const first = plans[0] as DayPlan;
  const stays: Array<[number, number | null, Stop]> = [];
  stays.push([arrivalBefore(seed, u, first), first.trips.length > 0 ? (first.stops[0] as Stop).to : departureAfter(seed, u, first, top), first.stops[0] as Stop]);
  for (const p of plans) {
    for (let i = 1; i < p.stops.length; i++) {
      const st = p.stops[i] as Stop;
      stays.push([st.from, i < p.stops.length - 1 ? st.to : departureAfter(seed, u, p, top), st]);
    }
  }
  for (const [arr, dep, st] of stays) {
    const arrival = Math.max(arr, u.histFrom);
    const departure = dep === null || dep > top ? null : dep;
    if (arrival >= hi || (departure !== null && departure <= lo)) continue;
    out.stops.push({ arrival, departure, lat: round(st.lat, 6), lng: round(st.lng, 6) });
  }
  return out;
}

/** When the unit arrived where day p begins: the last trip's end, walking back over days without trips. */
function arrivalBefore(seed: number, u: UnitEntry, p: DayPlan): number {
  let d = p.day;
  for (let i = 0; i < 60; i++) {
    const prev = planDay(seed, u, --d);
    if (prev.trips.length > 0) return (prev.stops[prev.stops.length - 1] as Stop).from;
    if (prev.start <= u.histFrom) break;
  }
  return u.histFrom;
}

/** When the unit leaves where day p ends (the next day with trips), or null when that is after top. */
function departureAfter(seed: number, u: UnitEntry, p: DayPlan, top: number): number | null {
  let d = p.day;
  for (;;) {
    const next = planDay(seed, u, ++d);
    if (next.start > top) return null;
    if (next.trips.length > 0) return (next.stops[0] as Stop).to;
  }
}

function query(url: string): Record<string, string> {
  const q: Record<string, string> = {};
  const text = url.split('?')[1];
  if (text) for (const [k, v] of new URLSearchParams(text)) q[k] = v;
  return q;
}

function timeParam(q: Record<string, string>, name: string, fallback: number): number {
  const v = q[name];
  if (v === undefined || v === '') return fallback;
  if (!/^\d+$/.test(v)) throw badRequest(`${name} must be a unix timestamp in seconds, got "${v}"`, name);
  return Number(v);
}

export function truthReply(db: Db, method: string, parts: string[], url: string): TextReply {
  if (method !== 'GET') throw new SandboxError(405, 'method_not_allowed', `${method} /_sandbox/truth/<did> is not supported`, undefined, { Allow: 'GET' });
  if (parts.length !== 3 || !/^\d+$/.test(parts[2] as string)) throw badRequest('use GET /_sandbox/truth/<did>?from=<unix s>&to=<unix s>', 'id');
  const did = Number(parts[2]);
  const u = db.state.units[did];
  if (!u) throw notFound(`unit ${did} not found`, 'id');
  const q = query(url);
  for (const k of Object.keys(q)) if (k !== 'from' && k !== 'to') throw badRequest(`unknown parameter "${k}" (known: from, to)`, k);
  const now = db.now();
  const to = timeParam(q, 'to', now);
  const from = timeParam(q, 'from', Math.max(u.histFrom, to - DAY));
  if (from > to) throw invalidValue(`from (${from}) is after to (${to})`, 'from');
  if (to - from > MAX_SPAN) throw invalidValue(`the window is longer than ${MAX_SPAN / DAY} days`, 'to');
  return json(200, unitTruth(db.state.seed, u, from, to, now));
}
