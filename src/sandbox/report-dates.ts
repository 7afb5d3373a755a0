/**
 * When a sandbox unit reports, and when each report is received, as a pure function of
 * (seed, did, time) and the day's plan (drive.ts): parked reports on a jittered grid of
 * PARK_PERIOD seconds, a trip's reports every plan.step seconds, none inside the plan's
 * silences; most received seconds after their date, some hours late. history.ts says what
 * each report holds.
 */
import type { DayPlan, Stop } from './day-plan.js';
import { planDay } from './drive.js';
import { hash32, unit } from './prng.js';
import { dayOf, MOVE_STEP } from './unit-profile.js';

/** Share of reports received late: parked units often hold reports back (power saving) and send them in a batch. */
export const LATE_RATE_MOVING = 0.03;
export const LATE_RATE_PARKED = 0.2;
/** The longest delay between a report's date and its reception, in seconds. */
export const MAX_DELAY = 6 * 3600;
/** Parked reports: one per PARK_PERIOD seconds, each moved by up to ±PARK_JITTER (so 10–30 minutes apart). */
export const PARK_PERIOD = 1200;
export const PARK_JITTER = 300;

export interface HistoryUnit {
  did: number;
  name: string;
  deviceCategory: string;
  histFrom: number;
  histUntil: number | null;
  lowBattery?: boolean;
}

/** When report `date` of a unit is received; `moving`: it was made during a trip. */
export function receivedOf(seed: number, did: number, date: number, moving: boolean): number {
  const late = unit(seed, did, date, 3) < (moving ? LATE_RATE_MOVING : LATE_RATE_PARKED);
  return date + (late ? 3600 + (hash32(seed, did, date, 4) % (MAX_DELAY - 3600)) : 2 + (hash32(seed, did, date, 4) % 28));
}

/** Whether unix time t falls in one of the plan's trips (ends included). */
export function movingAt(plan: DayPlan, t: number): boolean {
  for (const tr of plan.trips) if (t >= tr.start && t <= tr.end) return true;
  return false;
}

/** When a unit's report dated `date` is received. */
export function receivedAt(seed: number, u: HistoryUnit, date: number): number {
  return receivedOf(seed, u.did, date, movingAt(planDay(seed, u, dayOf(seed, date)), date));
}

/** Report date and received time of the report keyed k (its date; no existence check). */
export function timesOf(seed: number, u: HistoryUnit, k: number): [number, number] {
  return [k, receivedAt(seed, u, k)];
}

/** Whether t falls in one of the plan's silences (no reports then). */
export function silentAt(plan: DayPlan, t: number): boolean {
  for (const s of plan.silences) if (t >= s.from && t < s.to) return true;
  return false;
}

function parkedDates(seed: number, did: number, plan: DayPlan, st: Stop, lo: number, hi: number, out: number[]): void {
  const a = Math.max(st.from, lo);
  const b = Math.min(st.to - 1, hi);
  if (b <= a) return;
  const off = hash32(seed, did, 40) % PARK_PERIOD;
  const gHi = Math.ceil((b - off + PARK_JITTER) / PARK_PERIOD);
  for (let g = Math.floor((a - off - PARK_JITTER) / PARK_PERIOD); g <= gHi; g++) {
    const t = g * PARK_PERIOD + off + (hash32(seed, did, g, 41) % (2 * PARK_JITTER + 1)) - PARK_JITTER;
    if (t > a && t <= b && !silentAt(plan, t)) out.push(t);
  }
}

/**
 * The dates of a trip's reports: start, about every plan.step s, end (with the usual step
 * of MOVE_STEP, all 30–60 s apart; a trip shorter than two steps has start, middle and end).
 */
function movingDates(seed: number, did: number, plan: DayPlan, s: number, e: number, lo: number, hi: number, out: number[]): void {
  if (e <= lo || s > hi) return;
  const m = Math.max(2, Math.round((e - s) / plan.step));
  const step = (e - s) / m;
  const amp =
    plan.step === MOVE_STEP
      ? Math.max(0, Math.min(6, Math.floor((step - 31) / 2), Math.floor((59 - step) / 2)))
      : Math.max(0, Math.floor((step - 2) / 10));
  const jLo = Math.max(0, Math.floor((lo - s) / step) - 1);
  const jHi = Math.min(m, Math.ceil((hi - s) / step) + 1);
  for (let j = jLo; j <= jHi; j++) {
    let t: number;
    if (j === 0) t = s;
    else if (j === m) t = e;
    else {
      const base = s + Math.floor(j * step);
      t = amp === 0 ? base : base + (hash32(seed, did, base, 42) % (2 * amp + 1)) - amp;
    }
    if (t > lo && t <= hi && !silentAt(plan, t)) out.push(t);
  }
}

/** Appends to `out`, in order, the dates of the reports of one planned day dated in (lo, hi]. */
export function reportDates(seed: number, did: number, plan: DayPlan, lo: number, hi: number, out: number[]): void {
  if (hi < plan.start || lo >= plan.end) return;
  const { stops, trips } = plan;
  for (let i = 0; i < stops.length; i++) {
    parkedDates(seed, did, plan, stops[i] as Stop, lo, hi, out);
    const tr = trips[i];
    if (tr) movingDates(seed, did, plan, tr.start, tr.end, lo, hi, out);
  }
}

/** The dates of a unit's reports in (lo, hi] that exist (within its history), in order. */
export function datesIn(seed: number, u: HistoryUnit, lo: number, hi: number): number[] {
  const out: number[] = [];
  lo = Math.max(lo, u.histFrom - 1);
  if (u.histUntil !== null) hi = Math.min(hi, u.histUntil);
  if (hi <= lo) return out;
  for (let d = dayOf(seed, lo + 1); d <= dayOf(seed, hi); d++) reportDates(seed, u.did, planDay(seed, u, d), lo, hi, out);
  return out;
}

/** The key (date) of the newest report received by `now`, or undefined when none is. */
export function latestVisibleK(seed: number, u: HistoryUnit, now: number): number | undefined {
  const top = u.histUntil === null ? now : Math.min(now, u.histUntil);
  if (top < u.histFrom) return undefined;
  let hi = top;
  let span = 1800;
  while (hi >= u.histFrom) {
    const lo = Math.max(hi - span, u.histFrom - 1);
    const dates = datesIn(seed, u, lo, hi);
    for (let i = dates.length - 1; i >= 0; i--) {
      const d = dates[i] as number;
      if (receivedAt(seed, u, d) <= now) return d;
    }
    hi = lo;
    span *= 4;
  }
  return undefined;
}

/**
 * Until when report k stays the newest visible one: the earliest reception among later
 * reports. A report is received after its date, so the search stops at a later report
 * dated after the earliest reception found so far.
 */
export function latestValidUntil(seed: number, u: HistoryUnit, k: number): number {
  let until = Infinity;
  let lo = k;
  while (lo < k + 3 * 86400) {
    const hi = lo + 3600;
    for (const d of datesIn(seed, u, lo, hi)) {
      if (d >= until) return until;
      const received = receivedAt(seed, u, d);
      if (received < until) until = received;
    }
    if (u.histUntil !== null && hi >= u.histUntil) break;
    lo = hi;
  }
  return until;
}
