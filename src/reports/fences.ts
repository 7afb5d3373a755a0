/**
 * Geofences: named Polygon/MultiPolygon features of a GeoJSON FeatureCollection,
 * and the point-in-polygon test that reports and watch share.
 *
 * Coordinates are taken as planar [lng, lat] (as GeoJSON viewers draw them); fences
 * are depots and sites, small enough that the curvature of edges does not matter.
 * Rings crossing the antimeridian are not supported.
 */
import { limitText, readFileUpTo } from '../bounded-read.js';
import { UsageError } from '../errors.js';
import { checkJsonNesting } from './json-bounds.js';
import { ringArea, ringCrossing, ringsMeeting } from './ring-check.js';

/** A closed ring as flat [lng0, lat0, lng1, lat1, …]; the closing position is kept. */
export type Ring = Float64Array;

export interface Fence {
  name: string;
  /** Each polygon is its outer ring followed by its holes. */
  polygons: Ring[][];
  /** [minLng, minLat, maxLng, maxLat] over every outer ring. */
  bbox: [number, number, number, number];
  /** The speed limit inside the fence (its numeric "speedLimit" property, km/h), for the overspeed report and watch. */
  speedLimit?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Fences from a parsed GeoJSON value; `source` names it in errors (a file name). */
export function parseFences(json: unknown, source: string): Fence[] {
  const fail = (why: string): never => {
    throw new UsageError(`${source}: ${why}`, {
      hint: 'A geofence file is a GeoJSON FeatureCollection of Polygon or MultiPolygon features, each with a "name" property.',
    });
  };
  if (!isObject(json) || json.type !== 'FeatureCollection' || !Array.isArray(json.features)) {
    return fail('not a GeoJSON FeatureCollection');
  }
  if (json.features.length === 0) return fail('the FeatureCollection has no features');
  const seen = new Set<string>();
  return json.features.map((feature: unknown, i: number): Fence => {
    const at = `feature ${i + 1}`;
    if (!isObject(feature) || feature.type !== 'Feature') return fail(`${at} is not a GeoJSON Feature`);
    const name = isObject(feature.properties) ? feature.properties.name : undefined;
    if (typeof name !== 'string' || name.trim() === '') return fail(`${at} has no "name" property (a non-empty string)`);
    if (seen.has(name)) return fail(`two features are named "${name}"`);
    seen.add(name);
    const where = `${at} ("${name}")`;
    const geometry = feature.geometry;
    if (!isObject(geometry)) return fail(`${where} has no geometry`);
    let polygons: unknown[];
    if (geometry.type === 'Polygon') polygons = [geometry.coordinates];
    else if (geometry.type === 'MultiPolygon' && Array.isArray(geometry.coordinates)) polygons = geometry.coordinates;
    else return fail(`${where} is a ${String(geometry.type)}, not a Polygon or MultiPolygon`);
    if (polygons.length === 0) return fail(`${where} has no polygons`);
    const parsed = polygons.map((p, j) => parsePolygon(p, polygons.length > 1 ? `${where}, polygon ${j + 1}` : where, fail));
    const outers = parsed.map((poly) => poly[0] as Ring);
    const boxes = outers.map(ringBox);
    const overlap = polygonsOverlap(outers, boxes);
    if (overlap) {
      return fail(`${where}: polygons ${overlap.a + 1} and ${overlap.b + 1} ${overlap.why}; the polygons of a MultiPolygon must lie apart (merge them into one polygon, or make them features of their own)`);
    }
    const bbox = boxes.reduce((a, b): Fence['bbox'] => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])]);
    const limit = isObject(feature.properties) ? feature.properties.speedLimit : undefined;
    if (limit === undefined || limit === null) return { name, polygons: parsed, bbox };
    if (!finite(limit) || limit <= 0) return fail(`${where}: "speedLimit" must be a positive number (km/h), got ${JSON.stringify(limit)}`);
    return { name, polygons: parsed, bbox, speedLimit: limit };
  });
}

function parsePolygon(value: unknown, where: string, fail: (why: string) => never): Ring[] {
  if (!Array.isArray(value) || value.length === 0) return fail(`${where}: a polygon is a non-empty array of rings`);
  return value.map((ring: unknown, r: number) => {
    const which = r === 0 ? 'outer ring' : `hole ${r}`;
    // RFC 7946 §3.1.6: a linear ring has four or more positions and is closed.
    if (!Array.isArray(ring) || ring.length < 4) return fail(`${where}: ${which} needs at least 4 positions`);
    const flat = new Float64Array(ring.length * 2);
    ring.forEach((pos: unknown, k: number) => {
      if (!Array.isArray(pos) || pos.length < 2 || !finite(pos[0]) || !finite(pos[1])) {
        return fail(`${where}: ${which}, position ${k + 1} is not [longitude, latitude]`);
      }
      const [lng, lat] = pos as [number, number];
      if (Math.abs(lng) > 180 || Math.abs(lat) > 90) {
        return fail(`${where}: ${which}, position ${k + 1} [${lng}, ${lat}] is out of range`);
      }
      flat[2 * k] = lng;
      flat[2 * k + 1] = lat;
    });
    const n = flat.length;
    if (flat[0] !== flat[n - 2] || flat[1] !== flat[n - 1]) return fail(`${where}: ${which} is not closed (first and last positions differ)`);
    const crossing = ringCrossing(flat);
    if (crossing) {
      const [lng, lat] = crossing.near;
      return fail(`${where}: ${which} crosses or touches itself (the edges from positions ${crossing.edge + 1} and ${crossing.other + 1} meet, near [${lng}, ${lat}])`);
    }
    // Checked after crossings: a bow tie's two lobes also add up to no area, and crossing says why.
    if (ringArea(flat) === 0) return fail(`${where}: ${which} encloses no area (its positions are all the same, or all on one line)`);
    return flat;
  });
}

/**
 * Two outer rings of one MultiPolygon that share any point: their edges meet (a duplicated
 * polygon, overlapping or touching ones), or one lies inside the other. Rings whose edges
 * do not meet are either apart or nested, and one position tells which.
 */
function polygonsOverlap(outers: readonly Ring[], boxes: readonly Fence['bbox'][]): { a: number; b: number; why: string } | undefined {
  if (outers.length < 2) return undefined;
  const meeting = ringsMeeting(outers);
  if (meeting) return { a: meeting.ring, b: meeting.other, why: `overlap or touch (near [${meeting.near[0]}, ${meeting.near[1]}])` };
  // Only rings whose boxes overlap can nest: a sweep in order of west edge finds those pairs.
  const byWest = outers.map((_, i) => i).sort((i, j) => boxes[i]![0] - boxes[j]![0]);
  for (let s = 0; s < byWest.length; s++) {
    const a = byWest[s]!;
    const p = boxes[a]!;
    for (let t = s + 1; t < byWest.length && boxes[byWest[t]!]![0] <= p[2]; t++) {
      const b = byWest[t]!;
      const q = boxes[b]!;
      if (p[1] > q[3] || q[1] > p[3]) continue;
      const [first, second] = a < b ? [a, b] : [b, a];
      if (crossings(outers[second]!, outers[first]![0]!, outers[first]![1]!)) return { a: first, b: second, why: `overlap (polygon ${first + 1} lies inside polygon ${second + 1})` };
      if (crossings(outers[first]!, outers[second]![0]!, outers[second]![1]!)) return { a: first, b: second, why: `overlap (polygon ${second + 1} lies inside polygon ${first + 1})` };
    }
  }
  return undefined;
}

function ringBox(ring: Ring): Fence['bbox'] {
  const box: Fence['bbox'] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let k = 0; k < ring.length; k += 2) {
    box[0] = Math.min(box[0], ring[k]!);
    box[1] = Math.min(box[1], ring[k + 1]!);
    box[2] = Math.max(box[2], ring[k]!);
    box[3] = Math.max(box[3], ring[k + 1]!);
  }
  return box;
}

/**
 * A geofence file is a few sites (kilobytes; a detailed national border is a few MB).
 * Bounded before parsing: JSON.parse of 10 MB of "[" takes ~700 MB before it fails. Read
 * up to the limit only: /dev/zero or a FIFO fed for ever costs 32 MB, not all memory.
 */
export const MAX_FENCE_FILE_BYTES = 32 * 1024 * 1024;

/** Fences from a GeoJSON file; unreadable, too large, too deep or invalid → UsageError (exit 2). */
export async function loadFences(file: string): Promise<Fence[]> {
  let text: string | undefined;
  try {
    text = await readFileUpTo(file, MAX_FENCE_FILE_BYTES);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read geofence file ${file}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  if (text === undefined) {
    throw new UsageError(`geofence file ${file} is ${limitText(MAX_FENCE_FILE_BYTES)}`, {
      hint: 'Simplify the polygons (e.g. mapshaper -simplify, ogr2ogr -simplify) or split the file.',
    });
  }
  const tooDeep = checkJsonNesting(text, MAX_FENCE_NESTING);
  if (tooDeep !== undefined) throw new UsageError(`${file}: not a geofence file (${tooDeep})`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${file}: not JSON (${(err as Error).message})`);
  }
  return parseFences(json, file);
}

/** FeatureCollection → features → Feature → geometry → coordinates → polygon → ring → position is 8 deep; room for extra properties. */
const MAX_FENCE_NESTING = 32;

/** Even-odd crossing test over one ring (ray towards +lng). */
function crossings(ring: Ring, lng: number, lat: number): number {
  let inside = 0;
  for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
    const xi = ring[i] as number, yi = ring[i + 1] as number;
    const xj = ring[j] as number, yj = ring[j + 1] as number;
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside ^= 1;
  }
  return inside;
}

/** Whether [lng, lat] lies inside the fence: inside an outer ring and outside its holes (even-odd). */
export function inFence(fence: Fence, lng: number, lat: number): boolean {
  const [x0, y0, x1, y1] = fence.bbox;
  if (lng < x0 || lng > x1 || lat < y0 || lat > y1) return false;
  for (const polygon of fence.polygons) {
    let odd = 0;
    for (const ring of polygon) odd ^= crossings(ring, lng, lat);
    if (odd) return true;
  }
  return false;
}

/** The fences that contain [lng, lat], in file order. */
export function containing(fences: readonly Fence[], lng: number, lat: number): Fence[] {
  return fences.filter((f) => inFence(f, lng, lat));
}
