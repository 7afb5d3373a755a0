/**
 * Distances between report positions. Great-circle (haversine) on a sphere of the mean
 * Earth radius: within 0.6 % of the ellipsoid everywhere (worst north–south at the equator),
 * which is below the error of the
 * path itself (reports are points, roads bend between them).
 */

/** IUGG mean Earth radius, km. */
export const EARTH_RADIUS_KM = 6371.0088;

const RAD = Math.PI / 180;

/** Great-circle distance in km between two [lat, lng] positions in degrees. */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const s = Math.sin(dLat / 2);
  const t = Math.sin(dLng / 2);
  const a = s * s + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * t * t;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Whether a report carries a usable position (some trackers send 0,0 or nothing without a fix). */
export function hasPosition(lat: unknown, lng: unknown): boolean {
  return (
    typeof lat === 'number' && typeof lng === 'number' && Number.isFinite(lat) && Number.isFinite(lng) &&
    Math.abs(lat) <= 90 && Math.abs(lng) <= 180 && !(lat === 0 && lng === 0)
  );
}
