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

export function findUnit(db: Db, category: Category, key: LookupKey, value: string | number): UnitEntry {
  if (key === 'did') {
    const u = db.state.units[value];
    if (u && u.deviceCategory === category) return u;
  } else {
    for (const u of Object.values(db.state.units)) {
      if (u.deviceCategory === category && u[key] === value) return u;
    }
  }
  throw notFound(`${label(category)} with ${key} ${JSON.stringify(value)} not found`, key);
}

function assertUnique(db: Db, field: 'trackerID' | 'uniqueID', value: string, except?: number): void {
  for (const u of Object.values(db.state.units)) {
    if (u.did !== except && u[field] === value) {
      throw conflict(`${field} ${value} is already used by unit ${u.did} (${u.name})`, field);
    }
  }
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
  db.commit();
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
