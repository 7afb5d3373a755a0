/**
 * Location shares. POST takes exactly one target (did or gid), a name and at most one
 * expiration mode: absolute `expiration`, relative days/hours/minutes, or none ("never").
 */
import { badRequest, invalidValue, notFound } from '../errors.js';
import { deterministicId } from '../prng.js';
import type { ShareEntry } from '../types.js';
import { type Body, intLike, objectBody, onlyFields, requiredString } from '../validate.js';
import type { Db } from './db.js';

const RELATIVE = ['days', 'hours', 'minutes'] as const;
const SECONDS: Record<(typeof RELATIVE)[number], number> = { days: 86400, hours: 3600, minutes: 60 };

export function listShares(db: Db): ShareEntry[] {
  return Object.values(db.state.shares);
}

export function findShare(db: Db, sid: string): ShareEntry {
  const s = db.state.shares[sid];
  if (!s) throw notFound(`location share ${sid} not found`, 'sid');
  return s;
}

function relativeAmount(body: Body, field: string): number {
  const v = body[field];
  if (typeof v === 'string' && !/^\s*\d+\s*$/.test(v)) {
    throw badRequest(`${field} must be a numeric string, got ${JSON.stringify(v)}`, field);
  }
  return intLike(body, field, 0);
}

function absoluteExpiration(db: Db, body: Body): number {
  const ts = intLike(body, 'expiration', 1);
  if (ts <= db.now()) throw invalidValue(`expiration ${ts} is not in the future (now is ${db.now()})`, 'expiration');
  return ts;
}

export function createShare(db: Db, uid: number, raw: unknown): ShareEntry {
  const body = objectBody(raw);
  onlyFields(body, ['did', 'gid', 'name', 'expiration', ...RELATIVE]);
  const hasDid = body.did !== undefined;
  const hasGid = body.gid !== undefined;
  if (hasDid && hasGid) throw badRequest('give exactly one of did or gid, not both', 'gid');
  if (!hasDid && !hasGid) throw badRequest('a share needs a target: did or gid', 'did');
  let target: { did: number } | { gid: number };
  if (hasDid) {
    const did = intLike(body, 'did', 1);
    if (!db.state.units[did]) throw notFound(`unit ${did} not found`, 'did');
    target = { did };
  } else {
    const gid = intLike(body, 'gid', 1);
    if (!db.state.groups[gid]) throw notFound(`group ${gid} not found`, 'gid');
    target = { gid };
  }
  const name = requiredString(body, 'name');
  const relative = RELATIVE.filter((f) => body[f] !== undefined);
  let expiration: number | 'never' = 'never';
  if (body.expiration !== undefined && relative.length > 0) {
    throw badRequest(`give either expiration or ${relative.join('/')}, not both`, relative[0]);
  }
  if (body.expiration !== undefined) {
    expiration = absoluteExpiration(db, body);
  } else if (relative.length > 0) {
    let seconds = 0;
    for (const f of relative) seconds += relativeAmount(body, f) * SECONDS[f];
    if (seconds <= 0) throw invalidValue('relative expiration must be more than zero', relative[0]);
    expiration = db.now() + seconds;
  }
  let sid = deterministicId(db.state.seed, db.state.sidCounter++);
  while (db.state.shares[sid]) sid = deterministicId(db.state.seed, db.state.sidCounter++);
  const share: ShareEntry = { sid, n: db.state.sidCounter, uid, ...target, name, timestamp: db.now(), expiration };
  db.state.shares[sid] = share;
  db.commit(true);
  return share;
}

export function patchShare(db: Db, sid: string, raw: unknown): ShareEntry {
  const s = findShare(db, sid);
  const body = objectBody(raw);
  for (const key of Object.keys(body)) {
    if (key !== 'name' && key !== 'expiration') {
      throw badRequest(`field "${key}" cannot be changed; only name and expiration can`, key);
    }
  }
  if (Object.keys(body).length === 0) throw badRequest('nothing to change: give name and/or expiration');
  onlyFields(body, ['name', 'expiration']);
  const name = body.name === undefined ? undefined : requiredString(body, 'name');
  const expiration = body.expiration === undefined ? undefined : absoluteExpiration(db, body);
  if (name !== undefined) s.name = name;
  if (expiration !== undefined) s.expiration = expiration;
  db.commit(true);
  return s;
}

export function deleteShare(db: Db, sid: string): void {
  findShare(db, sid);
  delete db.state.shares[sid];
  db.commit(true);
}
