/** How units look in tables; JSON, NDJSON and YAML print the records unchanged. */
import type { Column, Rec } from '../../io/output.js';
import type { UnitKind } from '../../api/units.js';

const LOW_BATTERY = 20;
const STALE_S = 24 * 3600;

export function unitColumns(kind: UnitKind, nowMs: number): Column[] {
  return [
    { key: 'did', header: 'DID', kind: 'number' },
    { key: 'name', header: 'NAME', shrink: true },
    kind === 'devices' ? { key: 'trackerID', header: 'TRACKER ID' } : { key: 'uniqueID', header: 'UNIQUE ID' },
    { key: 'deviceType', header: 'TYPE', shrink: true },
    { key: 'isActive', header: 'ACTIVE', kind: 'bool', tone: (r: Rec) => (r.isActive === 1 ? undefined : 'bad') },
    {
      key: 'lastBatteryLevel',
      header: 'BATTERY',
      kind: 'number',
      tone: (r: Rec) => (typeof r.lastBatteryLevel === 'number' && r.lastBatteryLevel < LOW_BATTERY ? 'warn' : undefined),
    },
    {
      key: 'lastGPSTimestamp',
      header: 'LAST REPORT',
      kind: 'time',
      tone: (r: Rec) => (typeof r.lastGPSTimestamp === 'number' && nowMs / 1000 - r.lastGPSTimestamp > STALE_S ? 'warn' : undefined),
    },
    { key: 'groupMember', header: 'GROUPS', kind: 'list' },
  ];
}
