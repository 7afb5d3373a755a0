/**
 * GPX 1.1: one track (named after the unit) with one segment; a report is a
 * track point with elevation, time, its message, its report type and satellites.
 * Child order follows the GPX 1.1 schema (wptType).
 */
import type { ReportFeature } from '../../../api/types.js';
import { isoDateOf, positionOf } from './coords.js';
import { xmlElement, xmlText } from './xml.js';

export function gpxHeader(creator = 'trackctl'): string {
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + `<gpx version="1.1" creator="${xmlText(creator)}" xmlns="http://www.topografix.com/GPX/1/1">\n`;
}

export function gpxTrackStart(trackName: string): string {
  return `<trk>${xmlElement('name', trackName)}<trkseg>\n`;
}

export function gpxTrackEnd(): string {
  return '</trkseg></trk>\n';
}

export function gpxFooter(): string {
  return '</gpx>\n';
}

export function gpxStart(trackName: string, creator = 'trackctl'): string {
  return gpxHeader(creator) + gpxTrackStart(trackName);
}

/** One <trkpt>, or '' for a report without a valid position. */
export function gpxPoint(f: ReportFeature): string {
  const pos = positionOf(f);
  if (!pos) return '';
  const p = f.properties;
  const sat = typeof p.satellites === 'number' && Number.isInteger(p.satellites) && p.satellites >= 0 ? p.satellites : undefined;
  return (
    `<trkpt lat="${pos.lat}" lon="${pos.lng}">` +
    (pos.alt === undefined ? '' : `<ele>${pos.alt}</ele>`) +
    xmlElement('time', isoDateOf(f)) +
    xmlElement('desc', p.message) +
    xmlElement('type', p.reportType) +
    xmlElement('sat', sat) +
    '</trkpt>\n'
  );
}

export function gpxEnd(): string {
  return gpxTrackEnd() + gpxFooter();
}
