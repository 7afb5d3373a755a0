/**
 * History as a map: reports of any number of units (grouped by properties.did) kept
 * columnar while they stream in, then one page with a track per unit. The line is
 * simplified for drawing; every report stays in the page, so popups are exact.
 */
import type { ReportFeature } from '../../../api/types.js';
import { formatClock } from '../../format-time.js';
import { colorFor, emptyPage, type LegendEntry, type PageData, type TrackData } from './page.js';
import { simplifyToBudgets } from './simplify.js';

/** Vertices of all drawn lines together, and dots, at most (a browser draws a few thousand SVG paths briskly). */
const LINE_BUDGET = 8000;
const DOT_BUDGET = 3000;
/** Report types drawn as markers of their own; the line always passes through the drawn ones. */
const EVENT_TYPES = new Set(['sos', 'crash']);
/**
 * Event markers on a page, at most: each is a DOM element with an icon, and thousands of them
 * cover the track and take a browser many seconds to draw (13,000 in a 1,000,000-report
 * history: 22 s). Past it, markers are taken evenly through each unit's events, and the page says so.
 */
export const EVENT_MARKER_BUDGET = 500;

interface UnitReports {
  did: number;
  name: string;
  date: number[];
  lat: number[];
  lng: number[];
  speed: (number | null)[];
  type: number[];
  address: number[];
  events: number[];
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export class HistoryCollector {
  private readonly units = new Map<number, UnitReports>();
  private readonly types: string[] = [];
  private readonly typeIndex = new Map<string, number>();
  private readonly addresses: string[] = [];
  private readonly addressIndex = new Map<string, number>();
  private first = Infinity;
  private last = -Infinity;
  private eventCount = new Map<string, number>();
  count = 0;

  add(feature: ReportFeature): void {
    const p = feature.properties ?? ({} as ReportFeature['properties']);
    const coords = feature.geometry?.coordinates;
    const lat = finite(p.lat) ?? finite(coords?.[1]);
    const lng = finite(p.lng) ?? finite(coords?.[0]);
    // A report without a position (or at 0,0, "no fix") cannot be drawn.
    if (lat === null || lng === null || (lat === 0 && lng === 0) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return;
    const did = finite(p.did) ?? 0;
    let unit = this.units.get(did);
    if (!unit) {
      const name = typeof p.name === 'string' && p.name !== '' ? p.name : `Unit ${did}`;
      unit = { did, name, date: [], lat: [], lng: [], speed: [], type: [], address: [], events: [] };
      this.units.set(did, unit);
    }
    const date = finite(p.date) ?? 0;
    const type = typeof p.reportType === 'string' ? p.reportType : 'report';
    if (EVENT_TYPES.has(type)) {
      unit.events.push(unit.date.length);
      this.eventCount.set(type, (this.eventCount.get(type) ?? 0) + 1);
    }
    unit.date.push(date);
    unit.lat.push(lat);
    unit.lng.push(lng);
    unit.speed.push(finite(p.speed));
    unit.type.push(intern(type, this.types, this.typeIndex));
    unit.address.push(typeof p.address === 'string' && p.address !== '' ? intern(p.address, this.addresses, this.addressIndex) : -1);
    if (date > 0) {
      this.first = Math.min(this.first, date);
      this.last = Math.max(this.last, date);
    }
    this.count++;
  }

  /** The page, its times labelled in `zone`. */
  page(zone: string): PageData {
    const units = [...this.units.values()].sort((a, b) => a.did - b.did);
    const data = emptyPage('history', historyTitle(units.map((u) => u.name)), windowLabel(this.first, this.last, this.count, zone), zone);
    data.types = this.types;
    data.addresses = this.addresses;
    const lineBudget = Math.max(200, Math.floor(LINE_BUDGET / Math.max(1, units.length)));
    const dotBudget = Math.floor(DOT_BUDGET / Math.max(1, units.length));
    const events = units.reduce((n, u) => n + u.events.length, 0);
    // Each unit's share of the markers, by its share of the events (at least one while it has any).
    const quota = (u: UnitReports): number => (events <= EVENT_MARKER_BUDGET ? u.events.length : Math.min(u.events.length, Math.max(1, Math.floor((EVENT_MARKER_BUDGET * u.events.length) / events))));
    data.tracks = units.map((u, i) => track(u, colorFor(i), lineBudget, dotBudget, quota(u)));
    const marked = data.tracks.reduce((n, t) => n + t.marks.length, 0);
    if (marked < events) {
      data.notes.push(`${marked.toLocaleString('en-US')} of ${events.toLocaleString('en-US')} sos and crash reports are drawn as markers (evenly spread); every report is in the page: click the line`);
    }
    const legend: LegendEntry[] = data.tracks.map((t) => ({ label: `${t.name} (${t.did}): ${t.t.length.toLocaleString('en-US')} report${t.t.length === 1 ? '' : 's'}`, color: t.color, shape: 'line' }));
    if (data.tracks.length > 0) legend.push({ label: 'last position', color: '#607d8b', shape: 'dot' });
    for (const type of EVENT_TYPES) {
      const n = this.eventCount.get(type) ?? 0;
      const typeIndex = this.typeIndex.get(type);
      const drawn = data.tracks.reduce((sum, t) => sum + t.marks.filter((i) => t.k[i] === typeIndex).length, 0);
      const count = drawn < n ? `${n.toLocaleString('en-US')}, ${drawn.toLocaleString('en-US')} drawn` : n.toLocaleString('en-US');
      if (n > 0) legend.push({ label: `${type} (${count})`, color: '', shape: type as 'sos' | 'crash' });
    }
    data.legend = legend;
    return data;
  }
}

function intern(value: string, table: string[], index: Map<string, number>): number {
  let i = index.get(value);
  if (i === undefined) {
    i = table.length;
    table.push(value);
    index.set(value, i);
  }
  return i;
}

/** `n` of `xs`, evenly spread, the first and last included (all of them when n ≥ their number). */
export function evenly<T>(xs: readonly T[], n: number): T[] {
  if (n >= xs.length) return [...xs];
  if (n <= 0) return [];
  if (n === 1) return [xs[xs.length - 1]!];
  return Array.from({ length: n }, (_, i) => xs[Math.round((i * (xs.length - 1)) / (n - 1))]!);
}

/** Reports sorted by date (a merged or late-arriving stream need not be), then the drawn subsets. */
function track(u: UnitReports, color: string, lineBudget: number, dotBudget: number, markBudget: number): TrackData {
  const order = u.date.map((_, i) => i);
  let sorted = true;
  for (let i = 1; i < u.date.length && sorted; i++) sorted = u.date[i - 1]! <= u.date[i]!;
  if (!sorted) order.sort((a, b) => u.date[a]! - u.date[b]! || a - b);
  const pick = <T>(xs: T[]): T[] => (sorted ? xs : order.map((i) => xs[i]!));
  const date = pick(u.date);
  const lat = pick(u.lat);
  const lng = pick(u.lng);
  const type = pick(u.type);
  const isEvent = new Set(u.events);
  const events = sorted ? u.events : order.flatMap((from, to) => (isEvent.has(from) ? [to] : []));
  const marks = evenly(events, markBudget);
  const [line, dots] = simplifyToBudgets(lat, lng, [lineBudget, dotBudget], marks) as [number[], number[]];
  const t = date.map((d, i) => (i === 0 ? d : d - date[i - 1]!));
  return { did: u.did, name: u.name, color, t, lat, lng, v: pick(u.speed), k: type, a: pick(u.address), line, dots, marks };
}

/** "Ford Transit 01", "Ford Transit 01 and Ford Transit 02", "Ford Transit 01, … and 5 more units". */
export function historyTitle(names: readonly string[]): string {
  if (names.length === 0) return 'History: no reports';
  if (names.length === 1) return `History of ${names[0]}`;
  if (names.length === 2) return `History of ${names[0]} and ${names[1]}`;
  if (names.length === 3) return `History of ${names[0]}, ${names[1]} and ${names[2]}`;
  return `History of ${names[0]}, ${names[1]} and ${names.length - 2} more units`;
}

/** "2026-11-20 08:00 – 2026-11-21 08:00 Europe/Berlin" (clock times in the zone, named), or undefined when no time is known. */
export function timeWindow(first: number, last: number, zone: string): string | undefined {
  if (!Number.isFinite(first) || !Number.isFinite(last)) return undefined;
  return `${clockLabel(first, zone)} – ${clockLabel(last, zone)} ${zone}`;
}

/** "2026-11-20 08:00" on the zone's clock. */
export function clockLabel(t: number, zone: string): string {
  const { date, time } = formatClock(t, zone);
  return `${date} ${time}`;
}

/** "2026-11-20 08:00 – 2026-11-21 08:00 UTC · 144 reports". */
export function windowLabel(first: number, last: number, count: number, zone: string): string {
  const reports = `${count.toLocaleString('en-US')} report${count === 1 ? '' : 's'}`;
  const window = timeWindow(first, last, zone);
  return window === undefined ? reports : `${window} · ${reports}`;
}
