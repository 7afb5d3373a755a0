/**
 * What a unit really did in a window (its trips, stops, silences, jumps, odometer resets and
 * speeding), straight from the plan its history is generated from (drive.ts, history.ts),
 * for GET /_sandbox/truth/<did> (handlers/truth.ts). The records are in truth-types.ts.
 */
import type { DayPlan, Stop, Trip } from './day-plan.js';
import { planDay } from './drive.js';
import { dayOf, drivingStepOf, kindOf } from './unit-profile.js';
import { jumpOf, parkedSpeedFix, reportFromPlan } from './history.js';
import { datesIn, PARK_PERIOD, reportDates } from './report-dates.js';
import type { Around, Truth, TruthOverspeed, TruthTrip } from './truth-types.js';
import type { UnitEntry } from './types.js';

/** The speed limit overspeed episodes are found for when the request names none (km/h). */
export const DEFAULT_LIMIT = 100;

const round = (n: number, places: number): number => {
  const f = 10 ** places;
  return Math.round(n * f) / f;
};

/** The reports of a plan dated in [a, b]. */
function datesOf(seed: number, did: number, p: DayPlan, a: number, b: number): number[] {
  const out: number[] = [];
  reportDates(seed, did, p, a - 1, b, out);
  return out;
}

/** Whether report `t` of a unit is its day's jump (a fix kilometres off). */
const isJump = (seed: number, u: UnitEntry, t: number): boolean => jumpOf(seed, u.did, planDay(seed, u, dayOf(seed, t))) === t;

/** The reports around event `e` (see Around), within the unit's history up to `top`. */
export function reportsAround(seed: number, u: UnitEntry, e: number, top: number): Around {
  let before: number | null = null;
  for (let span = 3600, hi = e; before === null && hi >= u.histFrom; span *= 4) {
    const lo = Math.max(hi - span, u.histFrom - 1);
    const dates = datesIn(seed, u, lo, hi);
    for (let i = dates.length - 1; i >= 0 && before === null; i--) if (!isJump(seed, u, dates[i] as number)) before = dates[i] as number;
    hi = lo;
  }
  let after: number | null = null;
  for (let span = 3600, lo = e - 1; after === null && lo < top; span *= 4) {
    const hi = Math.min(lo + span, top);
    for (const d of datesIn(seed, u, lo, hi)) if (!isJump(seed, u, d)) {
      after = d;
      break;
    }
    lo = hi;
  }
  return [before, after];
}

function tripTruth(seed: number, u: UnitEntry, p: DayPlan, tr: Trip, top: number): TruthTrip {
  const a = tr.segs[0];
  const b = tr.segs[tr.segs.length - 1];
  if (!a || !b) throw new Error(`a trip of unit ${u.did} has no segments`);
  return {
    start: tr.start, end: tr.end, distanceKm: round(tr.km, 4),
    startLat: round(a.lat0, 6), startLng: round(a.lng0, 6), endLat: round(b.lat1, 6), endLng: round(b.lng1, 6),
    maxSpeed: round(tr.maxSpeed, 1),
    reports: datesOf(seed, u.did, p, tr.start, tr.end).length,
    inSilence: p.silences.some((s) => s.from <= tr.start && s.to > tr.end),
    short: tr.short,
    startAround: reportsAround(seed, u, tr.start, top),
    endAround: reportsAround(seed, u, tr.end, top),
    segments: tr.segs.map((g) => ({ start: g.t0, end: g.t1, speed: round(g.kmh, 1), distanceKm: round(g.km, 4) })),
  };
}

/** Episodes of a trip's reported speed (the segment's, to 0.1 km/h) above `limit`, with the reports that show them. */
function overspeedOf(seed: number, u: UnitEntry, p: DayPlan, tr: Trip, limit: number, out: TruthOverspeed[]): void {
  let i = 0;
  while (i < tr.segs.length) {
    if (round((tr.segs[i] as Trip['segs'][number]).kmh, 1) <= limit) {
      i++;
      continue;
    }
    const first = tr.segs[i] as Trip['segs'][number];
    let last = first;
    let max = 0;
    let km = 0;
    for (; i < tr.segs.length && round((tr.segs[i] as Trip['segs'][number]).kmh, 1) > limit; i++) {
      last = tr.segs[i] as Trip['segs'][number];
      max = Math.max(max, round(last.kmh, 1));
      km += last.km;
    }
    // a report dated t is made on the segment with t0 < t <= t1; the trip's last report is its `stopped` one (speed 0)
    const dates = datesOf(seed, u.did, p, first.t0 + 1, last.t1).filter((t) => t !== tr.end);
    let reported: number | null = null;
    for (const t of dates) {
      const g = tr.segs.find((x) => t > x.t0 && t <= x.t1) as Trip['segs'][number];
      reported = Math.max(reported ?? 0, round(g.kmh, 1));
    }
    out.push({
      start: first.t0, end: last.t1, maxSpeed: max, distanceKm: round(km, 4),
      reports: dates.length, firstReport: dates[0] ?? null, lastReport: dates[dates.length - 1] ?? null, maxReported: reported,
    });
  }
}

/**
 * The truth for a unit in [from, to), limited to its history (histFrom to the earlier of
 * now and histUntil, "top"): trips that overlap the window and ended by top; stops that
 * overlap it, with arrival no earlier than histFrom and departure null while still parked
 * at top; silences, jumps, resets and overspeed episodes (of trips listed) that overlap it.
 */
export function unitTruth(seed: number, u: UnitEntry, from: number, to: number, now: number, limit = DEFAULT_LIMIT): Truth {
  const top = u.histUntil === null ? now : Math.min(now, u.histUntil);
  const lo = Math.max(from, u.histFrom);
  const hi = Math.min(to, top);
  const step = drivingStepOf(seed, u);
  const out: Truth = {
    did: u.did, from, to, interval: { driving: step === 0 ? null : step, parked: PARK_PERIOD }, limit,
    trips: [], stops: [], gaps: [], jumps: [], odometerResets: [], overspeed: [],
  };
  if (hi <= lo) return out;
  const plans: DayPlan[] = [];
  for (let d = dayOf(seed, lo); d <= dayOf(seed, hi - 1); d++) plans.push(planDay(seed, u, d));
  for (const p of plans) {
    for (const tr of p.trips) {
      if (tr.start >= hi || tr.end <= lo || tr.end > top || tr.start < u.histFrom) continue;
      out.trips.push(tripTruth(seed, u, p, tr, top));
      overspeedOf(seed, u, p, tr, limit, out.overspeed);
    }
    for (const s of p.silences) if (s.from < hi && s.to > lo) out.gaps.push({ from: s.from, to: s.to, kind: s.kind });
    const jump = jumpOf(seed, u.did, p);
    if (jump !== null && jump >= lo && jump < hi) {
      const fix = reportFromPlan(seed, u, p, jump);
      const truth = reportFromPlan(seed, u, p, jump, false);
      out.jumps.push({ date: jump, lat: fix.lat, lng: fix.lng, trueLat: truth.lat, trueLng: truth.lng });
    }
    if (p.reset !== null && p.reset >= lo && p.reset < hi) out.odometerResets.push({ at: p.reset, before: round(p.odoStart - p.odoLessBefore, 3) });
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
    const dates = datesIn(seed, u, arrival, (departure ?? top + 1) - 1);
    const speedFixes = kindOf(u) !== 'fixed' ? dates.filter((t) => parkedSpeedFix(seed, u.did, t)).length : 0;
    out.stops.push({
      arrival, departure, lat: round(st.lat, 6), lng: round(st.lng, 6), reports: dates.length, speedFixes,
      arrivalAround: reportsAround(seed, u, arrival, top), departureAround: departure === null ? null : reportsAround(seed, u, departure, top),
    });
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
