/** How reports look as rows: the flat record is the feature's properties. */
import type { ReportFeature } from '../../api/types.js';
import type { Column, Rec } from '../../io/formats/output.js';

const LOW_BATTERY = 20;

/** properties, as table, csv and --fields see a report (the geometry repeats lat/lng). */
export function flatReport(feature: ReportFeature): Rec {
  return feature.properties as unknown as Rec;
}

/** On a narrow terminal MESSAGE goes first, then ADDRESS, BATTERY and SPEED; time, type and position stay. */
export const TABLE_COLUMNS: Column[] = [
  { key: 'date', header: 'DATE', kind: 'time', seconds: true, priority: 3 },
  { key: 'reportType', header: 'TYPE', priority: 2 },
  { key: 'lat', header: 'LAT', kind: 'number', priority: 2 },
  { key: 'lng', header: 'LNG', kind: 'number', priority: 2 },
  { key: 'speed', header: 'SPEED', kind: 'number', priority: 1 },
  {
    key: 'battery',
    header: 'BATTERY',
    kind: 'number',
    priority: 1,
    tone: (r: Rec) => (typeof r.battery === 'number' && r.battery < LOW_BATTERY ? 'warn' : undefined),
  },
  { key: 'address', header: 'ADDRESS', shrink: true },
  { key: 'message', header: 'MESSAGE', shrink: true, tone: (r: Rec) => (r.reportType === 'sos' || r.reportType === 'crash' ? 'bad' : undefined) },
];

/** Many units in one table: the unit first. */
export const FLEET_TABLE_COLUMNS: Column[] = [{ key: 'did', header: 'UNIT', kind: 'number', priority: 3 }, ...TABLE_COLUMNS];

/** CSV: every property a spreadsheet wants, date as unix seconds. */
export const CSV_COLUMNS: Column[] = [
  'date', 'did', 'name', 'lat', 'lng', 'alt', 'speed', 'heading', 'battery', 'reportType', 'reportValue', 'address',
  'message', 'satellites', 'precision', 'odometer', 'temperature', 'source', 'availability',
].map((key) => ({ key }));
