/**
 * Overspeed episodes as a map (`report overspeed -o html`): each episode drawn as the line of
 * its reports in its unit's colour, with a marker where the highest speed was reported that
 * names the speed, the limit and the fence. Built on the trips page (same look, same script).
 */
import type { OutputOptions } from '../../formats/output.js';
import { renderPage, type PageData } from './page.js';
import { writePage } from './target.js';
import { timeWindow } from './history.js';
import { tripsPageData, type StopRecord, type TripRecord } from './trips.js';

export interface EpisodeRecord {
  did: number;
  name: string;
  start: number;
  end: number;
  duration: number;
  distanceKm: number;
  maxSpeed: number;
  limit: number;
  fence: string | null;
  lat: number;
  lng: number;
  path?: ReadonlyArray<readonly [number, number]>;
}

export function overspeedPageData(episodes: readonly EpisodeRecord[], zone: string): PageData {
  const lines: TripRecord[] = episodes.map((e) => {
    const first = e.path?.[0] ?? [e.lng, e.lat];
    const last = e.path?.[e.path.length - 1] ?? [e.lng, e.lat];
    return { ...e, startLat: first[1], startLng: first[0], endLat: last[1], endLng: last[0] };
  });
  // The marker: where the maximum was, its popup says by how much the limit was passed.
  const peaks: StopRecord[] = episodes.map((e) => ({
    did: e.did, name: e.name, arrival: e.start, departure: e.end, duration: e.duration, lat: e.lat, lng: e.lng,
    address: `max ${e.maxSpeed} over the limit ${e.limit}${e.fence === null ? '' : ` (${e.fence})`}`,
  }));
  const data = tripsPageData(lines, peaks, zone);
  const units = new Set(episodes.map((e) => e.did)).size;
  const times = episodes.flatMap((e) => [e.start, e.end]);
  data.title = `Overspeed: ${episodes.length} episode${episodes.length === 1 ? '' : 's'} of ${units} unit${units === 1 ? '' : 's'}`;
  data.subtitle = times.length > 0 ? (timeWindow(Math.min(...times), Math.max(...times), zone) ?? '') : 'no episodes';
  data.legend = data.legend.map((l) => (l.shape === 'stop' ? { ...l, label: `highest speed (${peaks.length})` } : { ...l, label: l.label.replace(/ trips?$/, ' episodes').replace(/: 1 episodes$/, ': 1 episode') }));
  return data;
}

/** The page on stdout, or (stdout on a terminal) in a new file named on stderr. */
export async function writeOverspeedPage(episodes: readonly EpisodeRecord[], out: OutputOptions): Promise<void> {
  await writePage(renderPage(overspeedPageData(episodes, out.timeZone)), out, 'report');
}
