/**
 * The fleet's depots as GeoJSON, for geofence reports and watch: one rectangle per depot,
 * around the yard where its vehicles park and its sensors sit, named by where it lies in
 * town; two of them carry a `speedLimit` (km/h) for `report overspeed --geofence`.
 */
import { DEPOTS, depotAt } from './unit-profile.js';

/** Half the yard's size in degrees: about 170 m each way, so the sensors (within ~110 m) and every parked fix fall inside. */
const HALF_LAT = 0.0015;
const HALF_LNG = 0.002;
/** From the northernmost depot to the southernmost. */
const NAMES = ['North depot', 'Central depot', 'South depot'] as const;
const SPEED_LIMITS: Record<string, number> = { 'North depot': 20, 'South depot': 15 };

const round6 = (n: number): number => Math.round(n * 1e6) / 1e6;

export interface DepotFeature {
  type: 'Feature';
  properties: { name: string; speedLimit?: number };
  geometry: { type: 'Polygon'; coordinates: number[][][] };
}

export interface DepotCollection {
  type: 'FeatureCollection';
  features: DepotFeature[];
}

export function depotsGeoJson(seed: number): DepotCollection {
  const depots = Array.from({ length: DEPOTS }, (_, k) => depotAt(seed, k)).sort((a, b) => b.lat - a.lat);
  return {
    type: 'FeatureCollection',
    features: depots.map((d, i) => {
      const name = NAMES[i] as string;
      const [s, n, w, e] = [round6(d.lat - HALF_LAT), round6(d.lat + HALF_LAT), round6(d.lng - HALF_LNG), round6(d.lng + HALF_LNG)];
      const limit = SPEED_LIMITS[name];
      return {
        type: 'Feature',
        properties: limit === undefined ? { name } : { name, speedLimit: limit },
        // the exterior ring runs counter-clockwise (RFC 7946)
        geometry: { type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] },
      };
    }),
  };
}

/** The text `trackctl sandbox depots` prints and docs/depots.geojson holds. */
export const depotsText = (seed: number): string => `${JSON.stringify(depotsGeoJson(seed), null, 2)}\n`;
