import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Group, Share, Unit, User } from '../../src/api/types.js';
import { exportFleet } from '../../src/fleet/export.js';
import type { Fleet } from '../../src/fleet/format.js';
import { LiveIndex, type LiveState } from '../../src/fleet/live.js';
import { buildPlan } from '../../src/fleet/plan.js';
import { checkReferences } from '../../src/fleet/refs.js';
import { validateFleet } from '../../src/fleet/validate.js';

const NOW = 1_800_000_000;

function unit(did: number, trackerID: string, name: string, groups: number[], extra: Partial<Unit> = {}): Unit {
  return {
    did, name, trackerID, uniqueID: null, deviceType: 'FMB920', deviceCategory: 'device', isActive: 1, guard: null, humidity: null,
    airPressure: null, temperature: null, lastBatteryLevel: 90, lastGPSTimestamp: 0, lastKnownAddress: '', lastValidLatitude: 0,
    lastValidLongitude: 0, odometerKM: 0, groupMember: groups, ...extra,
  };
}
function user(uid: number, email: string, name: string, extra: Partial<User> = {}): User {
  return {
    uid, email, name, userType: 'dispatcher', loginLevel: 'user', isActive: 1, country: 'US', timezone: 'UTC', lastLoginTime: 0,
    simPhoneNumber: '', groupViewer: [], groupMember: [], ...extra,
  };
}
const group = (gid: number, name: string, members: number[], viewers: number[]): Group => ({ gid, name, groupMembers: members, groupViewers: viewers });
const share = (sid: string, name: string, target: { did?: number; gid?: number }, expiration: number | 'never'): Share => ({ sid, uid: 1, name, timestamp: 0, expiration, ...target });

function liveState(): LiveState {
  return {
    groups: [group(101, 'North', [11, 21], [1]), group(102, 'Vans', [11], [])],
    devices: [unit(11, '111', 'Van 1', [101, 102]), unit(12, '222', 'Van 2', [])],
    sensors: [unit(13, '', 'Tag', [], { uniqueID: 'TAG-1', trackerID: null, deviceCategory: 'sensor', deviceType: 'BLE' })],
    users: [user(1, 'admin@example.com', 'Admin', { groupViewer: [101] }), user(21, 'maria@example.com', 'Maria', { userType: 'trackedUser', did: 22, groupMember: [101] })],
    shares: [share('S1', 'Customer', { did: 11 }, 'never'), share('S2', 'Old', { did: 12 }, NOW - 100)],
    selfUid: 1,
  };
}

function fleetOf(doc: unknown): Fleet {
  const { fleet, problems } = validateFleet(doc);
  assert.deepEqual(problems, []);
  return fleet;
}

function plan(doc: unknown, prune = false, live = liveState()) {
  const index = new LiveIndex(live);
  const fleet = fleetOf(doc);
  assert.deepEqual(checkReferences(fleet, index, prune), []);
  return buildPlan(fleet, index, { prune, nowS: NOW });
}

const summary = (p: ReturnType<typeof plan>): string[] => p.steps.map((s) => `${s.action} ${s.kind} ${s.key}: ${s.details}`);

test('export of a live state plans nothing when applied back, with or without --prune', () => {
  const { doc, warnings } = exportFleet(new LiveIndex(liveState()));
  assert.deepEqual(warnings, []);
  const p = plan(JSON.parse(JSON.stringify(doc)), true);
  assert.deepEqual(summary(p), []);
  assert.deepEqual(p.notes, []);
});

test('membership order and repeats do not cause changes', () => {
  const p = plan({
    apiVersion: 'trackctl/v1', kind: 'Fleet',
    devices: [{ trackerID: '111', name: 'Van 1', type: 'FMB920', groups: ['Vans', 'North', 'Vans'] }],
    groups: [{ name: 'North', viewers: ['ADMIN@example.com', 'admin@example.com'] }, { name: 'Vans' }],
  });
  assert.deepEqual(summary(p), []);
});

test('updates: rename, deactivate, membership move, viewer change, share expiry and rename', () => {
  const p = plan({
    apiVersion: 'trackctl/v1', kind: 'Fleet',
    groups: [{ name: 'North', viewers: [] }, { name: 'Vans', viewers: ['maria@example.com'] }],
    devices: [{ trackerID: '111', name: 'Van 1b', type: 'FMB920', active: false, groups: ['Vans'] }],
    shares: [{ name: 'Customer view', renamedFrom: 'Customer', device: '111', expires: NOW + 3600 }],
  });
  assert.deepEqual(summary(p), [
    'update device 111: name: "Van 1" → "Van 1b"; active: true → false',
    'remove-members group North: device 111',
    'remove-viewers group North: user admin@example.com',
    'add-viewers group Vans: user maria@example.com',
    `update share Customer view: name: "Customer" → "Customer view"; expires: never → ${new Date((NOW + 3600) * 1000).toISOString().replace('.000', '')}`,
  ]);
  // never → a time cannot be undone later: the plan says so instead of sending a PATCH that would fail.
  const back = plan({ apiVersion: 'trackctl/v1', kind: 'Fleet', shares: [{ name: 'Customer', device: '111', expires: 'never' }] });
  assert.deepEqual(summary(back), []);
});

test('new objects: create in phases, memberships batched per group, share on a created device', () => {
  const p = plan({
    apiVersion: 'trackctl/v1', kind: 'Fleet',
    groups: [{ name: 'East', viewers: ['ops@example.com'] }],
    devices: [{ trackerID: '333', name: 'Van 3', type: 'FMB920', groups: ['East', 'Vans'] }],
    users: [{ email: 'ops@example.com', name: 'Ops', type: 'dispatcher', groups: ['East'] }],
    shares: [{ name: 'Van 3 live', device: '333' }],
  });
  assert.deepEqual(p.steps.map((s) => `${s.phase}/${s.action} ${s.kind} ${s.key}`), [
    'groups/create group East',
    'objects/create device 333',
    'objects/create user ops@example.com',
    'memberships/add-members group East',
    'memberships/add-viewers group East',
    'memberships/add-members group Vans',
    'shares/create share Van 3 live',
  ]);
  const east = p.steps.find((s) => s.action === 'add-members' && s.key === 'East');
  assert.equal(east?.details, 'device 333, user ops@example.com');
});

test('what the interface cannot change is a note, not a step', () => {
  const p = plan({
    apiVersion: 'trackctl/v1', kind: 'Fleet',
    devices: [{ trackerID: '111', name: 'Van 1', type: 'FMB140' }],
    users: [{ email: 'maria@example.com', name: 'Maria L', type: 'trackedUser' }],
    shares: [{ name: 'Customer', group: 'North' }, { name: 'Old', device: '222', expires: NOW - 50 }],
  });
  assert.deepEqual(summary(p), []);
  assert.deepEqual(p.notes.map((n) => `${n.action} ${n.kind} ${n.key}`), [
    'cannot-change device 111',
    'cannot-change user maria@example.com',
    'cannot-change share Customer',
  ]);
});

test('an expiry in the past: an existing expired share is left alone, a new one is not created', () => {
  const p = plan({ apiVersion: 'trackctl/v1', kind: 'Fleet', shares: [{ name: 'Gone', device: '222', expires: '2020-01-01T00:00:00Z' }] });
  assert.deepEqual(summary(p), []);
  assert.equal(p.notes[0]?.action, 'skip');
});

test('--prune deletes only listed kinds, never the signed-in user; leavers exit kept groups first', () => {
  const p = plan({ apiVersion: 'trackctl/v1', kind: 'Fleet', users: [], devices: [{ trackerID: '222', name: 'Van 2', type: 'FMB920' }] }, true);
  assert.deepEqual(summary(p), [
    'remove-members group North: device 111, user maria@example.com',
    'remove-members group Vans: device 111',
    'delete device 111: name=Van 1',
    'delete user maria@example.com: name=Maria',
  ]);
  assert.deepEqual(p.notes.map((n) => `${n.action} ${n.key}`), ['keep admin@example.com']);
});

test('references: undeclared names must exist live; --prune may not delete what the file uses', () => {
  const index = new LiveIndex(liveState());
  const fleet = fleetOf({
    apiVersion: 'trackctl/v1', kind: 'Fleet',
    groups: [{ name: 'East' }],
    devices: [{ trackerID: '333', name: 'X', type: 'T', groups: ['Nowhere', 'North'] }],
    shares: [{ name: 'S', user: 'admin@example.com' }],
  });
  assert.deepEqual(checkReferences(fleet, index, true).map((p) => p.path), ['devices[0].groups[0]', 'devices[0].groups[1]', 'shares[0].user']);
  assert.deepEqual(checkReferences(fleet, index, false).map((p) => p.path), ['devices[0].groups[0]', 'shares[0].user']);
});

test('validation lists every problem with its path', () => {
  const { problems } = validateFleet({
    apiVersion: 'trackctl/v1', kind: 'Fleet', extra: 1,
    devices: [{ trackerID: 357494414214035, name: 'A', type: 'T' }, { trackerID: 'X1', name: ' ', type: 'T' }, { trackerID: 'X1', name: 'B', type: 'T', groups: 'G' }],
    users: [{ email: 'a@example.com', name: 'A', type: 'trackedUser', viewerGroups: [] }],
    groups: [{ name: 'G', viewers: ['a@example.com'] }],
    shares: [{ name: 'S' }],
  });
  assert.deepEqual(problems.map((p) => p.path), [
    'extra', 'devices[0].trackerID', 'devices[1].name', 'devices[2].groups', 'devices[2].trackerID', 'users[0].viewerGroups', 'shares[0]',
  ]);
});
