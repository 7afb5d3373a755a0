/** How groups look in tables; JSON, NDJSON and YAML print the records as the service sent them. */
import { fieldNames, type Column, type Rec } from '../../io/formats/output.js';
import { GROUP_FIELDS } from '../../api/types.js';

/** Ids → names of the units and users they stand for, when known. */
export type NameIndex = ReadonlyMap<number, string>;

function labelled(ids: unknown, names: NameIndex | undefined): unknown {
  if (!names || !Array.isArray(ids)) return ids;
  return ids.map((id) => {
    const name = typeof id === 'number' ? names.get(id) : undefined;
    return name === undefined ? id : `${String(id)} ${name}`;
  });
}

export function groupColumns(names?: NameIndex): Column[] {
  return [
    { key: 'gid', header: 'GID', kind: 'number', priority: 3 },
    { key: 'name', header: 'NAME', shrink: true, priority: 2 },
    { key: 'groupMembers', header: 'MEMBERS', kind: 'list', value: (r: Rec) => labelled(r.groupMembers, names), shrink: true, priority: 1 },
    { key: 'groupViewers', header: 'VIEWERS', kind: 'list', value: (r: Rec) => labelled(r.groupViewers, names), shrink: true },
  ];
}

/** What --fields may name: the record's fields and the columns', checked before any request. */
export function groupFields(): string[] {
  return fieldNames(GROUP_FIELDS, groupColumns());
}
