/**
 * `report … --explain`: why each stretch of a unit's history became a trip, short move,
 * stop, gap or outlier, as a line of text for stderr or as records (-o json|ndjson).
 */
import { sanitizeText } from '../../sanitize.js';
import { formatRfc3339 } from '../format-time.js';
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

/** One line: `explain: 2004 (Truck 4) stop 2026-11-23T19:30:00Z → 2026-11-23T20:05:00Z at 33.75,-84.39: stayed …`. */
export function formatExplanation(e: ExplanationText): string {
  const at = e.lat !== null && e.lng !== null ? ` at ${e.lat.toFixed(5)},${e.lng.toFixed(5)}` : '';
  const span = e.from === e.to ? formatRfc3339(e.from) : `${formatRfc3339(e.from)} → ${formatRfc3339(e.to)}`;
  return `explain: ${e.did} (${sanitizeText(e.name)}) ${e.kind} ${span}${at}: ${e.reason}`;
}
