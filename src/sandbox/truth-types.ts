/**
 * The records of GET /_sandbox/truth/<did> (handlers/truth.ts; truth.ts fills them in): what a
 * unit really did, for tests to hold trackctl's results against.
 */
import type { SilenceKind } from './day-plan.js';

/** A stretch of a trip driven at one speed. */
export interface TruthSegment {
  start: number;
  end: number;
  /** km/h, as the reports made on it read. */
  speed: number;
  distanceKm: number;
}

export interface TruthTrip {
  start: number;
  end: number;
  distanceKm: number;
  startLat: number;
  startLng: number;
  endLat: number;
  endLng: number;
  maxSpeed: number;
  /** How many reports the service has dated in [start, end] (whether or not received yet). */
  reports: number;
  /** The trip lies wholly inside a silence: no report at all, not even its start and end. */
  inSilence: boolean;
  /** A repositioning move (1.5–3 km in 3–5 minutes between two long stops), not a delivery leg. */
  short: boolean;
  /** The reports around start and end (see Around). */
  startAround: Around;
  endAround: Around;
  segments: TruthSegment[];
}

/**
 * The dates of the reports that bracket an event: the last one dated at or before it and the
 * first one dated at or after it (both the event's own date when a report marks it; null past
 * the edge of the history). Jumps are left out: their fix is not where the unit was. An event
 * inside a silence can only be placed between these two reports.
 */
export type Around = [number | null, number | null];

export interface TruthStop {
  arrival: number;
  departure: number | null;
  lat: number;
  lng: number;
  /** How many reports the service has dated strictly between arrival and departure (or the end of the history). */
  reports: number;
  /** How many of those are fixes 15–80 m off that read a driving speed (5–30 km/h). */
  speedFixes: number;
  /** The reports around arrival and departure (see Around; departureAround is null while still there). */
  arrivalAround: Around;
  departureAround: Around | null;
}

/** No reports in [from, to): a sleeping logger, an outage (over one or two whole trips, sometimes), an ignition-powered tracker off from just after it parks until its first fix on the next trip. */
export interface TruthGap {
  from: number;
  to: number;
  kind: SilenceKind;
}

export interface TruthJump {
  date: number;
  /** Where the fix says the unit was. */
  lat: number;
  lng: number;
  /** Where it was. */
  trueLat: number;
  trueLng: number;
}

export interface TruthOdometerReset {
  at: number;
  /** The reading just before the reset (km); the reading after it is 0 plus what is driven since. */
  before: number;
}

export interface TruthOverspeed {
  /** The true episode: the speed profile is above the limit from start to end. */
  start: number;
  end: number;
  maxSpeed: number;
  distanceKm: number;
  /** The reports that read a speed above the limit: how many, the first and the last (null when none was made). */
  reports: number;
  firstReport: number | null;
  lastReport: number | null;
  /** The highest speed those reports read (null when none was made): a sparse unit may miss the fastest segment. */
  maxReported: number | null;
}

export interface Truth {
  did: number;
  from: number;
  to: number;
  /** Seconds between reports: while driving (null for a unit that never drives) and, nominally, while parked (10–30 minutes apart). */
  interval: { driving: number | null; parked: number };
  /** The speed limit (km/h) of `overspeed`. */
  limit: number;
  trips: TruthTrip[];
  stops: TruthStop[];
  gaps: TruthGap[];
  jumps: TruthJump[];
  odometerResets: TruthOdometerReset[];
  overspeed: TruthOverspeed[];
}
