/** Where and when a report was, as the geo formats need it. */
import type { ReportFeature } from '../../../api/types.js';
import { formatRfc3339 } from '../../format-time.js';

export interface Position {
  lat: number;
  lng: number;
  alt: number | undefined;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** geometry.coordinates ([lng, lat]) first, else properties.lat/lng; undefined when neither is a valid position. */
export function positionOf(f: ReportFeature): Position | undefined {
  const c: unknown = f.geometry?.coordinates;
  const p = f.properties;
  let lng: unknown = Array.isArray(c) ? c[0] : undefined;
  let lat: unknown = Array.isArray(c) ? c[1] : undefined;
  if (!finite(lat) || !finite(lng)) [lat, lng] = [p.lat, p.lng];
  if (!finite(lat) || !finite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return undefined;
  return { lat, lng, alt: finite(p.alt) ? p.alt : undefined };
}

/** The report's date as RFC 3339 UTC, or undefined without a valid date. */
export function isoDateOf(f: ReportFeature): string | undefined {
  const d = f.properties.date;
  return finite(d) && d >= 0 && d < 253402300800 ? formatRfc3339(d) : undefined;
}

/** Coordinates buffered compactly (24 bytes a point) for a track written at the end. */
export class TrackBuffer {
  private data = new Float64Array(3 * 1024);
  length = 0;

  push(p: Position): void {
    if (3 * (this.length + 1) > this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data.set([p.lng, p.lat, p.alt ?? Number.NaN], 3 * this.length);
    this.length++;
  }

  /** Lines of `lng,lat[,alt]` tuples, `perLine` to a line, for writing in pieces. */
  *lines(perLine = 1000): Generator<string> {
    const d = this.data;
    for (let i = 0; i < this.length; i += perLine) {
      const parts: string[] = [];
      for (let j = i; j < Math.min(this.length, i + perLine); j++) {
        const alt = d[3 * j + 2] as number;
        parts.push(`${d[3 * j]},${d[3 * j + 1]}${Number.isNaN(alt) ? '' : `,${alt}`}`);
      }
      yield `${parts.join(' ')}\n`;
    }
  }
}
