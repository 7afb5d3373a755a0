/**
 * Static validation of a parsed fleet file: shape, values, duplicate keys and
 * contradictions, all before any request. References to objects not declared in
 * the file are checked later against the live state (refs.ts).
 */
import { USER_TYPES } from '../api/users.js';
import {
  API_VERSION, FLEET_KIND, emailKey, unitKeyField,
  type Fleet, type GroupSpec, type Located, type Problem, type ShareSpec, type TargetRef, type UnitKind, type UnitSpec, type UserSpec,
} from './format.js';
import { Reader, type Obj } from './fields.js';

const TOP = ['apiVersion', 'kind', 'groups', 'devices', 'sensors', 'users', 'shares'] as const;
const TARGETS = ['device', 'sensor', 'user', 'group'] as const;

export function validateFleet(doc: unknown): { fleet: Fleet; problems: Problem[] } {
  const r = new Reader();
  const fleet: Fleet = {};
  const top = r.object(doc, '(file)');
  if (!top) return { fleet, problems: r.problems };
  r.onlyFields(top, '(file)', TOP);
  if (top.apiVersion !== API_VERSION) r.add('apiVersion', `must be ${API_VERSION}`);
  if (top.kind !== FLEET_KIND) r.add('kind', `must be ${FLEET_KIND}`);

  const groups = entries(r, top, 'groups', (o, p) => readGroup(r, o, p));
  if (groups) fleet.groups = groups;
  const devices = entries(r, top, 'devices', (o, p) => readUnit(r, o, p, 'device'));
  if (devices) fleet.devices = devices;
  const sensors = entries(r, top, 'sensors', (o, p) => readUnit(r, o, p, 'sensor'));
  if (sensors) fleet.sensors = sensors;
  const users = entries(r, top, 'users', (o, p) => readUser(r, o, p));
  if (users) fleet.users = users;
  const shares = entries(r, top, 'shares', (o, p) => readShare(r, o, p));
  if (shares) fleet.shares = shares;

  duplicates(r, top, 'groups', 'name', (v) => v);
  duplicates(r, top, 'devices', 'trackerID', (v) => v);
  duplicates(r, top, 'sensors', 'uniqueID', (v) => v);
  duplicates(r, top, 'users', 'email', emailKey);
  duplicates(r, top, 'shares', 'name', (v) => v);
  renames(r, fleet.groups);
  renames(r, fleet.shares);
  viewerConflicts(r, fleet);
  return { fleet, problems: inFileOrder(r.problems) };
}

/** Problems in the order of the file: top-level fields, then each list entry by entry (stable within one). */
function inFileOrder(problems: Problem[]): Problem[] {
  const rank = (p: Problem): [number, number] => {
    const m = /^(\w+)\[(\d+)\]/.exec(p.path);
    return m ? [TOP.indexOf(m[1] as (typeof TOP)[number]), Number(m[2])] : [-1, 0];
  };
  return problems
    .map((p, i) => ({ p, i, r: rank(p) }))
    .sort((a, b) => a.r[0] - b.r[0] || a.r[1] - b.r[1] || a.i - b.i)
    .map((x) => x.p);
}

function entries<T>(r: Reader, top: Obj, field: string, read: (o: Obj, path: string) => T | undefined): Array<Located<T>> | undefined {
  const items = r.list(top[field], field);
  if (items === undefined) return top[field] === null ? [] : undefined;
  const out: Array<Located<T>> = [];
  items.forEach((item, i) => {
    const path = `${field}[${i}]`;
    const obj = r.object(item, path);
    const spec = obj && read(obj, path);
    if (spec !== undefined) out.push({ spec, path });
  });
  return out;
}

function readGroup(r: Reader, o: Obj, path: string): GroupSpec | undefined {
  r.onlyFields(o, path, ['name', 'renamedFrom', 'viewers']);
  const name = r.text(o, 'name', path);
  const renamedFrom = r.text(o, 'renamedFrom', path, false);
  const viewers = r.names(o, 'viewers', path, true);
  if (name === undefined) return undefined;
  const spec: GroupSpec = { name };
  if (renamedFrom !== undefined) spec.renamedFrom = renamedFrom;
  if (viewers !== undefined) spec.viewers = viewers;
  return spec;
}

function readUnit(r: Reader, o: Obj, path: string, kind: UnitKind): UnitSpec | undefined {
  const keyField = unitKeyField(kind);
  r.onlyFields(o, path, [keyField, 'name', 'type', 'simPhone', 'active', 'groups']);
  const key = r.key(o, keyField, path);
  const name = r.text(o, 'name', path);
  const type = r.text(o, 'type', path);
  const simPhone = r.phone(o, 'simPhone', path);
  const active = r.bool(o, 'active', path);
  const groups = r.names(o, 'groups', path);
  if (key === undefined || name === undefined || type === undefined) return undefined;
  const spec: UnitSpec = { key, name, type };
  if (simPhone !== undefined) spec.simPhone = simPhone;
  if (active !== undefined) spec.active = active;
  if (groups !== undefined) spec.groups = groups;
  return spec;
}

function readUser(r: Reader, o: Obj, path: string): UserSpec | undefined {
  r.onlyFields(o, path, ['email', 'name', 'type', 'simPhone', 'active', 'groups', 'viewerGroups']);
  const email = o.email === undefined ? (r.add(`${path}.email`, 'required'), undefined) : r.email(o.email, `${path}.email`);
  const name = r.text(o, 'name', path);
  const type = r.oneOf(o, 'type', path, USER_TYPES);
  const simPhone = r.phone(o, 'simPhone', path);
  const active = r.bool(o, 'active', path);
  const groups = r.names(o, 'groups', path);
  const viewerGroups = r.names(o, 'viewerGroups', path);
  if (email === undefined || name === undefined || type === undefined) return undefined;
  const spec: UserSpec = { email, name, type };
  if (simPhone !== undefined) spec.simPhone = simPhone;
  if (active !== undefined) spec.active = active;
  if (groups !== undefined) spec.groups = groups;
  if (viewerGroups !== undefined) spec.viewerGroups = viewerGroups;
  return spec;
}

function readShare(r: Reader, o: Obj, path: string): ShareSpec | undefined {
  r.onlyFields(o, path, ['name', 'renamedFrom', ...TARGETS, 'expires']);
  const name = r.text(o, 'name', path);
  const renamedFrom = r.text(o, 'renamedFrom', path, false);
  const expires = r.expiry(o, 'expires', path);
  const given = TARGETS.filter((t) => o[t] !== undefined && o[t] !== null);
  let target: TargetRef | undefined;
  if (given.length !== 1) {
    r.add(path, `needs exactly one target: ${TARGETS.join(', ')}${given.length > 1 ? ` (got ${given.join(' and ')})` : ''}`);
  } else {
    const kind = given[0] as TargetRef['kind'];
    const key = kind === 'user' ? r.email(o.user, `${path}.user`) : kind === 'group' ? r.text(o, 'group', path) : r.key(o, kind, path);
    if (key !== undefined) target = { kind, key };
  }
  if (name === undefined || target === undefined) return undefined;
  const spec: ShareSpec = { name, target };
  if (renamedFrom !== undefined) spec.renamedFrom = renamedFrom;
  if (expires !== undefined) spec.expires = expires;
  return spec;
}

/** Duplicate keys, found on the raw entries so that an entry with other problems still counts. */
function duplicates(r: Reader, top: Obj, list: string, field: string, norm: (v: string) => string): void {
  const items = top[list];
  if (!Array.isArray(items)) return;
  const seen = new Map<string, string>();
  items.forEach((item: unknown, i) => {
    const value = typeof item === 'object' && item !== null ? (item as Obj)[field] : undefined;
    if (typeof value !== 'string') return;
    const k = norm(value);
    const first = seen.get(k);
    if (first !== undefined) r.add(`${list}[${i}].${field}`, `duplicate (also ${first})`);
    else seen.set(k, `${list}[${i}]`);
  });
}

/** renamedFrom must not name another entry of the file, nor the entry itself. */
function renames(r: Reader, list: Array<Located<{ name: string; renamedFrom?: string }>> | undefined): void {
  const names = new Set((list ?? []).map((e) => e.spec.name));
  for (const { spec, path } of list ?? []) {
    if (spec.renamedFrom !== undefined && names.has(spec.renamedFrom)) {
      r.add(`${path}.renamedFrom`, `"${spec.renamedFrom}" is also declared in the file; rename needs the old name gone`);
    }
  }
}

/** A viewer pair declared on both sides (group.viewers and user.viewerGroups) must agree. */
function viewerConflicts(r: Reader, fleet: Fleet): void {
  const groups = new Map((fleet.groups ?? []).map((g) => [g.spec.name, g]));
  for (const { spec: user, path } of fleet.users ?? []) {
    if (user.viewerGroups === undefined) continue;
    for (const [name, g] of groups) {
      const viewers = g.spec.viewers;
      if (viewers === undefined) continue;
      const byGroup = viewers.some((v) => emailKey(v) === emailKey(user.email));
      const byUser = user.viewerGroups.includes(name);
      if (byGroup && !byUser) r.add(`${path}.viewerGroups`, `does not list "${name}", but ${g.path}.viewers lists ${user.email}`);
      if (byUser && !byGroup) r.add(`${path}.viewerGroups`, `lists "${name}", but ${g.path}.viewers does not list ${user.email}`);
    }
  }
}
