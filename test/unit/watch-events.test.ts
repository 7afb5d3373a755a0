/**
 * The watch event module on hand-made fixtures: each rule's events written out by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFences } from '../../src/reports/fences.js';
import { observe, tick, type WatchEvent, type WatchReport } from '../../src/reports/watch-events.js';
import { byDate, initialState, seedState } from '../../src/reports/watch-start.js';
import { attentionRank, DEFAULT_WATCH_PARAMS, restoreState, type UnitWatchState, type WatchParams } from '../../src/reports/watch-state.js';

const square = (x0: number, y0: number, x1: number, y1: number) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];
const fences = parseFences(
  {
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', properties: { name: 'depot' }, geometry: { type: 'Polygon', coordinates: [square(0, 0, 10, 10)] } },
      { type: 'Feature', properties: { name: 'yard' }, geometry: { type: 'Polygon', coordinates: [square(5, 5, 20, 20)] } },
    ],
  },
  'fixture',
);
const P: WatchParams = { ...DEFAULT_WATCH_PARAMS, staleS: 3600, lowBatteryPct: 20, fences: [] };
const T = 1_800_000_000;

function fresh(params = P, snap: Partial<Parameters<typeof initialState>[0]> = {}): UnitWatchState {
  return initialState({ did: 7, name: 'Van 7', ...snap }, params).state;
}
const rep = (dt: number, extra: Partial<WatchReport> = {}): WatchReport => ({ date: T + dt, lat: 50, lng: 50, speed: 0, battery: 80, address: 'Depot Ln', reportType: 'report', ...extra });
/** The events of a sequence of reports, without the report events, as [event, time - T, extra]. */
function derived(state: UnitWatchState, reports: WatchReport[], params = P): Array<[string, number, string?]> {
  return reports
    .flatMap((r) => observe(state, r, params))
    .filter((e) => e.event !== 'report')
    .map((e) => (e.fence !== undefined ? [e.event, e.time - T, e.fence] : [e.event, e.time - T]));
}

test('every report gives one report event with its place, speed, battery and type', () => {
  const s = fresh();
  const events = observe(s, rep(10, { speed: 42, battery: 77, reportType: 'gps_fix', address: '1 Main St' }), P);
  const expected: WatchEvent = { event: 'report', did: 7, name: 'Van 7', time: T + 10, lat: 50, lng: 50, speed: 42, battery: 77, address: '1 Main St', reportType: 'gps_fix' };
  assert.deepEqual(events[0], expected);
  assert.equal(events.filter((e) => e.event === 'report').length, 1);
});

test('motion by speed: moving above 5, stopped after 2 minutes at or below it (a halt at a light is not a stop)', () => {
  const s = fresh();
  const got = derived(s, [
    rep(0, { speed: 0 }), // unknown → stopped
    rep(30, { speed: 40 }), // moving
    rep(60, { speed: 3 }), // slow since 60
    rep(90, { speed: 0 }), // 30 s: a light
    rep(120, { speed: 35 }), // moving on: no event
    rep(150, { speed: 2 }), // slow since 150
    rep(210, { speed: 0 }),
    rep(270, { speed: 1 }), // 120 s slow → stopped
    rep(300, { speed: 0 }),
  ]);
  assert.deepEqual(got, [['stopped', 0], ['moving', 30], ['stopped', 270]]);
});

test('motion from motion_state reports once a unit sends them; speed is ignored from then on', () => {
  const s = fresh();
  const got = derived(s, [
    rep(0, { speed: 50 }), // speed rule: moving
    rep(10, { reportType: 'motion_state', reportValue: 'stopped', speed: 50 }),
    rep(20, { speed: 60 }), // ignored: this unit tells its motion
    rep(30, { reportType: 'motion_state', reportValue: 'moving' }),
    rep(40, { reportType: 'motion_state', reportValue: 'moving' }), // no change
    rep(50, { speed: 0 }),
    rep(400, { speed: 0 }),
    rep(500, { reportType: 'motion_state', reportValue: 'stopped' }),
  ]);
  assert.deepEqual(got, [['moving', 0], ['stopped', 10], ['moving', 30], ['stopped', 500]]);
});

test('stale once, dated when the silence passed --stale; the next report clears it and it can come again', () => {
  const s = fresh();
  observe(s, rep(0, { speed: 0 }), P);
  assert.deepEqual(tick(s, T + 3599, P), []);
  const stale = tick(s, T + 5000, P);
  assert.deepEqual(stale, [{ event: 'stale', did: 7, name: 'Van 7', time: T + 3600, lat: 50, lng: 50, address: 'Depot Ln', lastReport: T }]);
  assert.deepEqual(tick(s, T + 9000, P), [], 'once');
  assert.equal(s.stale, true);
  observe(s, rep(9100), P);
  assert.equal(s.stale, false);
  assert.deepEqual(tick(s, T + 9100 + 3599, P), []);
  assert.deepEqual(tick(s, T + 20000, P).map((e) => [e.event, e.time - T]), [['stale', 9100 + 3600]]);
});

test('a unit that never reported is stale at the first tick; one known from GET /all-units/ counts from its last report', () => {
  const never = fresh(P, { lastReport: 0, battery: 0 });
  assert.equal(never.battery, null, 'no battery reading without a report');
  assert.deepEqual(tick(never, T, P), [{ event: 'stale', did: 7, name: 'Van 7', time: T, lastReport: null }]);
  const known = fresh(P, { lastReport: T - 7200, battery: 60, lat: 1, lng: 2, address: 'Oak Ave' });
  assert.deepEqual(tick(known, T, P).map((e) => [e.event, e.time - T, e.lastReport]), [['stale', -3600, T - 7200]]);
});

test('battery_low once per crossing below the threshold, armed again 5 points above it', () => {
  const s = fresh();
  const got = derived(s, [
    rep(0, { battery: 25 }),
    rep(10, { battery: 19 }), // crossing
    rep(20, { battery: 15 }),
    rep(30, { battery: 21 }), // back above, not re-armed (< 25)
    rep(40, { battery: 18 }),
    rep(50, { battery: 25 }), // re-armed
    rep(60, { battery: 10 }), // crossing again
  ]);
  assert.deepEqual(got, [['stopped', 0], ['battery_low', 10], ['battery_low', 60]]);
  const low = observe(fresh(), rep(5, { battery: 3 }), P).find((e) => e.event === 'battery_low');
  assert.deepEqual(low, { event: 'battery_low', did: 7, name: 'Van 7', time: T + 5, lat: 50, lng: 50, address: 'Depot Ln', battery: 3 });
});

test('a unit already low in GET /all-units/ gives one battery_low at the start, dated at its last report', () => {
  const { state, events } = initialState({ did: 9, name: 'Bike', lastReport: T - 60, battery: 8, lat: 1, lng: 2, address: 'x' }, P);
  assert.deepEqual(events, [{ event: 'battery_low', did: 9, name: 'Bike', time: T - 60, battery: 8, lat: 1, lng: 2, address: 'x' }]);
  assert.deepEqual(derived(state, [rep(0, { battery: 7 })]), [['stopped', 0]], 'no battery_low again while low');
});

test('sos and crash: one event per such report, late ones included; the newest is the alert', () => {
  const s = fresh();
  const got = derived(s, [
    rep(0),
    rep(10, { reportType: 'sos', reportValue: 'pressed', message: 'SOS button pressed' }),
    rep(20, { reportType: 'sos', reportValue: 'pressed', message: 'SOS button pressed' }),
    rep(30, { reportType: 'crash', message: 'Possible crash detected' }),
    rep(5, { reportType: 'sos', message: 'late' }), // dated before the newest: still told
  ]);
  assert.deepEqual(got, [['stopped', 0], ['sos', 10], ['sos', 20], ['crash', 30], ['sos', 5]]);
  assert.deepEqual(s.alert, { event: 'crash', time: T + 30 });
  const e = observe(fresh(), rep(1, { reportType: 'crash', message: 'Possible crash detected', speed: 70 }), P)[1];
  assert.deepEqual(e, { event: 'crash', did: 7, name: 'Van 7', time: T + 1, lat: 50, lng: 50, address: 'Depot Ln', speed: 70, battery: 80, message: 'Possible crash detected' });
});

test('geofence enter and exit as the unit crosses fences, overlapping fences each on their own', () => {
  const params = { ...P, fences };
  const s = fresh(params, { lastReport: T - 10, lat: 30, lng: 30, battery: 90 }); // outside both
  assert.deepEqual(s.fences, []);
  const at = (dt: number, lng: number, lat: number): WatchReport => rep(dt, { lng, lat, speed: 30 });
  const got = derived(
    s,
    [
      at(0, 30, 30),
      at(10, 2, 2), // into depot
      at(20, 7, 7), // depot and yard
      at(30, 15, 15), // leaves depot, stays in yard
      at(40, 15, 15),
      at(50, 40, 40), // leaves yard
    ],
    params,
  );
  assert.deepEqual(got, [
    ['moving', 0],
    ['geofence_enter', 10, 'depot'],
    ['geofence_enter', 20, 'yard'],
    ['geofence_exit', 30, 'depot'],
    ['geofence_exit', 50, 'yard'],
  ]);
  // A unit inside at the start is taken as inside, without an event.
  const inside = fresh(params, { lastReport: T - 10, lat: 3, lng: 3 });
  assert.deepEqual(inside.fences, ['depot']);
  assert.deepEqual(derived(inside, [at(0, 3, 4)], params), [['moving', 0]]);
});

test('late reports (dated before the newest) are told but change no state', () => {
  const params = { ...P, fences };
  const s = fresh(params);
  observe(s, rep(100, { lat: 2, lng: 2, speed: 40, battery: 60 }), params);
  const before = structuredClone(s);
  const events = observe(s, rep(50, { lat: 40, lng: 40, speed: 0, battery: 5 }), params);
  assert.deepEqual(events.map((e) => e.event), ['report']);
  assert.deepEqual(s, before);
});

test('reports are placed by date; equal dates keep the order sent', () => {
  const a = { date: 3, k: 'a' };
  const b = { date: 1, k: 'b' };
  const c = { date: 3, k: 'c' };
  assert.deepEqual(byDate([a, b, c]).map((r) => r.k), ['b', 'a', 'c']);
});

test('the state is plain JSON: saved and restored, it goes on with the same events', () => {
  const params = { ...P, fences };
  const s = fresh(params);
  const seq = [rep(0, { lat: 2, lng: 2, speed: 40, battery: 30 }), rep(30, { lat: 3, lng: 3, speed: 2, battery: 19 }), rep(60, { speed: 0, reportType: 'sos' })];
  observe(s, seq[0]!, params);
  const copy = restoreState(JSON.parse(JSON.stringify(s)));
  assert.ok(copy);
  assert.deepEqual(copy, s);
  const rest = seq.slice(1);
  assert.deepEqual(rest.flatMap((r) => observe(copy, r, params)), rest.flatMap((r) => observe(s, r, params)));
  assert.equal(restoreState({ did: 'x' }), undefined);
  assert.equal(restoreState(null), undefined);
});

test('attention: recent sos/crash, stale, low battery, moving, stopped, unknown', () => {
  const mk = (patch: Partial<UnitWatchState>): UnitWatchState => ({ ...fresh(), ...patch });
  assert.equal(attentionRank(mk({ alert: { event: 'sos', time: T - 100 }, stale: true }), T), 0);
  assert.equal(attentionRank(mk({ alert: { event: 'sos', time: T - 7200 }, stale: true }), T), 1, 'an old alert no longer counts');
  assert.equal(attentionRank(mk({ batteryLow: true, motion: 'moving' }), T), 2);
  assert.equal(attentionRank(mk({ motion: 'moving' }), T), 3);
  assert.equal(attentionRank(mk({ motion: 'stopped' }), T), 4);
  assert.equal(attentionRank(mk({}), T), 5);
});

test('seedState: a unit parked with a tracker that still reports is stopped, whatever its age, and has its speed', () => {
  // Its last report 5 minutes before the watch: the age rule alone would call it moving.
  const parked = initialState({ did: 1, name: 'Van', lastReport: T + 120, lat: 50, lng: 50 }, P, T + 420).state;
  assert.equal(parked.motion, 'moving', 'the guess from age (what this is about)');
  seedState(parked, [rep(0), rep(120)], P);
  assert.deepEqual([parked.motion, parked.speed, parked.lastReport], ['stopped', 0, T + 120]);

  const driving = initialState({ did: 2, name: 'Truck', lastReport: T + 120 }, P, T + 4000).state;
  assert.equal(driving.motion, 'stopped', 'the guess from age');
  seedState(driving, [rep(60, { speed: 64 }), rep(120, { speed: 71 })], P);
  assert.deepEqual([driving.motion, driving.speed], ['moving', 71]);

  // A tracker that sends no speed: the age rule's guess stays; no report read: nothing changes.
  const mute = initialState({ did: 3, name: 'Tag', lastReport: T + 120 }, P, T + 300).state;
  seedState(mute, [rep(120, { speed: undefined as unknown as number })], P);
  assert.equal(mute.motion, 'moving');
  const none = initialState({ did: 4, name: 'Old', lastReport: T + 120 }, P, T + 300).state;
  seedState(none, [], P);
  assert.deepEqual([none.motion, none.speed], ['moving', null]);
});
