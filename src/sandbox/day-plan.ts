/**
 * What a day's plan is (drive.ts plans it): its stops, trips and silences, and the rates and
 * bounds its days are drawn with (build-day.ts and idle-day.ts draw them).
 */
import type { Kind } from './unit-profile.js';

/** A straight piece of a trip, driven at one speed from t0 to t1. */
export interface Segment {
  t0: number;
  t1: number;
  lat0: number;
  lng0: number;
  lat1: number;
  lng1: number;
  km: number;
  kmh: number;
  heading: number;
  /** Distance driven since the day started, at t0 (km). */
  odo0: number;
}

export interface Trip {
  start: number;
  end: number;
  segs: Segment[];
  km: number;
  /** km/h, the fastest segment. */
  maxSpeed: number;
  /** A repositioning move (another dock, the next street), not a delivery leg. */
  short: boolean;
}

/** Parked: reports fall strictly inside (from, to). */
export interface Stop {
  from: number;
  to: number;
  lat: number;
  lng: number;
  heading: number;
  /** Distance driven since the day started (km). */
  odo: number;
}

/**
 * `sleep`: the logger sleeps while parked; `outage`: a tunnel, a power cut (anywhere, sometimes
 * over a whole trip); `ignition`: an ignition-powered tracker, off from just after it parks (its
 * `stopped` report is sent) until its first fix, 30 s to 3 minutes after it drove off.
 */
export type SilenceKind = 'sleep' | 'outage' | 'ignition';

/** No reports in [from, to). */
export interface Silence {
  from: number;
  to: number;
  kind: SilenceKind;
}

export interface DayPlan {
  seed: number;
  did: number;
  kind: Kind;
  day: number;
  start: number;
  end: number;
  /** Odometer at the start of the day (km), before any reset is taken off. */
  odoStart: number;
  /** What a reading loses to resets: `odoLess` from `reset` on (or all day when no reset falls in it), `odoLessBefore` before it. */
  reset: number | null;
  odoLess: number;
  odoLessBefore: number;
  /** Seconds between driving reports (0: never drives). */
  step: number;
  /** stops[i] comes before trips[i]; there is always one stop more than trips. */
  stops: Stop[];
  trips: Trip[];
  /** Sorted, disjoint. */
  silences: Silence[];
  /** The date of the day's jump (one fix kilometres off), filled in by history.ts on first use. */
  jump?: number | null;
}

/** Share of days with an outage (a tunnel, a power cut): working days, and other days. */
export const GAP_RATE = 0.25;
export const IDLE_GAP_RATE = 0.1;
/** An outage lasts this many seconds. */
export const GAP_MIN = 180;
export const GAP_MAX = 2400;
/** Share of working days on which the unit is silent over one whole trip (and a little of the stops around it). */
export const TRIP_SILENCE_RATE = 0.12;
/** Share of those days on which the silence spans two delivery legs and the stop between (well over an hour). */
export const LONG_TRIP_SILENCE_RATE = 0.4;
/** An ignition-powered tracker's first fix after it drives off comes this many seconds late. */
export const FIRST_FIX_MIN = 30;
export const FIRST_FIX_MAX = 180;
/** A sleeper (see SLEEPER_RATE) sleeps at this share of its stops. */
export const SLEEP_RATE = 0.7;
/** A sleep lasts 15 minutes to 10 hours (never past 5 minutes before the unit leaves). */
export const SLEEP_MIN = 900;
export const SLEEP_MAX = 36000;
/** A stop lasts 5–60 minutes (a tracked user's first stop of the day, at work, 3–8 hours). */
export const STOP_MIN = 300;
export const STOP_MAX = 3600;
/** The shortest segment of a trip, in seconds. */
export const SEGMENT_MIN_S = 90;
/** Share of a vehicle's working days on the late shift (leaving 14:00–17:00, home around or after midnight). */
export const LATE_SHIFT_RATE = 0.12;
/** Share of a vehicle's working days with a short repositioning move: 1.5–3 km in 3–5 minutes between two stops of 30–60 minutes. */
export const MOVE_RATE = 0.35;
/** Share of working days with a stretch of slow traffic: 2–10 km/h for 12–50 minutes. */
export const TRAFFIC_RATE = 0.3;
/** Share of the segments longer than 5 km driven over the limit (100–130 km/h for vehicles, 95–125 for phones). */
export const SPEEDING_RATE = 0.15;
