/** How shares look in tables; JSON, NDJSON and YAML print the records as the service sent them. */
import { fieldNames, type Column, type Rec } from '../../io/formats/output.js';
import { SHARE_FIELDS } from '../../api/types.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An absolute expiration in the past; "never" (or anything else) has not expired. */
export function isExpired(rec: Rec, nowMs: number): boolean {
  const exp = typeof rec.expiration === 'string' && /^\d+$/.test(rec.expiration) ? Number(rec.expiration) : rec.expiration;
  return typeof exp === 'number' && exp * 1000 <= nowMs;
}

/** "device 2003 Van 7" or "group 101 North depot", from the embedded record when the reply has it. */
export function targetCell(rec: Rec): string | undefined {
  if (rec.did !== undefined) {
    const name = isObject(rec.device) && typeof rec.device.name === 'string' ? ` ${rec.device.name}` : '';
    return `device ${String(rec.did)}${name}`;
  }
  if (rec.gid !== undefined) {
    const group = isObject(rec.group) ? rec.group[String(rec.gid)] : undefined;
    const name = isObject(group) && typeof group.name === 'string' ? ` ${group.name}` : '';
    return `group ${String(rec.gid)}${name}`;
  }
  return undefined;
}

export function shareColumns(nowMs: number): Column[] {
  const expiredTone = (r: Rec) => (isExpired(r, nowMs) ? 'bad' : undefined);
  return [
    { key: 'sid', header: 'SID', priority: 3 },
    { key: 'name', header: 'NAME', shrink: true, priority: 2 },
    { key: 'target', header: 'TARGET', value: targetCell, shrink: true, priority: 1 },
    // A unix time shows as how far off it is on a terminal (an expiry: recency is the point); the string "never" as is.
    { key: 'expiration', header: 'EXPIRES', kind: 'age', tone: expiredTone, priority: 1 },
    // On a narrow terminal EXPIRED goes first: EXPIRES says the same (and is red when past).
    { key: 'expired', header: 'EXPIRED', kind: 'bool', priority: -1, value: (r: Rec) => isExpired(r, nowMs), tone: expiredTone },
    { key: 'timestamp', header: 'CREATED', kind: 'time' },
  ];
}

/** What --fields may name: the record's fields and the columns', checked before any request. */
export function shareFields(): string[] {
  return fieldNames(SHARE_FIELDS, shareColumns(0));
}
