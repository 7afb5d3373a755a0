/**
 * Distances between report positions. Great-circle (haversine) on a sphere of the mean
 * Earth radius: within 0.6 % of the ellipsoid everywhere (worst north–south at the equator),
 * which is below the error of the
 * path itself (reports are points, roads bend between them). And the odometer's count between
 * two reports, when it is plausible.
 */

import type { ReportPoint } from '../api/types.js';

/** IUGG mean Earth radius, km. */
export const EARTH_RADIUS_KM = 6371.0088;

const RAD = Math.PI / 180;

/** The cosine of a latitude in degrees, as haversineKm takes it: a position measured against many others keeps it (see fix.ts). */
export const cosOfLat = (lat: number): number => Math.cos(lat * RAD);

/** The haversine of the central angle between two positions, given the cosines of their latitudes. */
export function haversineTerm(lat1: number, lng1: number, cos1: number, lat2: number, lng2: number, cos2: number): number {
  const s = Math.sin(((lat2 - lat1) * RAD) / 2);
  const t = Math.sin(((lng2 - lng1) * RAD) / 2);
  return s * s + cos1 * cos2 * t * t;
}

/** The great-circle distance in km whose haversine term is `a`. */
export const kmOfTerm = (a: number): number => 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));

/** Great-circle distance in km between two [lat, lng] positions in degrees. */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  return kmOfTerm(haversineTerm(lat1, lng1, cosOfLat(lat1), lat2, lng2, cosOfLat(lat2)));
}

/** Whether a report carries a usable position (some trackers send 0,0 or nothing without a fix). */
export function hasPosition(lat: unknown, lng: unknown): boolean {
  return (
    typeof lat === 'number' && typeof lng === 'number' && Number.isFinite(lat) && Number.isFinite(lng) &&
    Math.abs(lat) <= 90 && Math.abs(lng) <= 180 && !(lat === 0 && lng === 0)
  );
}

/**
 * A computed coordinate (a stop's median, the middle of two fixes) as a record shows it: to
 * the seventh decimal, about a centimetre, so the sum's last bits do not show (33.7485215, not
 * 33.748521499999995). Coordinates a report carried are shown as sent.
 */
export const roundDegrees = (deg: number): number => Math.round(deg * 1e7) / 1e7;

/** The fastest an odometer may advance between two reports, km/h; faster is a jump or a unit change. */
export const MAX_ODOMETER_KMH = 250;

/** How far an odometer's count may fall short of the straight line, or run ahead of MAX_ODOMETER_KMH, km: its rounding. */
export const ODOMETER_SLACK_KM = 0.1;

/**
 * The largest step of an odometer that counts in steps (whole kilometres, whole miles): one that
 * reads the same for minutes while the unit drives, then a step in a second. Such a step is no
 * jump when the unit could have driven it since the odometer last changed (summary.ts, move.ts).
 */
export const ODOMETER_STEP_KM = 2;

/** Whether an increase of `delta` km is such a step, `seconds` after the odometer last changed. */
export const plausibleStep = (delta: number, seconds: number): boolean =>
  delta > 0 && delta <= ODOMETER_STEP_KM && delta <= ODOMETER_SLACK_KM + (MAX_ODOMETER_KMH * seconds) / 3600;

/**
 * How much less than the unit drove two odometer readings may count, beyond ODOMETER_SLACK_KM: a
 * kilometre when both are whole numbers (an odometer that counts whole kilometres reads the same
 * for up to one), else nothing.
 */
export const odometerRounding = (o1: number, o2: number): number => (Number.isInteger(o1) && Number.isInteger(o2) ? 1 : 0);

/** b's odometer reading less a's when both carry a finite one, else undefined. */
export function odometerDelta(a: ReportPoint, b: ReportPoint): number | undefined {
  const o1 = a.properties.odometer;
  const o2 = b.properties.odometer;
  return typeof o1 === 'number' && typeof o2 === 'number' && Number.isFinite(o1) && Number.isFinite(o2) ? o2 - o1 : undefined;
}

/** Odometer distance between two reports when plausible, else undefined. */
export function odometerKm(a: ReportPoint, b: ReportPoint, straightKm: number): number | undefined {
  const delta = odometerDelta(a, b);
  if (delta === undefined || delta < 0) return undefined; // none, or a reset or a replaced unit
  if (delta + ODOMETER_SLACK_KM < straightKm * 0.9) return undefined; // stuck, or reset and regrown: shorter than the straight line
  const dt = Math.max(0, b.properties.date - a.properties.date);
  if (delta > ODOMETER_SLACK_KM + (MAX_ODOMETER_KMH * dt) / 3600) return undefined; // a jump
  return delta;
}
