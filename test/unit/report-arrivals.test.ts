// Where a trip ends and a stop begins when a silence or the end of the reports hides the
// arrival: the tracker's own 'stopped' word, a crawl into a stand, a parked fix's noisy speed.
// Hand-built units whose answers are known by construction.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stops } from '../../src/reports/stops.js';
import { summary } from '../../src/reports/summary.js';
import { trips } from '../../src/reports/trips.js';
import { DEFAULTS } from '../../src/reports/params.js';
import type { Explanation } from '../../src/reports/segments.js';
import { away, collect, halt, near, setOff, T0, Track } from './report-fixture.js';

/** Parked, sets off and drives 10 km, its last report at `kmh`; silent `silentS`, `km` on (`odoKm` by the odometer), says 'stopped'. */
function stoppedAfterSilence(kmh: number, silentS: number, km: number, odoKm = km): { u: Track; first: number; stopped: number } {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  const first = setOff(u, 10);
  u.emit({ speed: kmh });
  u.t += silentS;
  away(u, km, odoKm);
  return { u, first, stopped: halt(u) };
}

test('driving into a silence, then motion_state stopped elsewhere, a parked report and moving: the trip ends at the stopped report', async () => {
  // silent 75 minutes, in which it drives 19 km by road (17 km as the crow flies) and says 'stopped' on arrival; the
  // way at the speed it slowed down at leaves a stand in the silence (where it stood, no report says: not before it)
  const { u, first, stopped } = stoppedAfterSilence(40, 75 * 60, 17, 19);
  u.t += 150;
  u.emit();
  u.t += 800;
  const moving = setOff(u, 5);
  u.park(1800, 600);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end, x.partial]), [[first, stopped, false], [moving, u.t - 1800, false]]);
  near(t[0]?.distanceKm ?? 0, 10 + 1 / 3 + 19, 0.01, 'the odometer over the silence');
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1), [[stopped, moving], [u.t - 1800, null]], 'it stood from its stopped report, not from before the silence');
});

test('driving into a silence, then motion_state stopped elsewhere, the odometer the straight line: the trip ends at the stopped report, not before it', async () => {
  // silent 52 minutes, 14.6 km on as the crow flies and by the odometer: the tracker says it stopped on arrival
  const { u, first, stopped } = stoppedAfterSilence(73, 3137, 14.6);
  u.t += 600;
  u.park(1800, 600);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end, x.partial]), [[first, stopped, false]]);
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1), [[stopped, null]], 'it stood from its stopped report');
});

test('crawling in slow traffic, then a silence and motion_state moving a few metres on: it stood from its last crawl report', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  const first = setOff(u, 5);
  u.drive(0.3, 3.9, 45); // slow traffic under the speed threshold, a report every 45 s, 50 m apart
  const lastCrawl = u.t - 45;
  u.gap(40 * 60); // it crawled its last 50 m and stood, silent
  const moving = setOff(u, 8);
  u.park(1800, 600);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end, x.partial]), [[first, lastCrawl, false], [moving, u.t - 1800, false]], 'two trips, not one through the stand');
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1), [[lastCrawl, moving], [u.t - 1800, null]]);
});

test('motion_state stopped, then one report there and the end of the reports: the trip ended whole, not cut', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  const first = setOff(u, 10);
  const stopped = halt(u);
  u.t += 120; // under --min-stop: no stop, but the tracker said it stopped
  u.emit();
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end, x.partial]), [[first, stopped, false]]);
});

test('driving into a silence over midnight, its first fix at rest reads a parked fix\'s noisy speed: the way goes to the day it was driven on', async () => {
  const u = new Track({ t: T0 + 16 * 3600, odometer: 2000 }).park(1800, 600); // 22:00 UTC
  setOff(u, 10);
  u.emit({ speed: 40 }); // 22:46, driving
  away(u, 4); // 4 km on, where it parks at once; silent until 08:00
  u.gap(9 * 3600);
  u.emit({ speed: 10.9, lat: u.lat + 0.05 / 111.2 }); // a parked fix 50 m off, reading a driving speed
  u.t += 1200;
  u.park(3600, 1200);
  const days = await collect(summary(u.reports, 'UTC'));
  assert.equal(days.length, 2);
  near(days[0]?.distanceKm ?? 0, 10 + 1 / 3 + 4, 0.02, 'the day it drove the 4 km on');
  near(days[1]?.distanceKm ?? 0, 0, 0.1, 'the next day, parked (the noisy fix\'s 50 m at most)');
});

test('motion_state moving (no speed), then a silence over midnight and at rest kilometres on: the way goes to the day it set off on', async () => {
  const u = new Track({ t: T0 + 16 * 3600, odometer: 2000 }).park(1800, 600); // 22:00 UTC
  u.emit({ reportType: 'motion_state', reportValue: 'moving', speed: 0 }); // 22:30: it sets off, and falls silent
  u.gap(3 * 3600);
  away(u, 10);
  u.park(3600, 600); // 01:30, at rest 10 km on
  const days = await collect(summary(u.reports, 'UTC'));
  assert.equal(days.length, 2);
  near(days[0]?.distanceKm ?? 0, 10, 0.02, 'the day it set off on');
  near(days[1]?.distanceKm ?? 0, 0, 0.02, 'the next day, parked');
});

test('crawling in slow traffic into a long silence, then driving far on: the move goes on across it, no stop at the crawl (never one of no length)', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  const first = setOff(u, 5);
  // slow traffic: 1 km at 2.6 km/h, a report every 45 s, each as far on as its speed says
  u.drive(1, 2.6, 45);
  u.emit({ speed: 2.6 });
  // silent 52 minutes, then 3.5 km on (by road too), driving at 28 km/h: no report shows the unit at rest before it
  u.t += 3132;
  away(u, 3.5);
  const there = u.t;
  u.emit({ speed: 28.3 });
  u.t += 60;
  u.park(1800, 600);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end]), [[first, there]], 'one trip across the silence, to where it parked');
  const s = await collect(stops(u.reports));
  for (const x of s) assert.ok(x.departure === null || x.departure > x.arrival, `a stop of no length: ${x.arrival}..${x.departure}`);
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]), [[T0, first], [there, null]]);
});

test('at rest, two crawl reports within the radius, then a long silence and driving far on: it stood until the silence, not leaving at the crawl', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  const first = setOff(u, 5);
  const arrived = u.t;
  u.park(600, 120);
  // two reports creeping on at 2.6 km/h (as far on as that speed goes), still within the stop radius
  for (let i = 0; i < 2; i++) {
    u.emit({ speed: 2.6 });
    u.t += 45;
    away(u, 0.033);
  }
  const last = u.t;
  u.emit({ speed: 2.6 });
  // silent 50 minutes, then 3.5 km on, driving at 28 km/h: the way takes 450 s of it, it stood the rest
  u.t += 3000;
  away(u, 3.5);
  const drove = u.t;
  u.emit({ speed: 28.3 });
  u.t += 60;
  u.park(1800, 600);
  const s = await collect(stops(u.reports));
  assert.ok(last > arrived);
  // the 3.5 km at 28.3 km/h take 445 s: it set off that long before its first fix after the silence
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(0, 2), [[T0, first], [arrived, drove - 445]], 'it left in the silence, as long before its first fix after it as the way takes');
});

test('driving fast to a motion_state stopped report, 14 minutes asleep, then a first fix 4.9 km on reading a slow speed: a stop until the way at the speed it came at ends there', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  const first = setOff(u, 20);
  u.drive(10, 80, 45);
  const stopped = halt(u);
  // silent 872 s, 4.9 km on by road; its first fix reads 22.9 km/h (a moment's speed: at it the way would fill the silence)
  u.t += 872;
  away(u, 4.9);
  const woke = u.t;
  u.drive(3, 22.9, 45);
  u.park(1800, 600);
  const left = Math.round(woke - (4.9 * 3600) / 80);
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1, 2), [[stopped, left]], 'the tracker said it stopped, and the way at 80 km/h leaves --min-stop');
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end]).slice(0, 2), [[first, stopped], [left, u.t - 1800]]);
});

test('driving on both sides of an hour\'s silence over midnight, its way a few minutes at their speeds: each side\'s way goes to its day', async () => {
  const u = new Track({ t: T0 + 17 * 3600, odometer: 2000 }).park(1800, 600); // 23:00 UTC
  setOff(u, 10);
  u.drive(5, 60, 45);
  assert.ok(u.t < T0 + 18 * 3600 - 180, 'driving at 60 km/h until 3 minutes before midnight or earlier');
  u.emit({ speed: 60 });
  // silent 61 minutes, 7 km on: 3 minutes at 60 km/h, a stand no report shows, 3 minutes at 80 km/h (3 km, then 4 km)
  u.t += 3660;
  away(u, 7);
  u.emit({ speed: 80 });
  u.drive(4, 80, 45);
  u.park(3600, 600);
  const days = await collect(summary(u.reports, 'UTC'));
  assert.equal(days.length, 2);
  near(days[0]?.distanceKm ?? 0, 10 + 1 / 3 + 5 + 3, 0.05, 'the 3 km driven on at 60 km/h before midnight');
  near(days[1]?.distanceKm ?? 0, 4 + 4, 0.05, 'the 4 km at 80 km/h to the first fix after the silence, and on');
});

test('motion_state stopped, an hour and more asleep, a first fix 2.4 km on reading 25 km/h, then moving there, the odometer still: the speed was a parked fix\'s noise, a stop there', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  const first = setOff(u, 10);
  u.emit({ speed: 40 });
  u.t += 300;
  away(u, 3);
  const stopped = halt(u);
  u.t += 387;
  u.emit({ reportType: 'note', reportValue: 'note' });
  const note = u.t;
  // silent 4606 s, 2.7 km on by road (2.4 km as the crow flies); its first fix there reads 25.4 km/h, and 211 s
  // later, 70 m off, the tracker says it sets off, the odometer where it was: it stood there, the speed was noise
  u.t += 4606;
  away(u, 2.4, 2.72);
  u.emit({ speed: 25.4 });
  const woke = u.t;
  u.t += 211;
  away(u, 0.07, 0);
  const moving = setOff(u, 20);
  halt(u);
  u.park(1800, 600);
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1, 3), [[stopped, note], [woke, moving]], 'a stop at the noisy fix\'s place until the tracker set off');
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end, x.inferred]).slice(0, 3), [[first, stopped, false], [note, woke, true], [moving, u.t - 1800, false]]);
  near(t[1]?.distanceKm ?? 0, 2.72, 0.01, 'the odometer over the silence');
  // --explain tells one story of that silence: the one chosen, not first the late start the next fix undid
  const told: Explanation[] = [];
  await collect(trips(u.reports, DEFAULTS, { explain: (e) => told.push(e) }));
  const silence = told.filter((e) => e.kind === 'gap' && e.from === note && e.to === woke);
  assert.equal(silence.length, 1, silence.map((e) => e.reason).join('\n'));
  assert.match(silence[0]?.reason ?? '', /parked fix's noise|at rest before it/);
});
