/** One table of every unit and user of the account (GET /all-units/), each with the collection it came from. */
import type { Column, Rec } from '../../io/formats/output.js';
import type { UnitCategory } from '../../api/all-units.js';

export type CategorizedRecord = Rec & { category: UnitCategory };

/** Units (devices, sensors) report positions; users do not. */
export function isUnit(rec: Rec): boolean {
  return rec.did !== undefined;
}

/** A unit whose lastGPSTimestamp is 0 or missing never reported: the service still sends a battery level (0). */
export function hasReported(rec: Rec): boolean {
  return typeof rec.lastGPSTimestamp === 'number' && rec.lastGPSTimestamp > 0;
}

/**
 * The record as shown: a unit that never reported has no battery level (null, an empty cell),
 * not the 0 the service sends, so it is never "low on battery". Everything else as sent.
 */
export function shownRecord<T extends Rec>(rec: T): T {
  return isUnit(rec) && !hasReported(rec) && rec.lastBatteryLevel !== undefined ? { ...rec, lastBatteryLevel: null } : rec;
}

/** Seconds since the last report; a unit that never reported is infinitely stale; users have none. */
export function reportAge(rec: Rec, nowMs: number): number | undefined {
  if (!isUnit(rec)) return undefined;
  if (!hasReported(rec)) return Number.POSITIVE_INFINITY;
  return nowMs / 1000 - (rec.lastGPSTimestamp as number);
}

export function isStale(rec: Rec, nowMs: number, thresholdS: number): boolean {
  const age = reportAge(rec, nowMs);
  return age !== undefined && age > thresholdS;
}

export function isLowBattery(rec: Rec, belowPct: number): boolean {
  return isUnit(rec) && hasReported(rec) && typeof rec.lastBatteryLevel === 'number' && rec.lastBatteryLevel < belowPct;
}

/**
 * On a narrow terminal GROUPS goes first, then TYPE, then BATTERY. ID is the record's own id (a
 * user's uid); UNIT the did that unit commands (history, report, watch) take: a unit's own, a
 * tracked user's device (`unitOf`), none for a dispatcher.
 */
export function allUnitColumns(nowMs: number, staleS: number, lowPct: number, unitOf: (uid: number) => number | undefined = () => undefined): Column[] {
  return [
    { key: 'category', header: 'CATEGORY', priority: 1 },
    { key: 'id', header: 'ID', kind: 'number', value: (r: Rec) => r.did ?? r.uid, priority: 3 },
    { key: 'unit', header: 'UNIT', kind: 'number', value: (r: Rec) => r.did ?? (r.category === 'trackedUser' ? unitOf(Number(r.uid)) : undefined), priority: 2 },
    { key: 'name', header: 'NAME', shrink: true, priority: 2 },
    { key: 'type', header: 'TYPE', value: (r: Rec) => r.deviceType ?? r.userType, shrink: true, priority: -1 },
    { key: 'isActive', header: 'ACTIVE', kind: 'bool', priority: 1, tone: (r: Rec) => (r.isActive === 1 ? undefined : 'bad') },
    { key: 'lastBatteryLevel', header: 'BATTERY', kind: 'number', tone: (r: Rec) => (isLowBattery(r, lowPct) ? 'warn' : undefined) },
    {
      key: 'lastGPSTimestamp',
      header: 'LAST REPORT',
      kind: 'age',
      priority: 1,
      tone: (r: Rec) => (!isUnit(r) ? 'dim' : isStale(r, nowMs, staleS) ? 'warn' : undefined),
    },
    { key: 'groupMember', header: 'GROUPS', kind: 'list', priority: -2 },
  ];
}
