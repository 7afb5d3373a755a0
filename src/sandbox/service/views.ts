/** Records as the interface renders them, derived from the stored entries. */
import { reportAt } from '../history.js';
import { latestValidUntil, latestVisibleK, timesOf } from '../report-dates.js';
import { unit as rnd } from '../prng.js';
import type { Db } from './db.js';
import type { GroupEntry, ShareEntry, UnitEntry, UnitRecord, UserEntry } from '../types.js';

export function unitView(db: Db, u: UnitEntry, now = db.now(), k = latestVisibleK(db.state.seed, u, now)): UnitRecord {
  const seed = db.state.seed;
  const r = k === undefined ? undefined : reportAt(seed, u, k);
  const sensor = u.deviceCategory === 'sensor';
  return {
    did: u.did,
    name: u.name,
    uniqueID: u.uniqueID,
    trackerID: u.trackerID,
    deviceType: u.deviceType,
    deviceCategory: u.deviceCategory,
    isActive: u.isActive,
    guard: u.guard,
    humidity: sensor && r ? Math.round(35 + 30 * rnd(seed, u.did, r.k, 20)) : null,
    airPressure: sensor && r ? Math.round(10000 + 300 * rnd(seed, u.did, r.k, 21)) / 10 : null,
    temperature: r ? r.temperature : null,
    lastBatteryLevel: r ? r.battery : 0,
    lastGPSTimestamp: r ? r.date : 0,
    lastKnownAddress: r ? (r.address ?? '') : '',
    lastValidLatitude: r ? r.lat : 0,
    lastValidLongitude: r ? r.lng : 0,
    odometerKM: r ? (r.odometer ?? 0) : 0,
    groupMember: [...u.groupMember],
  };
}

interface RenderedUnit {
  k: number | undefined;
  /** The clock window [from, until) in which k is the newest visible report. */
  from: number;
  until: number;
  name: string;
  isActive: number;
  guard: string | null;
  groupMember: number[];
  /** `,"<did>":{record}` as UTF-8. */
  piece: Buffer;
}
const rendered = new WeakMap<UnitEntry, RenderedUnit>();

/**
 * A unit record as a list piece `,"<did>":{...}`, reused while the unit's own fields and its
 * newest visible report are unchanged: a list of 100,000 devices then costs one cheap check per unit.
 */
export function unitPiece(db: Db, u: UnitEntry, now: number): Buffer {
  const c = rendered.get(u);
  if (
    c && now >= c.from && now < c.until && c.name === u.name && c.isActive === u.isActive && c.guard === u.guard &&
    c.groupMember.length === u.groupMember.length && c.groupMember.every((g, i) => g === u.groupMember[i])
  ) {
    return c.piece;
  }
  const seed = db.state.seed;
  const k = latestVisibleK(seed, u, now);
  const piece = Buffer.from(`,"${u.did}":${JSON.stringify(unitView(db, u, now, k))}`, 'utf8');
  const [from, until] = k === undefined ? [now, now + 1] : [timesOf(seed, u, k)[1], latestValidUntil(seed, u, k)];
  rendered.set(u, { k, from, until, name: u.name, isActive: u.isActive, guard: u.guard, groupMember: [...u.groupMember], piece });
  return piece;
}

/** Render every unit once (start-up of a large sandbox), so the first list is as fast as the next. */
export function warmUnitCache(db: Db): void {
  const now = db.now();
  for (const u of Object.values(db.state.units)) unitPiece(db, u, now);
}

/** A user record; `withDevice` adds the tracked user's unit record (list and get replies). */
export function userView(db: Db, u: UserEntry, withDevice: boolean): Record<string, unknown> {
  const rec: Record<string, unknown> = { uid: u.uid };
  if (u.did !== undefined) {
    rec.did = u.did;
    const dev = db.state.units[u.did];
    if (withDevice && dev) rec.device = unitView(db, dev);
  }
  Object.assign(rec, {
    name: u.name,
    email: u.email,
    userType: u.userType,
    loginLevel: u.loginLevel,
    isActive: u.isActive,
    country: u.country,
    timezone: u.timezone,
    lastLoginTime: u.lastLoginTime,
    simPhoneNumber: u.simPhoneNumber,
    groupViewer: [...u.groupViewer],
    groupMember: [...u.groupMember],
  });
  return rec;
}

/** The user fields the all-units reply carries (no did/device). */
export function allUnitsUserView(u: UserEntry): Record<string, unknown> {
  return {
    uid: u.uid,
    name: u.name,
    email: u.email,
    isActive: u.isActive,
    country: u.country,
    timezone: u.timezone,
    loginLevel: u.loginLevel,
    lastLoginTime: u.lastLoginTime,
    groupViewer: [...u.groupViewer],
    userType: u.userType,
    simPhoneNumber: u.simPhoneNumber,
    groupMember: [...u.groupMember],
  };
}

export function groupView(g: GroupEntry): Record<string, unknown> {
  return { gid: g.gid, name: g.name, groupMembers: [...g.groupMembers], groupViewers: [...g.groupViewers] };
}

export function shareView(db: Db, s: ShareEntry): Record<string, unknown> {
  const rec: Record<string, unknown> = { sid: s.sid, uid: s.uid };
  if (s.did !== undefined) {
    rec.did = s.did;
    const dev = db.state.units[s.did];
    if (dev) rec.device = unitView(db, dev);
  }
  if (s.gid !== undefined) {
    rec.gid = s.gid;
    const g = db.state.groups[s.gid];
    if (g) rec.group = { [g.gid]: groupView(g) };
  }
  rec.name = s.name;
  rec.timestamp = s.timestamp;
  rec.expiration = s.expiration;
  return rec;
}

/** `{result: {<key>: record}, resultCount}` for one or many records. */
export function keyed<T>(items: Iterable<[string | number, T]>): { result: Record<string, T>; resultCount: number } {
  const result: Record<string, T> = {};
  let n = 0;
  for (const [k, v] of items) {
    result[String(k)] = v;
    n++;
  }
  return { result, resultCount: n };
}
