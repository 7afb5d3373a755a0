/**
 * The deterministic demo fleet: given the seed (and the epoch), the same groups, units,
 * users and shares every time. Profiles give other commands something to show:
 * inactive units, stale units (last report > 1 day old), low batteries, guards.
 */
import { randomBytes } from 'node:crypto';
import { deterministicId, luhnDigit, mulberry32 } from './prng.js';
import type { GroupEntry, SandboxState, ShareEntry, UnitEntry, UserEntry } from './types.js';

export const DEMO_ACCOUNT = { email: 'demo@example.com', password: 'demo' } as const;
export const DEMO_AID = 1001;
export const HISTORY_DAYS = 7;
const DAY = 86400;

const DEVICE_NAMES = [
  'Ford Transit 01', 'Ford Transit 02', 'Sprinter 03', 'Sprinter 04', 'Box truck 05', 'Box truck 06',
  'Reefer 07', 'Pickup 08', 'Forklift 09', 'Trailer 10', 'Service van 11', 'Courier bike 12',
];
const DEVICE_TYPES = ['GL300', 'GV500MAP', 'TK-903B', 'FMB920', 'GL320MG'];
const SENSOR_NAMES = ['Cold room probe', 'Dock door tag', 'Reefer 07 probe', 'Yard temp tag'];
const SENSOR_TYPES = ['BLE-TH1', 'LoRa-T20'];
const TRACKED = ['Maria Lopez', 'James Carter', 'Aisha Khan'];
const DISPATCHERS = ['Demo Admin', 'Priya Raman', 'Tom Becker'];

function imei(rand: () => number, prefix = '35'): string {
  let body = prefix;
  while (body.length < 14) body += String(Math.floor(rand() * 10));
  return body + luhnDigit(body);
}

function email(name: string): string {
  return `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`;
}

export interface SeedOptions {
  seed: number;
  devices: number;
  /** Unix seconds. */
  now: number;
}

export function createInitialState(opts: SeedOptions): SandboxState {
  const rand = mulberry32(opts.seed);
  const epoch = opts.now;
  const weekAgo = epoch - HISTORY_DAYS * DAY;
  const state: SandboxState = {
    version: 1,
    seed: opts.seed,
    epoch,
    aid: DEMO_AID,
    secret: randomBytes(32).toString('hex'),
    nextId: 2001,
    nextGid: 101,
    sidCounter: 0,
    units: {},
    users: {},
    groups: {},
    shares: {},
    passwords: {},
    refreshTokens: {},
    sessions: {},
  };
  const id = (): number => state.nextId++;
  const addGroup = (name: string): GroupEntry => {
    const g: GroupEntry = { gid: state.nextGid++, name, groupMembers: [], groupViewers: [] };
    state.groups[g.gid] = g;
    return g;
  };
  const north = addGroup('North depot');
  const south = addGroup('South depot');
  const vans = addGroup('Vans');

  const addUser = (name: string, userType: UserEntry['userType'], loginLevel: UserEntry['loginLevel']): UserEntry => {
    const u: UserEntry = {
      uid: id(), name, email: email(name), userType, loginLevel, isActive: 1, country: 'US',
      timezone: 'America/Denver', lastLoginTime: epoch - Math.floor(rand() * 5 * DAY),
      simPhoneNumber: `+1720555${String(1000 + Math.floor(rand() * 9000))}`, groupViewer: [], groupMember: [],
    };
    state.users[u.uid] = u;
    return u;
  };
  const demo = addUser(DISPATCHERS[0] as string, 'dispatcher', 'admin');
  demo.email = DEMO_ACCOUNT.email;
  state.passwords[demo.uid] = DEMO_ACCOUNT.password;
  const priya = addUser(DISPATCHERS[1] as string, 'dispatcher', 'user');
  const tom = addUser(DISPATCHERS[2] as string, 'dispatcher', 'user');
  tom.isActive = 0;

  const unitBase = (name: string, category: UnitEntry['deviceCategory'], deviceType: string): UnitEntry => ({
    did: id(), name, uniqueID: null, trackerID: null, deviceType, deviceCategory: category, isActive: 1,
    guard: null, groupMember: [], histFrom: weekAgo, histUntil: null,
  });
  const devices: UnitEntry[] = DEVICE_NAMES.map((name, i) => {
    const u = unitBase(name, 'device', DEVICE_TYPES[Math.floor(rand() * DEVICE_TYPES.length)] as string);
    u.trackerID = imei(rand);
    u.uniqueID = `SN${String(100000 + Math.floor(rand() * 900000))}${i}`;
    u.simPhoneNumber = `+1303555${String(1000 + Math.floor(rand() * 9000))}`;
    if (i % 4 === 1) u.guard = 'installed';
    if (i === 8) {
      u.isActive = 0; // forklift off the road for a week
      u.histUntil = epoch - 5 * DAY;
    }
    if (i === 4) u.histUntil = epoch - 2 * DAY - 3600; // stale
    if (i === 9) u.histUntil = epoch - 3 * DAY; // stale trailer
    if (i === 6 || i === 11) u.lowBattery = true;
    state.units[u.did] = u;
    return u;
  });
  const sensors: UnitEntry[] = SENSOR_NAMES.map((name, i) => {
    const u = unitBase(name, 'sensor', SENSOR_TYPES[i % SENSOR_TYPES.length] as string);
    u.uniqueID = `TAG-${deterministicId(opts.seed, 9000 + i, 6).toUpperCase()}`;
    if (i === 1) u.trackerID = imei(rand, '86');
    if (i === 2) u.lowBattery = true;
    if (i === 3) u.histUntil = epoch - 36 * 3600; // stale
    state.units[u.did] = u;
    return u;
  });
  const tracked: UserEntry[] = TRACKED.map((name) => {
    const user = addUser(name, 'trackedUser', 'user');
    const dev = unitBase(name, 'trackedUser', 'smartphone');
    dev.uid = user.uid;
    user.did = dev.did;
    state.units[dev.did] = dev;
    return user;
  });

  const member = (g: GroupEntry, ids: number[]): void => {
    for (const i of ids) {
      g.groupMembers.push(i);
      const target = state.units[i] ?? state.users[i];
      target?.groupMember.push(g.gid);
    }
  };
  const viewer = (g: GroupEntry, users: UserEntry[]): void => {
    for (const u of users) {
      g.groupViewers.push(u.uid);
      u.groupViewer.push(g.gid);
    }
  };
  const d = (i: number): number => (devices[i] as UnitEntry).did;
  member(north, [d(0), d(1), d(2), d(3), d(4), (sensors[0] as UnitEntry).did, (tracked[0] as UserEntry).uid]);
  member(south, [d(5), d(6), d(7), d(8), d(9), (sensors[1] as UnitEntry).did, (sensors[2] as UnitEntry).did, (tracked[1] as UserEntry).uid]);
  member(vans, [d(0), d(1), d(2), d(3), d(10)]);
  viewer(north, [demo, priya]);
  viewer(south, [demo]);
  viewer(vans, [demo, tom]);

  const addShare = (s: Omit<ShareEntry, 'sid' | 'n'>): void => {
    const sid = deterministicId(opts.seed, state.sidCounter++);
    state.shares[sid] = { sid, n: state.sidCounter, ...s };
  };
  addShare({ uid: demo.uid, did: d(0), name: 'Customer ETA - Ford Transit 01', timestamp: epoch - 3 * DAY, expiration: 'never' });
  addShare({ uid: demo.uid, gid: north.gid, name: 'North depot live map', timestamp: epoch - DAY, expiration: epoch + 7 * DAY });
  addShare({ uid: demo.uid, did: d(5), name: 'Delivery 4471 (expired)', timestamp: epoch - 4 * DAY, expiration: epoch - 2 * DAY });

  for (let i = 0; i < opts.devices; i++) addGeneratedDevice(state, i, weekAgo);
  return state;
}

/** One of the extra generated devices for scale tests; ids and IMEIs are unique by construction. */
function addGeneratedDevice(state: SandboxState, i: number, histFrom: number): void {
  const did = state.nextId++;
  const n = String(i + 1).padStart(6, '0');
  const body = `99${String(i).padStart(12, '0')}`;
  state.units[did] = {
    did, name: `Fleet unit ${n}`, uniqueID: `GEN${n}`, trackerID: body + luhnDigit(body), deviceType: 'GL300',
    deviceCategory: 'device', isActive: 1, guard: null, groupMember: [], histFrom, histUntil: null,
  };
}
