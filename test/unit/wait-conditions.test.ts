/**
 * The wait conditions on hand-made report sequences: what meets each one, the report that
 * did, and what does not (late reports, unknown positions, a battery that is not reported).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../../src/errors.js';
import { parseDuration } from '../../src/io/format-time.js';
import { parseFences } from '../../src/reports/fences.js';
import { parseCondition, UnitWait, type Condition } from '../../src/reports/conditions.js';
import type { UnitSnapshot, WatchReport } from '../../src/reports/watch-events.js';

const T = 1_800_000_000;
const square = (x0: number, y0: number, x1: number, y1: number) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];
const fences = parseFences(
  {
    type: 'FeatureCollection',
    features: [{ type: 'Feature', properties: { name: 'depot' }, geometry: { type: 'Polygon', coordinates: [square(0, 0, 10, 10)] } }],
  },
  'fixture',
);
const rep = (dt: number, extra: Partial<WatchReport> = {}): WatchReport => ({ date: T + dt, lat: 50, lng: 50, speed: 0, battery: 80, address: 'Depot Ln', reportType: 'report', ...extra });
const snap = (extra: Partial<UnitSnapshot> = {}): UnitSnapshot => ({ did: 7, name: 'Van 7', lastReport: T, lat: 50, lng: 50, battery: 80, ...extra });
const cond = (text: string): Condition => {
  const c = parseCondition(text, parseDuration);
  return 'file' in c ? { ...c, fences } : c;
};

test('parseCondition: every condition, and bad ones are usage errors naming the text', () => {
  assert.deepEqual(parseCondition('reporting', parseDuration), { kind: 'reporting' });
  assert.deepEqual(parseCondition('Moving', parseDuration), { kind: 'moving' });
  assert.deepEqual(parseCondition('stale=2h', parseDuration), { kind: 'stale', seconds: 7200 });
  assert.deepEqual(parseCondition('inside=depot.geojson', parseDuration), { kind: 'inside', file: 'depot.geojson' });
  assert.deepEqual(parseCondition('battery_low=15%', parseDuration), { kind: 'battery_low', pct: 15 });
  // watch's event names, and the earlier spellings scripts may still pass
  assert.deepEqual(parseCondition('battery-below=15', parseDuration), { kind: 'battery_low', pct: 15 });
  assert.deepEqual(parseCondition('report', parseDuration), { kind: 'reporting' });
  for (const bad of ['', 'parked', 'moving=1', 'stale', 'stale=', 'stale=soon', 'stale=0s', 'inside=', 'battery_low=0', 'battery-below=101', 'battery_low=x']) {
    assert.throws(() => parseCondition(bad, parseDuration), (err: Error) => err instanceof UsageError && err.message.includes(`"${bad}"`), bad);
  }
});

test('reporting: met by the first report received after the start, late ones included; the seed never meets it', () => {
  const w = new UnitWait(cond('reporting'), snap());
  assert.equal(w.seed([rep(-60), rep(0)], T + 100), undefined);
  assert.equal(w.observe([]), undefined);
  assert.equal(w.tick(T + 10_000), undefined);
  // A report dated before the newest (late) is still the unit reporting.
  const met = w.observe([rep(-3600, { reportType: 'note', lat: 1, lng: 2 }), rep(200)]);
  assert.equal(met?.date, T - 3600);
  assert.equal(met?.reportType, 'note');
  assert.deepEqual([met?.lat, met?.lng, met?.time], [1, 2, T - 3600]);
  assert.equal(w.observe([rep(300)])?.date, T - 3600, 'the first report stays the one that met it');
});

test('moving: a parked unit (seeded stopped) is met by the first report that moves it, not before', () => {
  const w = new UnitWait(cond('moving'), snap());
  assert.equal(w.seed([rep(-120), rep(0)], T + 30), undefined, 'stopped at the start');
  assert.equal(w.observe([rep(60, { speed: 3 })]), undefined, 'jitter at or below the moving speed');
  const met = w.observe([rep(120, { speed: 42, lat: 51 }), rep(150, { speed: 50 })]);
  assert.equal(met?.date, T + 120);
  assert.equal(met?.speed, 42);
  assert.equal(met?.lat, 51);
  assert.equal(met?.condition, 'moving');
});

test('stopped: holds at once for a parked unit (the newest report is what is printed); a moving one needs motion_state or 2 minutes slow', () => {
  const parked = new UnitWait(cond('stopped'), snap());
  const at = parked.seed([rep(-600), rep(-30, { reportType: 'gps_fix' })], T + 10);
  assert.equal(at?.date, T - 30);
  assert.equal(at?.reportType, 'gps_fix');

  const driving = new UnitWait(cond('stopped'), snap());
  assert.equal(driving.seed([rep(-60, { speed: 40 }), rep(0, { speed: 35 })], T + 5), undefined);
  assert.equal(driving.observe([rep(60, { speed: 0 }), rep(120, { speed: 2 })]), undefined, 'a halt shorter than 2 minutes');
  assert.equal(driving.observe([rep(180, { speed: 1 })])?.date, T + 180, '2 minutes at or below the moving speed');

  const reporting = new UnitWait(cond('stopped'), snap());
  reporting.seed([rep(-10, { reportType: 'motion_state', reportValue: 'moving', speed: 30 })], T);
  assert.equal(reporting.observe([rep(10, { speed: 0 })]), undefined, 'speed no longer decides once motion_state is sent');
  assert.equal(reporting.observe([rep(20, { reportType: 'motion_state', reportValue: 'stopped', speed: 0 })])?.reportType, 'motion_state');
});

test('a late report changes no state: it cannot meet a state condition', () => {
  const w = new UnitWait(cond('moving'), snap());
  w.seed([rep(0)], T + 1);
  assert.equal(w.observe([rep(-500, { speed: 80 })]), undefined);
  assert.equal(w.observe([rep(30, { speed: 80 })])?.date, T + 30);
});

test('stale=D: met at last report + D by the clock; a report in time puts it off; a unit that never reported is stale at once', () => {
  const w = new UnitWait(cond('stale=1h'), snap());
  assert.equal(w.seed([rep(0)], T + 600), undefined);
  assert.equal(w.tick(T + 3599), undefined);
  w.observe([rep(1800)]);
  assert.equal(w.tick(T + 3600 + 60), undefined, 'the report at +30m moved the due time');
  const met = w.tick(T + 1800 + 3600);
  assert.equal(met?.time, T + 1800 + 3600);
  assert.equal(met?.date, T + 1800);

  const silent = new UnitWait(cond('stale=1h'), snap({ lastReport: T - 7200 }));
  assert.equal(silent.seed([], T)?.time, T - 3600, 'stale since last report + 1h');

  const never = new UnitWait(cond('stale=1h'), { did: 9, name: 'New' });
  const none = never.seed([], T);
  assert.deepEqual([none?.time, none?.date, none?.lat], [T, null, null]);
});

test('inside / outside a fence: the newest position; no position known is neither', () => {
  const inside = new UnitWait(cond('inside=depot.geojson'), snap());
  assert.equal(inside.seed([rep(0)], T), undefined, '50,50 is outside the depot');
  assert.equal(inside.observe([rep(60, { lat: 5, lng: 5, speed: 20 })])?.fence, 'depot');

  const outside = new UnitWait(cond('outside=depot.geojson'), snap({ lat: 5, lng: 5 }));
  assert.equal(outside.seed([rep(0, { lat: 5, lng: 5 })], T), undefined);
  assert.equal(outside.observe([rep(10, { lat: undefined, lng: undefined })]), undefined, 'a report without a position keeps the last one');
  const met = outside.observe([rep(20, { lat: 5, lng: 10.5 })]);
  assert.equal(met?.date, T + 20);
  assert.equal(met?.fence, undefined);

  const nowhere = new UnitWait(cond('outside=depot.geojson'), { did: 9, name: 'New' });
  assert.equal(nowhere.seed([], T), undefined);
});

test('battery_low: the newest known level; a report without one keeps it', () => {
  const w = new UnitWait(cond('battery_low=20'), snap({ battery: 25 }));
  assert.equal(w.seed([rep(0, { battery: 25 })], T), undefined);
  assert.equal(w.observe([rep(10, { battery: undefined }), rep(20, { battery: 20 })]), undefined, '20 is not below 20');
  assert.equal(w.observe([rep(30, { battery: 19.5 })])?.battery, 19.5);

  const fromSnapshot = new UnitWait(cond('battery_low=20'), snap({ battery: 5 }));
  assert.equal(fromSnapshot.seed([], T)?.battery, 5, 'the snapshot alone, when the history holds nothing');
});
