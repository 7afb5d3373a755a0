/** Groups: CRUD plus member and viewer changes by comma-separated id lists. */
import { badRequest } from '../errors.js';
import type { GroupEntry } from '../types.js';
import { objectBody, onlyFields, requiredString } from '../validate.js';
import type { Db } from './db.js';
import { dropShares, memberEntity, requireGroup, requireViewerUser, setMember, setViewer } from './membership.js';

export function listGroups(db: Db): GroupEntry[] {
  return Object.values(db.state.groups);
}

export { requireGroup as findGroup };

export function createGroup(db: Db, raw: unknown): GroupEntry {
  const body = objectBody(raw);
  onlyFields(body, ['name']);
  const name = requiredString(body, 'name');
  const g: GroupEntry = { gid: db.state.nextGid++, name, groupMembers: [], groupViewers: [] };
  db.state.groups[g.gid] = g;
  db.commit(true);
  return g;
}

export function patchGroup(db: Db, gid: number, raw: unknown): GroupEntry {
  const g = requireGroup(db, gid);
  const body = objectBody(raw);
  onlyFields(body, ['name']);
  if (body.name === undefined) throw badRequest('name is required', 'name');
  g.name = requiredString(body, 'name');
  db.commit(true);
  return g;
}

export function deleteGroup(db: Db, gid: number): void {
  const g = requireGroup(db, gid);
  for (const id of [...g.groupMembers]) {
    const e = db.state.units[id] ?? db.state.users[id];
    if (e) setMember(g, e, false);
  }
  for (const uid of [...g.groupViewers]) {
    const u = db.state.users[uid];
    if (u) setViewer(g, u, false);
  }
  dropShares(db, { gid });
  delete db.state.groups[gid];
  db.commit();
}

/** Add or remove members (unit dids or user uids); every id is checked before anything changes. */
export function setGroupMembers(db: Db, gid: number, ids: number[], on: boolean): GroupEntry {
  const g = requireGroup(db, gid);
  const entities = ids.map((id) => memberEntity(db, id));
  for (const e of entities) setMember(g, e, on);
  db.commit();
  return g;
}

export function setGroupViewers(db: Db, gid: number, ids: number[], on: boolean): GroupEntry {
  const g = requireGroup(db, gid);
  const users = ids.map((id) => requireViewerUser(db, id));
  for (const u of users) setViewer(g, u, on);
  db.commit();
  return g;
}
