/**
 * The Parquet columns of a history report: one per report property of the service
 * interface, in the interface's order, typed and nullable, plus `extra`.
 *
 * - `lat`, `lng`: the geometry's coordinates (GeoJSON `[lng, lat]`), which is what maps and
 *   GIS tools plot; without a Point geometry, the properties' lat/lng. The properties'
 *   lat/lng are the same figures in every reply seen; where one differs it is kept in `extra`.
 * - `date`: TIMESTAMP (milliseconds, adjusted to UTC) from the unix seconds sent.
 * - Numbers sent as numeric strings ("42.5") are read as numbers. A value that does not
 *   fit its column (`"n/a"` as a speed, 7.5 satellites) is a null there and is kept as sent in `extra`.
 * - `extra`: a JSON object (UTF-8 text) of the properties the interface does not name and of
 *   the values that did not fit; null when there are none. Nothing the service sent in
 *   `properties` or as the Point's coordinates is lost. Other members of a feature (an `id`,
 *   a non-Point geometry) are not written.
 */
import type { HistoryItem } from '../../api/history.js';
import type { ColumnKind, ParquetColumn } from './kinds.js';

export type { ColumnKind, ParquetColumn } from './kinds.js';

type Props = Record<string, unknown>;

/** A report property's column; `read` takes it from the properties (a property access of its own, which V8 keeps fast). */
interface ReportColumn extends ParquetColumn {
  read(p: Props): unknown;
}

/** The report properties of the interface, in its order, with the type each column has. */
export const REPORT_COLUMNS: readonly ReportColumn[] = [
  { name: 'aid', kind: 'int64', read: (p) => p.aid },
  { name: 'did', kind: 'int64', read: (p) => p.did },
  { name: 'name', kind: 'string', read: (p) => p.name },
  { name: 'availability', kind: 'string', read: (p) => p.availability },
  { name: 'lat', kind: 'double', read: (p) => p.lat },
  { name: 'lng', kind: 'double', read: (p) => p.lng },
  { name: 'alt', kind: 'double', read: (p) => p.alt },
  { name: 'speed', kind: 'double', read: (p) => p.speed },
  { name: 'heading', kind: 'double', read: (p) => p.heading },
  { name: 'source', kind: 'string', read: (p) => p.source },
  { name: 'address', kind: 'string', read: (p) => p.address },
  { name: 'date', kind: 'timestamp', read: (p) => p.date },
  { name: 'battery', kind: 'double', read: (p) => p.battery },
  { name: 'odometer', kind: 'double', read: (p) => p.odometer },
  { name: 'precision', kind: 'double', read: (p) => p.precision },
  { name: 'satellites', kind: 'int32', read: (p) => p.satellites },
  { name: 'temperature', kind: 'double', read: (p) => p.temperature },
  { name: 'reportType', kind: 'string', read: (p) => p.reportType },
  { name: 'reportValue', kind: 'string', read: (p) => p.reportValue },
  { name: 'message', kind: 'string', read: (p) => p.message },
];

/** Every column written, in file order: the report properties, then `extra`. */
export const PARQUET_COLUMNS: readonly ParquetColumn[] = [...REPORT_COLUMNS.map(({ name, kind }) => ({ name, kind })), { name: 'extra', kind: 'string' }];

const KNOWN = new Set(REPORT_COLUMNS.map((c) => c.name));
const LAT = REPORT_COLUMNS.findIndex((c) => c.name === 'lat');
const LNG = REPORT_COLUMNS.findIndex((c) => c.name === 'lng');
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/** Whole seconds whose milliseconds an INT64 holds exactly (well past year 275,000). */
const MAX_SECONDS = Number.MAX_SAFE_INTEGER / 1000;

/** A cell as a column holds it: numbers for every numeric kind (int64 as exact integers, timestamps in milliseconds), text for strings. */
export type Cell = number | string | null;
/** What a column holds for a value: the cell, or `undefined` when the value does not fit. */
type Convert = (v: unknown) => Cell | undefined;

function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string') {
    const s = v.trim();
    if (s === '') return undefined;
    const n = Number(s);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

const CONVERT: Record<ColumnKind, Convert> = {
  double: toNumber,
  int64: (v) => {
    const n = toNumber(v);
    return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
  },
  int32: (v) => {
    const n = toNumber(v);
    return n !== undefined && Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX ? n : undefined;
  },
  timestamp: (v) => {
    const n = toNumber(v);
    return n !== undefined && Math.abs(n) <= MAX_SECONDS ? Math.round(n * 1000) : undefined;
  },
  string: (v) => {
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    return undefined;
  },
};

/** Each report column's conversion, by position. */
const CONVERTERS: readonly Convert[] = REPORT_COLUMNS.map((c) => CONVERT[c.kind]);

/** The Point's [lng, lat] when the geometry is a Point with two finite numbers. */
function pointOf(feature: unknown): [number, number] | undefined {
  const g = (feature as { geometry?: unknown }).geometry as { type?: unknown; coordinates?: unknown } | null | undefined;
  if (!g || g.type !== 'Point' || !Array.isArray(g.coordinates)) return undefined;
  const lng = toNumber(g.coordinates[0]);
  const lat = toNumber(g.coordinates[1]);
  return lng !== undefined && lat !== undefined ? [lng, lat] : undefined;
}

/**
 * Each column's cell of a report made any way (its parsed feature), `extra` last, handed to
 * `put` by column position: a value that does not fit its column goes to `extra`, as does a
 * property the interface does not name (see above).
 */
export function featureCells(item: HistoryItem, put: (column: number, cell: Cell) => void): void {
  const feature = item.feature as unknown as { properties?: unknown };
  const raw = feature.properties;
  const props = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Props) : {};
  let extra: Props | undefined;
  const point = pointOf(feature);
  let present = 0;
  for (let i = 0; i < REPORT_COLUMNS.length; i++) {
    const c = REPORT_COLUMNS[i]!;
    const v = c.read(props);
    if (v !== undefined) present++;
    let cell: Cell | undefined = v === null || v === undefined ? null : CONVERTERS[i]!(v);
    if (cell === undefined) {
      (extra ??= Object.create(null) as Props)[c.name] = v;
      cell = null;
    }
    if (point !== undefined && (i === LAT || i === LNG)) {
      const fromGeometry = point[i === LNG ? 0 : 1];
      if (cell !== null && cell !== fromGeometry) (extra ??= Object.create(null) as Props)[c.name] = v;
      cell = fromGeometry;
    }
    put(i, cell);
  }
  if (Object.keys(props).length > present) {
    for (const key of Object.keys(props)) {
      if (!KNOWN.has(key)) (extra ??= Object.create(null) as Props)[key] = props[key];
    }
  }
  put(REPORT_COLUMNS.length, extra === undefined ? null : JSON.stringify(extra));
}

