/**
 * Reports as geographic documents: trips as GeoJSON LineStrings or GPX tracks (one per
 * trip), stops as GeoJSON Points. Each record is written as it completes; only the
 * positions of the trip being written are held.
 */
import { formatRfc3339 } from '../format-time.js';
import { compactJson } from '../formats/render/json.js';
import type { OutputOptions, Rec } from '../formats/render/types.js';
import { gpxFooter, gpxHeader, gpxTrackEnd, gpxTrackStart } from './geo/gpx.js';
import { xmlElement } from './geo/xml.js';

export type ReportGeoFormat = 'geojson' | 'gpx';

/** A record and the geometry to draw it with. */
export interface GeoRecord {
  record: Rec;
  /** [lng, lat] positions: a line (trip) or one point (stop). */
  coordinates: Array<[number, number]>;
  kind: 'line' | 'point';
}

export interface GeoStream {
  write(r: GeoRecord): Promise<void>;
  end(): Promise<void>;
}

export function openGeoStream(format: ReportGeoFormat, out: OutputOptions): GeoStream {
  let first = true;
  if (format === 'geojson') {
    return {
      async write({ record, coordinates, kind }) {
        const geometry = kind === 'point' ? { type: 'Point', coordinates: coordinates[0] } : { type: 'LineString', coordinates };
        await out.io.out(`${first ? '{"type":"FeatureCollection","features":[\n' : ',\n'}${compactJson({ type: 'Feature', properties: record, geometry })}`);
        first = false;
      },
      async end() {
        await out.io.out(first ? '{"type":"FeatureCollection","features":[]}\n' : '\n]}\n');
      },
    };
  }
  return {
    async write({ record, coordinates }) {
      const start = typeof record.start === 'number' ? formatRfc3339(record.start) : '';
      const name = `${String(record.name ?? record.did)} ${start}`.trim();
      let text = first ? gpxHeader() : '';
      first = false;
      text += gpxTrackStart(name).replace('<trkseg>', `${xmlElement('desc', describeTrip(record))}<trkseg>`);
      for (const [lng, lat] of coordinates) text += `<trkpt lat="${lat}" lon="${lng}"></trkpt>\n`;
      await out.io.out(text + gpxTrackEnd());
    },
    async end() {
      await out.io.out(`${first ? gpxHeader() : ''}${gpxFooter()}`);
    },
  };
}

function describeTrip(r: Rec): string {
  const km = typeof r.distanceKm === 'number' ? `${r.distanceKm.toFixed(2)} km` : '';
  const min = typeof r.duration === 'number' ? `${Math.round(r.duration / 60)} min` : '';
  return [km, min, r.startAddress && r.endAddress ? `${String(r.startAddress)} → ${String(r.endAddress)}` : ''].filter((s) => s !== '').join(', ');
}

