/**
 * Trips and stops as a map (for `report trips|stops -o html`): a line per trip (its
 * path simplified when it has one, else a straight dashed line from start to end) and a
 * marker per stop, one colour per unit (the stop markers in it too). A page of stops alone
 * (`report stops -o html`) is titled and counted as stops. Takes the plain report records.
 */
import type { OutputOptions } from '../../formats/output.js';
import { writePage } from './target.js';
import { colorFor, emptyPage, renderPage, type LegendEntry, type PageData, type StopData, type TripData } from './page.js';
import { simplifyToBudget } from './simplify.js';
import { timeWindow } from './history.js';

export interface TripRecord {
  did: number;
  name: string;
  start: number;
  end: number;
  duration: number;
  distanceKm: number;
  startLat: number;
  startLng: number;
  endLat: number;
  endLng: number;
  /** The positions driven through, [lng, lat] as in GeoJSON. */
  path?: ReadonlyArray<readonly [number, number]>;
}

export interface StopRecord {
  did: number;
  name: string;
  arrival: number;
  /** null (or absent) while the unit is still there. */
  departure?: number | null;
  duration: number;
  lat: number;
  lng: number;
  address?: string | null;
}

/** Vertices of all trip lines together, at most. */
const PATH_BUDGET = 20000;

const ok = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const placed = (lat: unknown, lng: unknown): boolean => ok(lat) && ok(lng) && !(lat === 0 && lng === 0) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;

/** The page of trips and stops, its times labelled in `zone`. */
export function tripsPageData(trips: readonly TripRecord[], stops: readonly StopRecord[], zone: string): PageData {
  // One colour per unit, in did order, shared by its trips and stops.
  const names = new Map<number, string>();
  for (const r of [...trips, ...stops]) if (!names.has(r.did)) names.set(r.did, r.name);
  const dids = [...names.keys()].sort((a, b) => a - b);
  const color = new Map(dids.map((did, i) => [did, colorFor(i)]));
  const perTrip = Math.max(50, Math.floor(PATH_BUDGET / Math.max(1, trips.length)));

  const tripData: TripData[] = [];
  for (const t of trips) {
    const given = (t.path ?? []).filter((p) => placed(p[1], p[0]));
    let path: number[];
    if (given.length >= 2) {
      const lat = given.map((p) => p[1]);
      const lng = given.map((p) => p[0]);
      path = simplifyToBudget(lat, lng, perTrip).flatMap((i) => [lat[i]!, lng[i]!]);
    } else if (placed(t.startLat, t.startLng) && placed(t.endLat, t.endLng)) {
      path = [t.startLat, t.startLng, t.endLat, t.endLng];
    } else {
      continue;
    }
    tripData.push({
      did: t.did, name: t.name, color: color.get(t.did)!, start: t.start, end: t.end, duration: t.duration,
      distanceKm: t.distanceKm, path, routed: given.length >= 2,
    });
  }
  const stopData: StopData[] = stops
    .filter((s) => placed(s.lat, s.lng))
    .map((s) => ({
      did: s.did, name: s.name, color: color.get(s.did)!, arrival: s.arrival, departure: s.departure ?? null,
      duration: s.duration, lat: s.lat, lng: s.lng, address: s.address ?? null,
    }));

  const times = [...trips.flatMap((t) => [t.start, t.end]), ...stops.flatMap((s) => [s.arrival, s.departure ?? s.arrival])].filter((x) => ok(x) && x > 0);
  const first = times.length > 0 ? Math.min(...times) : Infinity;
  const last = times.length > 0 ? Math.max(...times) : -Infinity;
  const unitNames = dids.map((did) => names.get(did)!);
  const label = unitNames.length === 0 ? 'no units' : unitNames.length <= 3 ? unitNames.join(', ') : `${unitNames.slice(0, 2).join(', ')} and ${unitNames.length - 2} more units`;
  // A page of stops alone (report stops) speaks of stops only.
  const stopsOnly = trips.length === 0 && stops.length > 0;
  const counted = (n: number, what: string): string => `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;
  const counts = stopsOnly ? counted(stops.length, 'stop') : `${counted(trips.length, 'trip')}, ${counted(stops.length, 'stop')}`;
  const data = emptyPage('trips', `${stopsOnly ? 'Stops' : 'Trips and stops'} of ${label}`, [timeWindow(first, last, zone), counts].filter(Boolean).join(' · '), zone);
  data.trips = tripData;
  data.stops = stopData;
  // A row per unit in its colour (its trips' line, or for stops alone its stop marker), then what the symbols mean.
  const legend: LegendEntry[] = dids.map((did) => {
    const nStops = stops.filter((s) => s.did === did).length;
    if (stopsOnly) return { label: `${names.get(did)} (${did}): ${counted(nStops, 'stop')}`, color: color.get(did)!, shape: 'stop' };
    const nTrips = trips.filter((t) => t.did === did).length;
    return { label: `${names.get(did)} (${did}): ${counted(nTrips, 'trip')}, ${counted(nStops, 'stop')}`, color: color.get(did)!, shape: 'line' };
  });
  if (stopData.length > 0 && !stopsOnly) legend.push({ label: 'stop, in its unit\'s colour', color: '', shape: 'stop' });
  if (tripData.some((t) => !t.routed)) legend.push({ label: 'dashed: start to end, path not known', color: '#777', shape: 'line' });
  data.legend = legend;
  return data;
}

/** The trips-and-stops page as one HTML string (self-contained; opens offline). */
export function buildTripsPage(trips: readonly TripRecord[], stops: readonly StopRecord[], zone: string): string {
  return [...renderPage(tripsPageData(trips, stops, zone))].join('');
}

/** For `report trips|stops -o html`: the page on stdout, or (stdout on a terminal) in a new file named on stderr. */
export async function writeTripsPage(trips: readonly TripRecord[], stops: readonly StopRecord[], out: OutputOptions): Promise<void> {
  await writePage(renderPage(tripsPageData(trips, stops, out.timeZone)), out, 'report');
}
