/** Devices and sensors: the /v2/devices/ and /v2/sensors/ operations. */
import { badRequest, conflict, notFound } from '../errors.js';
import type { UnitEntry } from '../types.js';
import { flag, objectBody, onlyFields, phone, requiredString } from '../validate.js';
import type { Db } from './db.js';
import { detachEverywhere, dropShares, requireGroup, setMember } from './membership.js';

export type Category = 'device' | 'sensor';
export type LookupKey = 'did' | 'uniqueID' | 'trackerID';
const label = (c: Category): string => (c === 'device' ? 'device' : 'sensor');

export function listUnits(db: Db, category: Category): UnitEntry[] {
  return Object.values(db.state.units).filter((u) => u.deviceCategory === category);
}

/**
 * Units by trackerID and uniqueID, so that creates and key lookups stay O(1) with a
 * large fleet (bulk imports). Kept up to date by createUnit; any other change to the
 * units (bumping db.unitVersion) makes the next use rebuild it.
 */
interface KeyIndex {
  version: number;
  byKey: Map<string, UnitEntry[]>;
}
const keyIndexes = new WeakMap<Db, KeyIndex>();
const indexKey = (field: 'trackerID' | 'uniqueID', value: string): string => `${field}\u0000${value}`;

function addToIndex(byKey: Map<string, UnitEntry[]>, u: UnitEntry): void {
  for (const field of ['trackerID', 'uniqueID'] as const) {
    const value = u[field];
    if (typeof value !== 'string') continue;
    const k = indexKey(field, value);
    const list = byKey.get(k);
    if (list) list.push(u);
    else byKey.set(k, [u]);
  }
}

function unitsWithKey(db: Db, field: 'trackerID' | 'uniqueID', value: string): UnitEntry[] {
  let index = keyIndexes.get(db);
  if (!index || index.version !== db.unitVersion) {
    index = { version: db.unitVersion, byKey: new Map() };
    for (const u of Object.values(db.state.units)) addToIndex(index.byKey, u);
    keyIndexes.set(db, index);
  }
  return index.byKey.get(indexKey(field, value)) ?? [];
}

export function findUnit(db: Db, category: Category, key: LookupKey, value: string | number): UnitEntry {
  if (key === 'did') {
    const u = db.state.units[value];
    if (u && u.deviceCategory === category) return u;
  } else {
    const u = unitsWithKey(db, key, String(value)).find((c) => c.deviceCategory === category);
    if (u) return u;
  }
  throw notFound(`${label(category)} with ${key} ${JSON.stringify(value)} not found`, key);
}

function assertUnique(db: Db, field: 'trackerID' | 'uniqueID', value: string, except?: number): void {
  const u = unitsWithKey(db, field, value).find((c) => c.did !== except);
  if (u) throw conflict(`${field} ${value} is already used by unit ${u.did} (${u.name})`, field);
}

export function createUnit(db: Db, category: Category, raw: unknown): UnitEntry {
  const body = objectBody(raw);
  const idField = category === 'device' ? 'trackerID' : 'uniqueID';
  onlyFields(body, ['name', idField, 'deviceType', 'simPhoneNumber']);
  const name = requiredString(body, 'name');
  const ident = requiredString(body, idField);
  const deviceType = requiredString(body, 'deviceType');
  const sim = phone(body, 'simPhoneNumber');
  assertUnique(db, idField, ident);
  const now = db.now();
  const u: UnitEntry = {
    did: db.state.nextId++,
    name,
    uniqueID: category === 'sensor' ? ident : null,
    trackerID: category === 'device' ? ident : null,
    deviceType,
    deviceCategory: category,
    isActive: 1,
    guard: null,
    groupMember: [],
    histFrom: now,
    histUntil: null,
  };
  if (sim !== undefined) u.simPhoneNumber = sim;
  db.state.units[u.did] = u;
  const index = keyIndexes.get(db);
  const indexWasCurrent = index?.version === db.unitVersion;
  db.commit();
  if (index && indexWasCurrent) {
    addToIndex(index.byKey, u);
    index.version = db.unitVersion;
  }
  return u;
}

export function patchUnit(db: Db, category: Category, did: number, raw: unknown): UnitEntry {
  const u = findUnit(db, category, 'did', did);
  const body = objectBody(raw);
  onlyFields(body, ['name', 'isActive']);
  if (Object.keys(body).length === 0) throw badRequest('nothing to change: give name and/or isActive');
  const name = body.name === undefined ? undefined : requiredString(body, 'name');
  const active = body.isActive === undefined ? undefined : flag(body, 'isActive');
  if (name !== undefined) u.name = name;
  if (active !== undefined) u.isActive = active;
  db.commit();
  return u;
}

export function deleteUnit(db: Db, category: Category, did: number): void {
  const u = findUnit(db, category, 'did', did);
  detachEverywhere(db, u.did);
  dropShares(db, { did: u.did });
  delete db.state.units[u.did];
  db.commit();
}

export function setUnitGroups(db: Db, category: Category, did: number, gids: number[], on: boolean): UnitEntry {
  const u = findUnit(db, category, 'did', did);
  const groups = gids.map((gid) => requireGroup(db, gid));
  for (const g of groups) setMember(g, u, on);
  db.commit();
  return u;
}
