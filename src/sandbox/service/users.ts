/** Users: creation (a trackedUser gets its own unit), lookup, deletion, group membership and viewing. */
import { conflict, invalidValue, notFound } from '../errors.js';
import type { UnitEntry, UserEntry } from '../types.js';
import { email, objectBody, onlyFields, phone, requiredString } from '../validate.js';
import type { Db } from './db.js';
import { detachEverywhere, dropShares, requireGroup, setMember, setViewer } from './membership.js';

const USER_TYPES = ['trackedUser', 'dispatcher'] as const;

export function listUsers(db: Db): UserEntry[] {
  return Object.values(db.state.users);
}

export function findUser(db: Db, uid: number): UserEntry {
  const u = db.state.users[uid];
  if (!u) throw notFound(`user ${uid} not found`, 'uid');
  return u;
}

export function findUserByEmail(db: Db, address: string): UserEntry | undefined {
  const wanted = address.toLowerCase();
  return Object.values(db.state.users).find((u) => u.email.toLowerCase() === wanted);
}

export function createUser(db: Db, raw: unknown): UserEntry {
  const body = objectBody(raw);
  onlyFields(body, ['name', 'email', 'userType', 'simPhoneNumber']);
  const name = requiredString(body, 'name');
  const address = email(body, 'email');
  const userType = requiredString(body, 'userType');
  if (!(USER_TYPES as readonly string[]).includes(userType)) {
    throw invalidValue(`userType must be trackedUser or dispatcher, got "${userType}"`, 'userType');
  }
  const sim = phone(body, 'simPhoneNumber');
  const taken = findUserByEmail(db, address);
  if (taken) throw conflict(`email ${address} is already used by user ${taken.uid}`, 'email');
  const user: UserEntry = {
    uid: db.state.nextId++,
    name,
    email: address,
    userType: userType as UserEntry['userType'],
    loginLevel: 'user',
    isActive: 1,
    country: 'US',
    timezone: 'America/Denver',
    lastLoginTime: 0,
    simPhoneNumber: sim ?? '',
    groupViewer: [],
    groupMember: [],
  };
  if (user.userType === 'trackedUser') {
    const dev: UnitEntry = {
      did: db.state.nextId++,
      name,
      uniqueID: null,
      trackerID: null,
      deviceType: 'smartphone',
      deviceCategory: 'trackedUser',
      isActive: 1,
      guard: null,
      groupMember: [],
      histFrom: db.now(),
      histUntil: null,
      uid: user.uid,
    };
    if (sim !== undefined) dev.simPhoneNumber = sim;
    db.state.units[dev.did] = dev;
    user.did = dev.did;
  }
  db.state.users[user.uid] = user;
  db.commit();
  return user;
}

export function deleteUser(db: Db, uid: number): void {
  const user = findUser(db, uid);
  detachEverywhere(db, uid);
  dropShares(db, { uid });
  if (user.did !== undefined) {
    detachEverywhere(db, user.did);
    dropShares(db, { did: user.did });
    delete db.state.units[user.did];
  }
  for (const [key, t] of Object.entries(db.state.refreshTokens)) if (t.uid === uid) delete db.state.refreshTokens[key];
  for (const [key, s] of Object.entries(db.state.sessions)) if (s.uid === uid) delete db.state.sessions[key];
  delete db.state.users[uid];
  delete db.state.passwords[uid];
  db.commit();
}

export function setUserGroups(db: Db, uid: number, gids: number[], kind: 'member' | 'viewer', on: boolean): UserEntry {
  const user = findUser(db, uid);
  const groups = gids.map((gid) => requireGroup(db, gid));
  for (const g of groups) {
    if (kind === 'member') setMember(g, user, on);
    else setViewer(g, user, on);
  }
  db.commit(true); // users are not unit records
  return user;
}
