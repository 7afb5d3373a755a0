/** How users look in tables; JSON, NDJSON and YAML print the records as the service sent them. */
import { fieldNames, type Column, type Rec } from '../../io/formats/output.js';
import { USER_FIELDS } from '../../api/types.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A tracked user's device: "<did> <name>" when the reply embeds it, else the bare did. */
export function deviceCell(rec: Rec): string | undefined {
  const device = rec.device;
  if (isObject(device) && device.did !== undefined) {
    return typeof device.name === 'string' && device.name !== '' ? `${String(device.did)} ${device.name}` : String(device.did);
  }
  return typeof rec.did === 'number' || typeof rec.did === 'string' ? String(rec.did) : undefined;
}

/** On a narrow terminal the lists go first (GROUPS, VIEWS), then DEVICE and LEVEL; uid, name and e-mail stay. */
export function userColumns(): Column[] {
  return [
    { key: 'uid', header: 'UID', kind: 'number', priority: 3 },
    { key: 'name', header: 'NAME', shrink: true, priority: 2 },
    { key: 'email', header: 'EMAIL', shrink: true, priority: 2 },
    { key: 'userType', header: 'TYPE', priority: 1 },
    { key: 'loginLevel', header: 'LEVEL', priority: -1 },
    { key: 'isActive', header: 'ACTIVE', kind: 'bool', tone: (r: Rec) => (r.isActive === 1 ? undefined : 'bad') },
    { key: 'device', header: 'DEVICE', value: deviceCell, shrink: true, priority: -1 },
    { key: 'groupMember', header: 'GROUPS', kind: 'list', priority: -2 },
    { key: 'groupViewer', header: 'VIEWS', kind: 'list', priority: -2 },
    { key: 'lastLoginTime', header: 'LAST LOGIN', kind: 'age' },
  ];
}

/** What --fields may name: the record's fields and the columns', checked before any request. */
export function userFields(): string[] {
  return fieldNames(USER_FIELDS, userColumns());
}
