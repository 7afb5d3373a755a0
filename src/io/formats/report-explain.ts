/**
 * `report … --explain`: why each stretch of a unit's history became a trip, short move,
 * stop, gap or outlier, as a line of text for stderr or as records (-o json|ndjson).
 */
import { sanitizeText } from '../../sanitize.js';
import { formatClock, formatRfc3339 } from '../format-time.js';
import { isUtcName, offsetAt } from '../../time-zone.js';
import type { Column } from './render/types.js';

/** The fields of an explanation record, in order. */
export const EXPLAIN_COLUMNS: Column[] = [
  { key: 'did', header: 'UNIT', kind: 'number' },
  { key: 'name', header: 'NAME', shrink: true },
  { key: 'kind', header: 'KIND' },
  { key: 'from', header: 'FROM', kind: 'time', seconds: true },
  { key: 'to', header: 'TO', kind: 'time', seconds: true },
  { key: 'distanceKm', header: 'KM', kind: 'number' },
  { key: 'lat', header: 'LAT', kind: 'number' },
  { key: 'lng', header: 'LNG', kind: 'number' },
  { key: 'reason', header: 'REASON', shrink: true },
];

export interface ExplanationText {
  did: number;
  name: string;
  kind: string;
  from: number;
  to: number;
  lat: number | null;
  lng: number | null;
  reason: string;
}

/**
 * One line: `explain: 2004 (Truck 4) stop 2026-11-23 14:30:00-05:00 → 2026-11-23 15:05:00-05:00 at
 * 33.75,-84.39: stayed …`: times on the invocation's zone's clock with its offset (a line read
 * alone still names its instant), `2026-11-23T19:30:00Z` in UTC.
 */
export function formatExplanation(e: ExplanationText, zone = 'UTC'): string {
  const at = e.lat !== null && e.lng !== null ? ` at ${e.lat.toFixed(5)},${e.lng.toFixed(5)}` : '';
  const time = (t: number): string => (isUtcName(zone) ? formatRfc3339(t) : zonedTime(t, zone));
  const span = e.from === e.to ? time(e.from) : `${time(e.from)} → ${time(e.to)}`;
  return `explain: ${e.did} (${sanitizeText(e.name)}) ${e.kind} ${span}${at}: ${e.reason}`;
}

/** 2026-11-23 14:30:00-05:00: the zone's clock and its offset from UTC at that instant. */
function zonedTime(t: number, zone: string): string {
  const { date, time } = formatClock(t, zone, true);
  const minutes = Math.round(offsetAt(t, zone) / 60);
  const hhmm = (n: number): string => String(n).padStart(2, '0');
  return `${date} ${time}${minutes < 0 ? '-' : '+'}${hhmm(Math.floor(Math.abs(minutes) / 60))}:${hhmm(Math.abs(minutes) % 60)}`;
}
