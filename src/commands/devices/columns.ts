/**
 * How units look in tables. JSON, NDJSON and YAML print the records as sent, but a unit that never
 * reported has no battery level (null: see units/columns shownRecord), never the 0 the service sends.
 * On a narrow terminal GROUPS goes first, then TYPE, then BATTERY; ids, names
 * and the last report stay (see Column.priority).
 */
import type { Column, Rec } from '../../io/formats/output.js';
import type { UnitKind } from '../../api/units.js';

const LOW_BATTERY = 20;
const STALE_S = 24 * 3600;

export function unitColumns(kind: UnitKind, nowMs: number): Column[] {
  return [
    { key: 'did', header: 'DID', kind: 'number', priority: 3 },
    { key: 'name', header: 'NAME', shrink: true, priority: 2 },
    kind === 'devices' ? { key: 'trackerID', header: 'TRACKER ID', priority: 2 } : { key: 'uniqueID', header: 'UNIQUE ID', priority: 2 },
    { key: 'deviceType', header: 'TYPE', shrink: true, priority: -1 },
    { key: 'isActive', header: 'ACTIVE', kind: 'bool', priority: 1, tone: (r: Rec) => (r.isActive === 1 ? undefined : 'bad') },
    {
      key: 'lastBatteryLevel',
      header: 'BATTERY',
      kind: 'number',
      tone: (r: Rec) => (typeof r.lastBatteryLevel === 'number' && r.lastBatteryLevel < LOW_BATTERY ? 'warn' : undefined),
    },
    {
      key: 'lastGPSTimestamp',
      header: 'LAST REPORT',
      kind: 'age',
      priority: 1,
      tone: (r: Rec) => (typeof r.lastGPSTimestamp === 'number' && nowMs / 1000 - r.lastGPSTimestamp > STALE_S ? 'warn' : undefined),
    },
    { key: 'groupMember', header: 'GROUPS', kind: 'list', priority: -2 },
  ];
}
