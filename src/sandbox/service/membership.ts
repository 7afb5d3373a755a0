/** Keeps group records and the groupMember/groupViewer arrays of units and users consistent both ways. */
import { invalidValue, notFound } from '../errors.js';
import type { GroupEntry, UnitEntry, UserEntry } from '../types.js';
import type { Db } from './db.js';

const addSorted = (list: number[], id: number): void => {
  if (list.includes(id)) return;
  list.push(id);
  list.sort((a, b) => a - b);
};
const remove = (list: number[], id: number): void => {
  const i = list.indexOf(id);
  if (i >= 0) list.splice(i, 1);
};

export function requireGroup(db: Db, gid: number, field = 'gid'): GroupEntry {
  const g = db.state.groups[gid];
  if (!g) throw notFound(`group ${gid} not found`, field);
  return g;
}

/** A member: a unit (by did) or a user (by uid); they share one id space. */
export function memberEntity(db: Db, id: number): UnitEntry | UserEntry {
  const e = db.state.units[id] ?? db.state.users[id];
  if (!e) throw notFound(`no unit or user with id ${id}`, 'id');
  return e;
}

export function setMember(g: GroupEntry, member: UnitEntry | UserEntry, on: boolean): void {
  const id = 'deviceCategory' in member ? member.did : member.uid;
  if (on) {
    addSorted(g.groupMembers, id);
    addSorted(member.groupMember, g.gid);
  } else {
    remove(g.groupMembers, id);
    remove(member.groupMember, g.gid);
  }
}

export function setViewer(g: GroupEntry, user: UserEntry, on: boolean): void {
  if (on) {
    addSorted(g.groupViewers, user.uid);
    addSorted(user.groupViewer, g.gid);
  } else {
    remove(g.groupViewers, user.uid);
    remove(user.groupViewer, g.gid);
  }
}

export function requireViewerUser(db: Db, id: number): UserEntry {
  const u = db.state.users[id];
  if (u) return u;
  if (db.state.units[id]) throw invalidValue(`id ${id} is a unit; only users can be group viewers`, 'id');
  throw notFound(`user ${id} not found`, 'id');
}

/** Remove an id from every group (members and viewers). */
export function detachEverywhere(db: Db, id: number): void {
  for (const g of Object.values(db.state.groups)) {
    remove(g.groupMembers, id);
    remove(g.groupViewers, id);
  }
}

/** Delete shares that point at a unit or group that is going away, or that a deleted user owned. */
export function dropShares(db: Db, match: { did?: number; gid?: number; uid?: number }): void {
  for (const [sid, s] of Object.entries(db.state.shares)) {
    if (
      (match.did !== undefined && s.did === match.did) ||
      (match.gid !== undefined && s.gid === match.gid) ||
      (match.uid !== undefined && s.uid === match.uid)
    ) {
      delete db.state.shares[sid];
    }
  }
}
