/** How reports look as rows: the flat record is the feature's properties. */
import type { ReportFeature } from '../../api/types.js';
import type { Column, Rec } from '../../io/output.js';

const LOW_BATTERY = 20;

/** properties, as table, csv and --fields see a report (the geometry repeats lat/lng). */
export function flatReport(feature: ReportFeature): Rec {
  return feature.properties as unknown as Rec;
}

export const TABLE_COLUMNS: Column[] = [
  { key: 'date', header: 'DATE', kind: 'time' },
  { key: 'reportType', header: 'TYPE' },
  { key: 'lat', header: 'LAT', kind: 'number' },
  { key: 'lng', header: 'LNG', kind: 'number' },
  { key: 'speed', header: 'SPEED', kind: 'number' },
  {
    key: 'battery',
    header: 'BATTERY',
    kind: 'number',
    tone: (r: Rec) => (typeof r.battery === 'number' && r.battery < LOW_BATTERY ? 'warn' : undefined),
  },
  { key: 'address', header: 'ADDRESS', shrink: true },
  { key: 'message', header: 'MESSAGE', shrink: true, tone: (r: Rec) => (r.reportType === 'sos' || r.reportType === 'crash' ? 'bad' : undefined) },
];

/** CSV: every property a spreadsheet wants, date as unix seconds. */
export const CSV_COLUMNS: Column[] = [
  'date', 'did', 'name', 'lat', 'lng', 'alt', 'speed', 'heading', 'battery', 'reportType', 'reportValue', 'address',
  'message', 'satellites', 'precision', 'odometer', 'temperature', 'source', 'availability',
].map((key) => ({ key }));
