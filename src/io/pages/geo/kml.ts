/**
 * KML 2.2: a Placemark per report (name = report type, TimeStamp, description =
 * message and address, Point) and, at the end, a LineString Placemark of the track.
 * The track's coordinates are the only thing buffered (see TrackBuffer).
 */
import type { ReportFeature } from '../../../api/types.js';
import { isoDateOf, positionOf, type TrackBuffer } from './coords.js';
import { xmlElement } from './xml.js';

export function kmlStart(documentName: string): string {
  return '<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">\n<Document>' + xmlElement('name', documentName) + '\n';
}

/** One report Placemark (and its position pushed to the track), or '' without a valid position. */
export function kmlPlacemark(f: ReportFeature, track: TrackBuffer): string {
  const pos = positionOf(f);
  if (!pos) return '';
  track.push(pos);
  const p = f.properties;
  const when = isoDateOf(f);
  const description = [p.message, p.address].filter((s) => typeof s === 'string' && s !== '').join(' — ');
  return (
    '<Placemark>' +
    xmlElement('name', p.reportType) +
    // KML 2.2's order of a feature's elements: description, then the time primitive
    xmlElement('description', description) +
    (when ? `<TimeStamp><when>${when}</when></TimeStamp>` : '') +
    `<Point><coordinates>${pos.lng},${pos.lat}${pos.alt === undefined ? '' : `,${pos.alt}`}</coordinates></Point>` +
    '</Placemark>\n'
  );
}

/** The pieces of the track Placemark; none when there are fewer than two points (a line needs two). */
export function* kmlTrack(name: string, track: TrackBuffer): Generator<string> {
  if (track.length < 2) return;
  yield `<Placemark>${xmlElement('name', name)}<LineString><tessellate>1</tessellate><coordinates>\n`;
  yield* track.lines();
  yield '</coordinates></LineString></Placemark>\n';
}

/** A unit's reports and track in a merged document of many units. */
export function kmlFolderStart(name: string): string {
  return `<Folder>${xmlElement('name', name)}\n`;
}

export function kmlFolderEnd(): string {
  return '</Folder>\n';
}

export function kmlEnd(): string {
  return '</Document>\n</kml>\n';
}
