/**
 * One self-contained HTML page: Leaflet's script and stylesheet and the page's own
 * script (page-script.js) inlined, the data inlined as JSON. It opens with no network:
 * OpenStreetMap tiles load when online, and everything else draws over a plain
 * background. The builders (history.ts, units.ts, trips.ts) shape the data; this
 * module only writes the document, as pieces so a large page is never one string.
 */
import leafletJs from 'leaflet/dist/leaflet.js' with { type: 'text' };
import leafletCss from 'leaflet/dist/leaflet.css' with { type: 'text' };
import pageScript from './page-script.js' with { type: 'text' };
import { sanitizeText } from '../../../sanitize.js';

/** Distinct colours for units, in order (Tableau 10, then darker variants). */
export const PALETTE = [
  '#4e79a7', '#e15759', '#59a14f', '#b07aa1', '#f28e2b', '#76b7b2', '#edc948', '#ff9da7', '#9c755f', '#bab0ac',
  '#1f4e79', '#8c1c1c', '#2d6a2d', '#6b3f6b', '#a65c00', '#2f6f6b',
];

export function colorFor(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}

export interface LegendEntry {
  label: string;
  color: string;
  /** How the swatch is drawn: a line (track, trip), a dot (point, unit), or an event/stop symbol. */
  shape: 'line' | 'dot' | 'sos' | 'crash' | 'stop';
}

/** A unit's reports, columnar (one array per property) so a long history stays small. */
export interface TrackData {
  did: number;
  name: string;
  color: string;
  /** Dates, unix seconds: the first absolute, each next one the difference from the one before. */
  t: number[];
  lat: number[];
  lng: number[];
  /** Speed as the service reports it (null when it sent none). */
  v: (number | null)[];
  /** Report type: an index into `types`. */
  k: number[];
  /** Address: an index into `addresses`, or -1. */
  a: number[];
  /** Indices of the reports the drawn line goes through (simplified). */
  line: number[];
  /** Indices of the reports drawn as dots (all of them when few; else the line's vertices). */
  dots: number[];
  /** Indices of the sos and crash reports drawn as markers (all of them, up to the page's cap). */
  marks: number[];
}

export interface TripData {
  did: number;
  name: string;
  color: string;
  start: number;
  end: number;
  duration: number;
  distanceKm: number;
  /** [lat, lng] pairs flattened: the path simplified, or just the start and the end. */
  path: number[];
  /** True when the trip came with its path (else it is drawn as a straight dashed line). */
  routed: boolean;
}

export interface StopData {
  did: number;
  name: string;
  color: string;
  arrival: number;
  departure: number | null;
  duration: number;
  lat: number;
  lng: number;
  address: string | null;
}

export type UnitState = 'moving' | 'stopped' | 'stale' | 'sensor';

export interface UnitData {
  id: number;
  name: string;
  category: string;
  state: UnitState;
  color: string;
  lat: number;
  lng: number;
  /** Last report, unix seconds (0 when none). */
  time: number;
  battery: number | null;
  address: string | null;
}

export interface PageData {
  kind: 'history' | 'units' | 'trips';
  title: string;
  subtitle: string;
  /** The invocation's IANA zone: the page labels times in it. */
  zone: string;
  /** Said on the map, top right: what the page leaves out, and why. */
  notes: string[];
  legend: LegendEntry[];
  /** Look-up tables the tracks index into. */
  types: string[];
  addresses: string[];
  tracks: TrackData[];
  trips: TripData[];
  stops: StopData[];
  units: UnitData[];
}

export function emptyPage(kind: PageData['kind'], title: string, subtitle: string, zone: string): PageData {
  return { kind, title, subtitle, zone, notes: [], legend: [], types: [], addresses: [], tracks: [], trips: [], stops: [], units: [] };
}

export function escapeHtml(text: string): string {
  return sanitizeText(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The page's data with its strings as the page shows them: a unit's name carries no control or
 * bidi characters. Copied only where a string changes. A walk, not a replacer given to
 * JSON.stringify: that is called for each of a track's millions of numbers (1.5 s of a
 * 1,000,000-report page).
 */
function shown(value: unknown): unknown {
  if (typeof value === 'string') return sanitizeText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (!holdsText(v)) continue;
      const s = shown(v);
      if (s !== v) (copy ??= value.slice())[i] = s;
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value)) {
    if (!holdsText(v)) continue;
    const s = shown(v);
    if (s !== v) (copy ??= { ...value })[k] = s;
  }
  return copy ?? value;
}

const holdsText = (v: unknown): boolean => typeof v === 'string' || (typeof v === 'object' && v !== null);

/**
 * JSON safe inside a <script> element: no "</script>" or "<!--" can close or confuse it. Its
 * strings are stripped of control characters: the page shows them (labels, popups, the legend),
 * and a U+202E in a name would show the rest of its line reversed.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(shown(value)).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Inlined script text must not contain "</script" (Leaflet's does not; checked anyway). */
function inlineScript(text: string): string {
  return text.replace(/<\/(script)/gi, '<\\/$1');
}

/** Only the tile server may be reached; everything else is inline (styles, scripts, data: images). */
const CSP = "default-src 'none'; img-src https://tile.openstreetmap.org data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

/** Leaflet's stylesheet names image files beside it; the page draws no default markers or layer switcher, so they go. */
const css = leafletCss.replace(/url\(images\/[^)]*\)/g, 'none');

const PAGE_CSS = `
html,body{margin:0;height:100%;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222}
body{display:flex;flex-direction:column}
header{padding:8px 14px;background:#263238;color:#fff}
header h1{margin:0;font-size:17px;font-weight:600}
header p{margin:2px 0 0;font-size:13px;color:#cfd8dc}
#map{flex:1;background:#eef2f3}
.trk-notice{background:rgba(255,255,255,.9);padding:4px 8px;border-radius:4px;font-size:12px;color:#555}
.trk-legend{background:rgba(255,255,255,.94);padding:8px 10px;border-radius:6px;box-shadow:0 1px 4px rgba(0,0,0,.3);max-height:40vh;overflow:auto;font-size:12px}
.trk-legend div{display:flex;align-items:center;gap:6px;white-space:nowrap;margin:2px 0}
.trk-swatch{display:inline-block;width:18px;height:12px;flex:none;position:relative}
.trk-swatch.line::after{content:"";position:absolute;left:0;right:0;top:4px;height:4px;border-radius:2px;background:var(--c)}
.trk-swatch.dot::after{content:"";position:absolute;left:3px;top:0;width:12px;height:12px;border-radius:50%;background:var(--c);box-sizing:border-box;border:2px solid #fff;box-shadow:0 0 0 1px #888}
.trk-event{display:flex;align-items:center;justify-content:center;color:#fff;font:bold 9px/1 sans-serif;box-sizing:border-box;border:2px solid #fff;box-shadow:0 1px 3px rgba(0,0,0,.5)}
.trk-marker .trk-event{width:100%;height:100%}
.trk-sos{background:#d7191c;border-radius:50%}
.trk-crash{background:#fd8d3c;transform:rotate(45deg)}
.trk-crash span{display:block;transform:rotate(-45deg)}
.trk-stop{background:#37474f;border-radius:3px}
.trk-legend .trk-event{width:16px;height:16px;font-size:7px;flex:none}
.trk-popup table{border-collapse:collapse}
.trk-popup th{text-align:left;padding:1px 8px 1px 0;color:#666;font-weight:500;vertical-align:top}
.trk-popup td{padding:1px 0}
.trk-label{font-size:11px;padding:1px 4px}
.trk-label-hover{display:none}
`;

/** The document, in pieces: markup and assets first, then the data, then the script that draws it. */
export function* renderPage(data: PageData): Generator<string, void, void> {
  const title = escapeHtml(data.title);
  yield '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n';
  yield `<meta http-equiv="Content-Security-Policy" content="${CSP}">\n`;
  yield '<meta name="viewport" content="width=device-width, initial-scale=1">\n';
  yield '<meta name="generator" content="trackctl">\n';
  yield `<title>${title}</title>\n<style>\n${css}\n${PAGE_CSS}</style>\n</head>\n<body>\n`;
  yield `<header><h1>${title}</h1><p>${escapeHtml(data.subtitle)}</p></header>\n<div id="map"></div>\n`;
  yield `<script>\n${inlineScript(leafletJs)}\n</script>\n`;
  // The data: one JSON document, written track by track so no single string holds it all.
  const { tracks, ...rest } = data;
  yield `<script type="application/json" id="map-data">${scriptJson(rest).slice(0, -1)},"tracks":[`;
  for (let i = 0; i < tracks.length; i++) yield `${i === 0 ? '' : ','}${scriptJson(tracks[i])}`;
  yield ']}</script>\n';
  yield `<script>\n${inlineScript(pageScript)}\n</script>\n</body>\n</html>\n`;
}
