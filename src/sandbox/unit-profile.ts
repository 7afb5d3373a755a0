/**
 * Who a unit of the sandbox fleet is, as a pure function of (seed, unit): where it lives
 * (its depot, or a home), its working days, how far it drives in a day and how often it
 * reports, whether its logger sleeps and its odometer is reset; and the planning days, from
 * 03:00 to 03:00 fleet-local time. drive.ts plans each day from this.
 */
import { hash32, unit } from './prng.js';

export const DAY = 86400;
/** Local hour at which a planning day starts (every vehicle is parked at its depot then). */
export const DAY_START_HOUR = 3;
/** Share of vehicles and phones whose logger sleeps while parked. */
export const SLEEPER_RATE = 0.4;
/**
 * Share of the other vehicles whose tracker is ignition-powered: off from the moment the unit
 * parks away from its depot until its GPS has a fix again, 30 s to 3 minutes after it drove off.
 */
export const IGNITION_RATE = 0.25;
/**
 * Driving reports: every 1–5 s (dense units: this share of vehicles, and of phones, whose
 * apps often report that fast), every 30–60 s (most), every 2–7 minutes (sparse units).
 */
export const DENSE_RATE_VEHICLE = 0.04;
export const DENSE_RATE_PHONE = 0.4;
export const SPARSE_RATE = 0.25;
export const MOVE_STEP = 45;
/** Share of units whose odometer is reset every 14–41 days, at 04:30 local time. */
export const RESET_RATE = 0.3;
export const RESET_AFTER_START = 5400;

export type Kind = 'vehicle' | 'person' | 'fixed';

export interface DriveUnit {
  did: number;
  deviceCategory: string;
}

export function kindOf(u: DriveUnit): Kind {
  if (u.deviceCategory === 'sensor') return 'fixed';
  if (u.deviceCategory === 'trackedUser') return 'person';
  return 'vehicle';
}

export interface Centre {
  lat: number;
  lng: number;
  city: string;
  /** Standard-time UTC offset in hours (no daylight saving in the simulation). */
  tz: number;
  alt: number;
}

/** Where the fleet lives, picked by seed. */
const CENTRES: ReadonlyArray<Centre> = [
  { lat: 39.7392, lng: -104.9903, city: 'Denver, CO', tz: -7, alt: 1600 },
  { lat: 41.8781, lng: -87.6298, city: 'Chicago, IL', tz: -6, alt: 180 },
  { lat: 47.6062, lng: -122.3321, city: 'Seattle, WA', tz: -8, alt: 50 },
  { lat: 33.749, lng: -84.388, city: 'Atlanta, GA', tz: -5, alt: 300 },
];

export function centreFor(seed: number): Centre {
  return CENTRES[hash32(seed, 77) % CENTRES.length] as Centre;
}

export interface Profile {
  kind: Kind;
  depotLat: number;
  depotLng: number;
  depotHeading: number;
  /** Working days: bit w set when weekday w (0 = Sunday) is one. */
  mask: number;
  /** Mean distance of a working day (km), and how far a day strays from it. */
  mean: number;
  wiggle: number;
  odoBase: number;
  step: number;
  sleeper: boolean;
  /** The tracker is powered by the ignition (see IGNITION_RATE); never a sleeper. */
  ignition: boolean;
  /** Odometer resets: every `resetEvery` days (0: never), on the days d with (d + resetPhase) % resetEvery = 0. */
  resetEvery: number;
  resetPhase: number;
}

export const DEPOTS = 3;

/** Where depot k of the fleet lies. */
export function depotAt(seed: number, k: number): { lat: number; lng: number } {
  const c = centreFor(seed);
  return { lat: c.lat + (unit(seed, k, 64) - 0.5) * 0.2, lng: c.lng + (unit(seed, k, 65) - 0.5) * 0.26 };
}

function drivingStep(seed: number, did: number, kind: Kind): number {
  if (kind === 'fixed') return 0;
  const q = unit(seed, did, 98);
  const dense = kind === 'person' ? DENSE_RATE_PHONE : DENSE_RATE_VEHICLE;
  if (q < dense) return 1 + (hash32(seed, did, 91) % 5);
  if (q < dense + SPARSE_RATE) return 120 + (hash32(seed, did, 91) % 301);
  return MOVE_STEP;
}

export function profile(seed: number, did: number, kind: Kind): Profile {
  const c = centreFor(seed);
  let depotLat: number;
  let depotLng: number;
  if (kind === 'person') {
    // a home of one's own somewhere in town
    depotLat = c.lat + (unit(seed, did, 60) - 0.5) * 0.25;
    depotLng = c.lng + (unit(seed, did, 61) - 0.5) * 0.33;
  } else {
    ({ lat: depotLat, lng: depotLng } = depotAt(seed, hash32(seed, did, 63) % DEPOTS));
    if (kind === 'fixed') {
      // a sensor sits somewhere in its depot's yard
      depotLat += (unit(seed, did, 67) - 0.5) * 0.002;
      depotLng += (unit(seed, did, 68) - 0.5) * 0.002;
    }
  }
  const mask = kind === 'person' ? 0x7f : hash32(seed, did, 69) % 2 === 0 ? 0x3e : 0x7e; // Mon–Fri or Mon–Sat
  const mean = kind === 'person' ? 12 + 23 * unit(seed, did, 70) : kind === 'vehicle' ? 60 + 110 * unit(seed, did, 70) : 0;
  const resets = kind !== 'fixed' && unit(seed, did, 93) < RESET_RATE;
  const sleeper = kind !== 'fixed' && unit(seed, did, 92) < SLEEPER_RATE;
  return {
    kind, depotLat, depotLng, depotHeading: hash32(seed, did, 71) % 360, mask, mean, wiggle: 0.35 * mean,
    odoBase: kind === 'fixed' ? 0 : 40000 + (hash32(seed, did, 72) % 110000),
    step: drivingStep(seed, did, kind),
    sleeper,
    ignition: kind === 'vehicle' && !sleeper && unit(seed, did, 96) < IGNITION_RATE,
    resetEvery: resets ? 14 + (hash32(seed, did, 94) % 28) : 0,
    resetPhase: hash32(seed, did, 95) % 64,
  };
}

/** Seconds between a unit's driving reports (0 for a unit that never drives). */
export function drivingStepOf(seed: number, u: DriveUnit): number {
  return drivingStep(seed, u.did, kindOf(u));
}

/** Unix seconds at which planning day d starts. */
export function dayStart(seed: number, d: number): number {
  return d * DAY + (DAY_START_HOUR - centreFor(seed).tz) * 3600;
}

/** The planning day that holds unix time t. */
export function dayOf(seed: number, t: number): number {
  return Math.floor((t - (DAY_START_HOUR - centreFor(seed).tz) * 3600) / DAY);
}

/** 0 = Sunday. Day 0 (1970-01-01) was a Thursday. */
const weekday = (d: number): number => (((d + 4) % 7) + 7) % 7;
export const working = (mask: number, d: number): boolean => ((mask >> weekday(d)) & 1) === 1;

/** How many working days come before day d (negative before 1970; only differences matter). */
function workIndex(mask: number, d: number): number {
  const weeks = Math.floor(d / 7);
  let n = 0;
  for (let w = 0; w < 7; w++) if ((mask >> w) & 1) n++;
  let j = weeks * n;
  for (let i = weeks * 7; i < d; i++) if (working(mask, i)) j++;
  return j;
}

/** Working days are counted from 2024-01-01 so that odometers stay near their base. */
const REF_DAY = 19723;

/** The index of day d among the unit's working days, counted from REF_DAY. */
export const workDay = (p: Profile, d: number): number => workIndex(p.mask, d) - workIndex(p.mask, REF_DAY);

/** Odometer at the start of the day whose working-day index is j (km). */
export const odometerAt = (seed: number, did: number, p: Profile, j: number): number => p.odoBase + j * p.mean + p.wiggle * unit(seed, did, j, 31);

/** The distance of working day j (km): odometerAt(j + 1) − odometerAt(j). */
export const dayDistance = (seed: number, did: number, p: Profile, j: number): number =>
  p.mean + p.wiggle * (unit(seed, did, j + 1, 31) - unit(seed, did, j, 31));

/** What a day's odometer readings lose to resets (see DayPlan). */
export interface Resets {
  reset: number | null;
  odoLess: number;
  odoLessBefore: number;
}

/** The last day at or before d on which the unit's odometer is reset (p.resetEvery > 0). */
const resetDayAtOrBefore = (p: Profile, d: number): number => d - ((((d + p.resetPhase) % p.resetEvery) + p.resetEvery) % p.resetEvery);

/** What readings of day d lose to resets: a reset reads the odometer at the start of its day (the unit is parked at 04:30). */
export function resetsOf(seed: number, did: number, p: Profile, d: number, start: number): Resets {
  if (p.resetEvery === 0) return { reset: null, odoLess: 0, odoLessBefore: 0 };
  const at = (day: number): number => odometerAt(seed, did, p, workDay(p, day));
  const r = resetDayAtOrBefore(p, d);
  if (r === d) return { reset: start + RESET_AFTER_START, odoLess: at(d), odoLessBefore: at(resetDayAtOrBefore(p, d - 1)) };
  const less = at(r);
  return { reset: null, odoLess: less, odoLessBefore: less };
}
