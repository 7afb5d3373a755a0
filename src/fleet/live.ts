/**
 * The live state of the account, read in parallel (reads only), and indexed by
 * natural key for planning: group name, trackerID, uniqueID, e-mail, share name.
 */
import type { Api } from '../api/client.js';
import { listGroups } from '../api/groups.js';
import { listShares } from '../api/shares.js';
import type { Group, Share, Unit, User } from '../api/types.js';
import { listUnits } from '../api/units.js';
import { listUsers } from '../api/users.js';
import { emailKey, type Expiry, type UnitKind } from './format.js';

export interface LiveState {
  groups: Group[];
  devices: Unit[];
  sensors: Unit[];
  users: User[];
  shares: Share[];
  /** The signed-in user: never pruned. */
  selfUid?: number;
}

export async function readLive(api: Api, opts: { self: boolean }): Promise<LiveState> {
  const [groups, devices, sensors, users, shares, self] = await Promise.all([
    listGroups(api),
    listUnits(api, 'devices'),
    listUnits(api, 'sensors'),
    listUsers(api),
    listShares(api),
    opts.self ? api.json({ method: 'GET', path: '/login/' }) : Promise.resolve(undefined),
  ]);
  const live: LiveState = { groups: groups.records, devices: devices.records, sensors: sensors.records, users: users.records, shares: shares.records };
  if (self && typeof self.uid === 'number') live.selfUid = self.uid;
  return live;
}

/** What a member id of a group stands for, when it is something the file can name. */
export interface MemberName {
  kind: UnitKind | 'user';
  key: string;
}

export class LiveIndex {
  readonly groupsByName = new Map<string, Group[]>();
  readonly groupName = new Map<number, string>();
  readonly units: Record<UnitKind, Map<string, Unit>> = { device: new Map(), sensor: new Map() };
  readonly usersByEmail = new Map<string, User>();
  readonly sharesByName = new Map<string, Share[]>();
  /** did/uid → natural key, for group member and viewer lists. */
  readonly memberById = new Map<number, MemberName>();
  /** A tracked user's unit did → the user's e-mail key (share targets). */
  readonly userByUnit = new Map<number, string>();

  constructor(readonly live: LiveState) {
    for (const g of sortById(live.groups, (g) => g.gid)) {
      push(this.groupsByName, g.name, g);
      this.groupName.set(g.gid, g.name);
    }
    this.addUnits('device', live.devices, (u) => u.trackerID);
    this.addUnits('sensor', live.sensors, (u) => u.uniqueID);
    for (const u of sortById(live.users, (u) => u.uid)) {
      const key = emailKey(u.email);
      if (this.usersByEmail.has(key)) continue;
      this.usersByEmail.set(key, u);
      this.memberById.set(u.uid, { kind: 'user', key });
      if (typeof u.did === 'number') this.userByUnit.set(u.did, key);
    }
    for (const s of [...live.shares].sort((a, b) => (a.sid < b.sid ? -1 : a.sid > b.sid ? 1 : 0))) push(this.sharesByName, s.name, s);
  }

  private addUnits(kind: UnitKind, list: Unit[], key: (u: Unit) => string | null): void {
    for (const u of sortById(list, (u) => u.did)) {
      const k = key(u);
      // A unit without its key cannot be named in the file: it is left alone (never pruned).
      if (typeof k !== 'string' || k === '' || this.units[kind].has(k)) continue;
      this.units[kind].set(k, u);
      this.memberById.set(u.did, { kind, key: k });
    }
  }

  /** The one live group of that name; undefined when none (ambiguity is checked in refs.ts). */
  group(name: string): Group | undefined {
    return this.groupsByName.get(name)?.[0];
  }

  share(name: string): Share | undefined {
    return this.sharesByName.get(name)?.[0];
  }
}

/** A share's expiration as the service sends it (unix seconds, numeric string or "never"). */
export function liveExpiry(share: Share): Expiry {
  const e = share.expiration;
  if (typeof e === 'number') return e;
  if (typeof e === 'string' && /^\d+$/.test(e)) return Number(e);
  return 'never';
}

/** What a live share points at, by natural key; undefined when the target cannot be named. */
export function liveTarget(index: LiveIndex, share: Share): { kind: 'device' | 'sensor' | 'user' | 'group'; key: string } | undefined {
  if (typeof share.gid === 'number') {
    const name = index.groupName.get(share.gid);
    return name === undefined ? undefined : { kind: 'group', key: name };
  }
  if (typeof share.did === 'number') {
    const member = index.memberById.get(share.did);
    if (member && member.kind !== 'user') return member;
    const user = index.userByUnit.get(share.did);
    return user === undefined ? undefined : { kind: 'user', key: user };
  }
  return undefined;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function sortById<T>(list: T[], id: (t: T) => number): T[] {
  return [...list].sort((a, b) => id(a) - id(b));
}
