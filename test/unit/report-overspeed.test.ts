// Overspeed episodes on hand-built speed profiles whose episodes are known by construction.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFences } from '../../src/reports/fences.js';
import { newOverspeedState, overspeedFinish, overspeedProcessor, overspeedStep, type SpeedRules } from '../../src/reports/overspeed.js';
import { run } from '../../src/reports/stream.js';
import { UsageError } from '../../src/errors.js';
import { collect, report, T0 } from './report-fixture.js';

const rules = (over: Partial<SpeedRules> = {}): SpeedRules => ({ limit: 90, fences: [], minDurationS: 30, maxGapS: 3600, ...over });

/** A report every `every` s with these speeds, moving east by what the speed covers. */
function profile(speeds: number[], every: number, start = T0, lat = 48.1) {
  let lng = 11.5;
  return speeds.map((speed, i) => {
    if (i > 0) lng += ((speeds[i - 1] as number) * every) / 3600 / (111.32 * Math.cos((lat * Math.PI) / 180));
    return report({ date: start + i * every, speed, lat, lng });
  });
}

test('an episode runs from the first report above the limit to the first back at or under it, and counts from --min-duration', async () => {
  //            0   10  20  30   40   50   60   70  80  90  100  110
  const r = profile([80, 85, 95, 110, 120, 100, 90, 70, 95, 99, 80, 60], 10);
  const got = await collect(run(r, overspeedProcessor(rules(), { windowS: 0 })));
  assert.equal(got.length, 1, 'the second excursion (80-100 s, 20 s) is shorter than 30 s');
  const [e] = got;
  assert.ok(e);
  assert.deepEqual([e.start, e.end, e.duration, e.maxSpeed, e.limit, e.fence, e.partial], [T0 + 20, T0 + 60, 40, 120, 90, null, false]);
  // time-weighted mean of the reported speeds over 20-60 s: trapezoids of 10 s
  assert.equal(e.avgSpeed, Math.round(((95 + 110) / 2 + (110 + 120) / 2 + (120 + 100) / 2 + (100 + 90) / 2) / 4 * 10) / 10);
  assert.deepEqual([e.lat, e.lng], [r[4]?.properties.lat, r[4]?.properties.lng], 'where the maximum was');
  const driven = ((95 + 110 + 120 + 100) * 10) / 3600; // on the fixture's flat earth; the great circle is within 0.5 %
  assert.ok(Math.abs(e.distanceKm - driven) < driven * 0.005, `distance ${e.distanceKm} vs ${driven}`);
  assert.deepEqual(Object.keys(e), ['did', 'name', 'start', 'end', 'duration', 'maxSpeed', 'avgSpeed', 'limit', 'distanceKm', 'lat', 'lng', 'fence', 'partial']);
  const shorter = await collect(run(r, overspeedProcessor(rules({ minDurationS: 20 }), { windowS: 0 })));
  assert.deepEqual(shorter.map((x) => [x.start, x.end]), [[T0 + 20, T0 + 60], [T0 + 80, T0 + 100]]);
});

test('a fence\'s speedLimit sets the limit inside it, the lowest that applies wins; episodes split where the limit changes', async () => {
  // a 50 zone over lng 11.5005-11.513 (the reports at 10-40 s), a 70 zone over all of it
  const zone = (name: string, limit: number, lng0: number, lng1: number) => ({
    type: 'Feature', properties: { name, speedLimit: limit },
    geometry: { type: 'Polygon', coordinates: [[[lng0, 48], [lng1, 48], [lng1, 48.2], [lng0, 48.2], [lng0, 48]]] },
  });
  const fences = parseFences({ type: 'FeatureCollection', features: [zone('school', 50, 11.5005, 11.513), zone('town', 70, 11.4, 11.6), { ...zone('depot', 0, 0, 1), properties: { name: 'depot' } }] }, 'zones');
  assert.deepEqual(fences.map((f) => f.speedLimit), [50, 70, undefined]);
  const r = profile(Array(12).fill(80), 10); // 80 km/h for 110 s: 0.22 km every 10 s
  const got = await collect(run(r, overspeedProcessor(rules({ limit: 100, fences }), { windowS: 0 })));
  const inSchool = r.filter((x) => x.properties.lng >= 11.5005 && x.properties.lng <= 11.513).map((x) => x.properties.date);
  assert.deepEqual(inSchool, [T0 + 10, T0 + 20, T0 + 30, T0 + 40]);
  // town from 0 s (10 s: too short), school 10-50 s, town again 50-110 s (on at the end: partial)
  assert.deepEqual(got.map((e) => [e.fence, e.limit, e.start, e.end, e.partial]), [['school', 50, T0 + 10, T0 + 50, false], ['town', 70, T0 + 50, T0 + 110, true]]);
  // without --limit, only the fences limit; outside them nothing does
  const fencesOnly = await collect(run(r, overspeedProcessor(rules({ limit: undefined, fences: [fences[0]!] }), { windowS: 0 })));
  assert.deepEqual(fencesOnly.map((e) => e.fence), ['school']);
  assert.throws(() => parseFences({ type: 'FeatureCollection', features: [{ ...zone('x', 0, 0, 1), properties: { name: 'x', speedLimit: 'fast' } }] }, 'z'), UsageError);
});

test('an episode on at the first report, or at the end, or across a long silence is partial', async () => {
  const r = profile([120, 120, 120, 120, 120, 80, 80, 120, 120, 120, 120], 10);
  const got = await collect(run(r, overspeedProcessor(rules(), { windowS: 0 })));
  assert.deepEqual(got.map((e) => [e.start, e.end, e.partial]), [[T0, T0 + 50, true], [T0 + 70, T0 + 100, true]]);
  const silent = profile([120, 120, 120, 120], 20);
  (silent[3] as (typeof silent)[0]).properties.date += 7200;
  const cut = await collect(run(silent, overspeedProcessor(rules(), { windowS: 0 })));
  assert.deepEqual(cut.map((e) => [e.start, e.end, e.partial]), [[T0, T0 + 40, true]], 'ends at its last report before the silence; the lone report after is too short');
});

test('across a long silence the odometer bounds (at the limit, its count takes no longer than --max-gap), the episode is whole', async () => {
  // parked 2 km on, 2 h later (a logger asleep from the moment it parks); then after 3 h, the first fix of the next trip at 120 km/h 5 km on
  const r = [...profile([80, 120, 120, 120], 20), report({ date: T0 + 7260, speed: 0 }), report({ date: T0 + 18000, speed: 120 }), ...profile([120, 120, 60], 20, T0 + 18020)];
  r.forEach((x, i) => (x.properties.odometer = 100 + [0, 0.5, 1.1, 1.8, 3.8, 3.8, 8.8, 9.5, 10.2][i]!));
  const got = await collect(run(r, overspeedProcessor(rules(), { windowS: 0 })));
  assert.deepEqual(got.map((e) => [e.start, e.end, e.partial]), [[T0 + 20, T0 + 60, false], [T0 + 18000, T0 + 18060, false]]);
  // the odometer counts 150 km in the first silence: the unit may have sped on for 1.5 h unseen
  r.forEach((x, i) => i >= 4 && (x.properties.odometer = (x.properties.odometer as number) + 150));
  const far = await collect(run(r, overspeedProcessor(rules(), { windowS: 0 })));
  assert.deepEqual(far.map((e) => [e.start, e.partial]), [[T0 + 20, true], [T0 + 18000, false]]);
});

test('watch\'s state: an episode is told once, as soon as it lasted --min-duration, or at its end when that came first', () => {
  const s = newOverspeedState(7, 'Van 7');
  const step = (t: number, speed: number) => overspeedStep(s, { date: T0 + t, lat: 48.1, lng: 11.5 + t / 10000, speed }, rules());
  assert.equal(step(0, 80).reached, undefined);
  assert.equal(step(10, 100).reached, undefined);
  assert.equal(step(30, 105).reached, undefined);
  const told = step(40, 110).reached;
  assert.deepEqual([told?.start, told?.maxSpeed, told?.limit], [T0 + 10, 110, 90]);
  assert.equal(step(50, 120).reached, undefined, 'once');
  const end = step(60, 60);
  assert.deepEqual([end.reached, end.done.map((e) => [e.start, e.end])], [undefined, [[T0 + 10, T0 + 60]]]);
  // sparse reports: the episode is known to have lasted 40 s only when the unit is back under
  step(100, 130);
  const late = step(140, 50);
  assert.deepEqual([late.reached?.start, late.reached?.end], [T0 + 100, T0 + 140]);
  assert.deepEqual(JSON.parse(JSON.stringify(s)), s, 'plain JSON');
  assert.deepEqual(overspeedFinish(s, rules()), []);
});

test('watch tells one overspeed event per episode, from the same state machine, kept in its plain state', async () => {
  const { observe } = await import('../../src/reports/watch-events.js');
  const { initialState } = await import('../../src/reports/watch-start.js');
  const { restoreState, DEFAULT_WATCH_PARAMS } = await import('../../src/reports/watch-state.js');
  const params = { ...DEFAULT_WATCH_PARAMS, fences: [], speedLimit: 90 };
  const { state } = initialState({ did: 7, name: 'Van 7' }, params);
  const speeds = [80, 95, 100, 110, 120, 80, 70, 95, 100, 105, 99, 98, 60];
  const events = speeds.flatMap((speed, i) => observe(state, { date: T0 + i * 10, lat: 48.1, lng: 11.5 + i / 1000, speed, reportType: 'report' }, params));
  const told = events.filter((e) => e.event === 'overspeed');
  assert.deepEqual(told.map((e) => [e.time, e.start, e.limit, e.maxSpeed]), [[T0 + 40, T0 + 10, 90, 120], [T0 + 100, T0 + 70, 90, 105]]);
  assert.deepEqual(restoreState(JSON.parse(JSON.stringify(state)))?.overspeed, state.overspeed, 'checkpointed as it is');
  const none = { ...DEFAULT_WATCH_PARAMS, fences: [] };
  const quiet = initialState({ did: 7, name: 'Van 7' }, none).state;
  assert.equal(speeds.flatMap((speed, i) => observe(quiet, { date: T0 + i * 10, lat: 48.1, lng: 11.5, speed }, none)).filter((e) => e.event === 'overspeed').length, 0, 'no limit, no events');
});

test("a parked unit's fix that reads a speed from position noise is no episode; a drive of the same shape is one", async () => {
  // Parked: a report every 20 min at the same place (a few metres of jitter), one of them at 24 km/h against a limit of 15.
  const parked = [0, 24, 0, 0].map((speed, i) => report({ date: T0 + i * 1200, speed, lat: 48.1 + (i % 2) * 0.0001, lng: 11.5 }));
  assert.deepEqual(await collect(run(parked, overspeedProcessor(rules({ limit: 15 }), { windowS: 0 }))), []);
  // Two noisy fixes in a row: still no drive (20 m in 20 minutes), at the end of the reports too.
  const twice = [0, 24, 19].map((speed, i) => report({ date: T0 + i * 1200, speed, lat: 48.1 + (i % 2) * 0.0002, lng: 11.5 }));
  assert.deepEqual(await collect(run(twice, overspeedProcessor(rules({ limit: 15 }), { windowS: 0 }))), []);
  // A drive: the same speeds a report a minute, moving as they say: one episode, from the fix at 24 to the one back under.
  const drive = await collect(run(profile([10, 24, 10, 10], 60), overspeedProcessor(rules({ limit: 15 }), { windowS: 0 })));
  assert.deepEqual(drive.map((e) => [e.start, e.end]), [[T0 + 60, T0 + 120]]);
});

test('an episode that ends at the tracker\'s stopped report: the way into it counts at the speed before, not slowing to the 0 that goes with the word', async () => {
  // 113.5 km/h, then 'stopped' 333 s and 10.5 km on (the way at that speed): the unit sped until it stopped
  const r = [
    report({ date: T0, speed: 0, reportType: 'motion_state', reportValue: 'moving' }),
    report({ date: T0 + 300, speed: 113.5, lng: 11.6 }),
    report({ date: T0 + 633, speed: 0, lng: 11.6 + 10.5 / (111.32 * Math.cos((48.1 * Math.PI) / 180)), reportType: 'motion_state', reportValue: 'stopped' }),
  ];
  const [e] = await collect(run(r, overspeedProcessor(rules({ limit: 100 }), { windowS: 0 })));
  assert.deepEqual([e?.start, e?.end, e?.maxSpeed, e?.avgSpeed], [T0 + 300, T0 + 633, 113.5, 113.5]);
  // a measured speed under the limit at the end still counts as measured
  const slowed = r.map((x, i) => (i === 2 ? report({ ...x.properties, speed: 60, reportType: 'report', reportValue: 'periodic' }) : x));
  const [s] = await collect(run(slowed, overspeedProcessor(rules({ limit: 100 }), { windowS: 0 })));
  assert.equal(s?.avgSpeed, Math.round(((113.5 + 60) / 2) * 10) / 10);
});
