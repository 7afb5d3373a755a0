// Every silence after which a unit is elsewhere is explained, whatever its length: a trip in it
// (inferred past --max-gap), a stop where the unit came to rest when the way takes only part of
// it (an ignition-powered tracker whose first fix comes late), and the window's edge. Hand-built
// units whose answers are known by construction (the fixture knows where it drove and stood).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Explanation } from '../../src/reports/segments.js';
import { stops } from '../../src/reports/stops.js';
import { summary } from '../../src/reports/summary.js';
import { trips } from '../../src/reports/trips.js';
import { DEFAULTS } from '../../src/reports/params.js';
import { away, collect, kmPerDegLng, near, setOff, T0, Track } from './report-fixture.js';

/** Parks at the depot, drives 10 km at 40 km/h, and reports once at rest where it parks (its last report before it sleeps). */
function parkAndSleep(u: Track, last: Record<string, unknown> = {}): number {
  u.park(1800, 600).drive(10, 40, 30);
  const parked = u.t;
  u.emit({ speed: 0, ...last });
  return parked;
}

/** Wakes `silentS` after `from`, `km` farther east, already driving at 40 km/h (its first fix came late), and drives 6 km more. */
function wakeDriving(u: Track, from: number, silentS: number, km: number): number {
  u.t = from + silentS;
  u.lng += km / kmPerDegLng(u.lat);
  u.drivenKm += km;
  if (u.odometer !== null) u.odometer += km;
  const woke = u.t;
  u.drive(6, 40, 30).park(1800, 600);
  return woke;
}

test('a late first fix after 100 minutes asleep, 1.5 km from where the unit parked: a stop there until the way to that fix began, not a trip through it', async () => {
  for (const odometer of [1000, null]) {
    const u = new Track({ odometer });
    const parked = parkAndSleep(u);
    const woke = wakeDriving(u, parked, 100 * 60, 1.5);
    // the 1.5 km at the 40 km/h of its first fix take 135 s: it set off that long before it
    const left = woke - 135;
    const s = await collect(stops(u.reports));
    assert.deepEqual(s.map((x) => [x.arrival, x.departure, x.partial]), [[T0, T0 + 1800, true], [parked, left, false], [u.t - 1800, null, true]], `odometer ${odometer}`);
    near(s[1]?.lng ?? 0, u.reports.find((r) => r.properties.date === parked)?.properties.lng ?? 0, 1e-6, 'placed where it parked');
    const t = await collect(trips(u.reports));
    assert.deepEqual(t.map((x) => [x.start, x.end, x.inferred]), [[T0 + 1800, parked, false], [left, u.t - 1800, true]]);
    near(t[1]?.distanceKm ?? 0, 1.5 + 6, 0.01, 'the way to the late fix counts');
  }
});

test('an ignition-powered tracker: its stopped report, 12 minutes asleep, a first fix 2 km on: a stop of the single report, until the way at the speed it came at ends at that fix', async () => {
  const u = new Track();
  const parked = parkAndSleep(u, { reportType: 'motion_state', reportValue: 'stopped' });
  const woke = wakeDriving(u, parked, 12 * 60, 2);
  // it said 'stopped' after driving at 40 km/h: the 2 km at that speed take 180 s, it set off then (as the fixture drove it)
  const left = woke - 180;
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1, 2), [[parked, left]]);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end, x.inferred]), [[T0 + 1800, parked, false], [left, u.t - 1800, false]]);
  near(t[1]?.distanceKm ?? 0, 2 + 6, 0.01, 'the way in the silence counts');
});

test('a first fix after a silence the way to it fills: the unit left at its last report (no stop)', async () => {
  const u = new Track();
  const parked = parkAndSleep(u);
  // 8 minutes silent and 5 km on at 40 km/h: 7.5 minutes of driving, no room for --min-stop
  const woke = wakeDriving(u, parked, 8 * 60, 5);
  const t = await collect(trips(u.reports));
  assert.equal(t.length, 1, 'one trip across the silence');
  assert.ok((t[0]?.start ?? 0) < parked && t[0]?.end === u.t - 1800, 'from the depot to where it parked');
  assert.ok(!(await collect(stops(u.reports))).some((x) => x.arrival === parked || x.departure === woke), 'no stop in the silence');
});

test('a trip inside a 3-hour silence without an odometer: parked at A, parked 25 km away: an inferred trip, the straight line', async () => {
  const u = new Track({ odometer: null }).park(3600, 600);
  const lastAtA = u.t - 600;
  u.t += 3 * 3600;
  u.lng += 25 / kmPerDegLng(u.lat);
  const firstAtB = u.t;
  u.park(3600, 600);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end, x.partial, x.inferred]), [[lastAtA, firstAtB, false, true]]);
  near(t[0]?.distanceKm ?? 0, 25, 0.05, 'the straight line');
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]), [[T0, lastAtA], [firstAtB, null]]);
  const [day] = await collect(summary(u.reports, 'UTC'));
  assert.equal(day?.trips, 1);
  near(day?.distanceKm ?? 0, 25, 0.05, 'the day counts it');
  // --max-gap says when it is inferred, not whether it is found
  const long = await collect(trips(u.reports, { ...DEFAULTS, maxGapS: 4 * 3600 }));
  assert.deepEqual(long.map((x) => [x.start, x.end, x.inferred]), [[lastAtA, firstAtB, false]]);
});

test('--explain tells the story chosen for each silence', async () => {
  const u = new Track({ odometer: null });
  const parked = parkAndSleep(u);
  wakeDriving(u, parked, 100 * 60, 1.5);
  u.t += 3 * 3600;
  u.lng += 25 / kmPerDegLng(u.lat);
  u.park(3600, 600);
  const told: Explanation[] = [];
  await collect(trips(u.reports, DEFAULTS, { explain: (e) => told.push(e) }));
  const gaps = told.filter((e) => e.kind === 'gap').map((e) => e.reason);
  assert.equal(gaps.length, 2, gaps.join('\n'));
  assert.match(gaps[0] ?? '', /^silent 1h 40m \(over --max-gap 1h: inferred\).*takes 2m 15s of it: the unit stood here about 1h 38m more and set off in the silence/);
  assert.match(gaps[1] ?? '', /over --max-gap.*it drove in the silence/);
  assert.ok(told.some((e) => e.kind === 'trip' && /inferred/.test(e.reason)));
});

test('the window\'s edge: a last fix the odometer says the unit never drove to is no trip; a lone last fix elsewhere is partial', async () => {
  const u = new Track({ odometer: 5000 }).park(3600, 600);
  u.lng += 11.4 / kmPerDegLng(u.lat); // a jump: 11.4 km off, the odometer counts 0 km
  u.emit();
  assert.deepEqual(await collect(trips(u.reports)), []);
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]), [[T0, null]], 'the stop goes on');
  // without odometers nothing tells: the move to the last fix is not decided
  const bare = u.reports.map((r) => ({ ...r, properties: { ...r.properties, odometer: null } }));
  assert.deepEqual((await collect(trips(bare))).map((x) => x.partial), [true]);
  // with the fix after it, the jump is an outlier
  u.t += 600;
  u.lng -= 11.4 / kmPerDegLng(u.lat);
  u.emit();
  assert.deepEqual(await collect(trips(u.reports)), []);
});

test('at rest, silent, then at rest elsewhere, its first fix there creeping: the trip runs across the silence to that fix, as when it reads no speed', async () => {
  // at rest at A, silent 74 minutes, 21.8 km on (the odometer agrees) a first fix creeping at 0.2 km/h, then the
  // tracker's 'moving' there: the trip from the last report at A to that fix, the stop at B from it
  for (const creep of [0.2, 0]) {
    const u = new Track().park(3600, 600);
    const lastAtA = u.t - 600;
    u.t = lastAtA + 4448;
    away(u, 21.8);
    const atB = u.emit({ speed: creep });
    u.t += 695;
    const moving = setOff(u, 10);
    u.park(1800, 600);
    const t = await collect(trips(u.reports));
    assert.deepEqual(t.map((x) => [x.start, x.end, x.inferred]).slice(0, 1), [[lastAtA, atB.properties.date, true]], `creeping at ${creep} km/h`);
    assert.deepEqual([t[0]?.endLat, t[0]?.endLng], [atB.properties.lat, atB.properties.lng]);
    near(t[0]?.distanceKm ?? 0, 21.8, 0.01, 'the odometer across the silence');
    const s = await collect(stops(u.reports));
    assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1, 2), [[atB.properties.date, moving]]);
  }
});

test('halted on its way, silent, then at rest elsewhere: no speed dates the way, and the trip ends where the unit came to rest, not where it was last seen', async () => {
  // a unit halted on its way (speed 0), silent 74 minutes, at rest 21.8 km on (the odometer agrees): it stood at the
  // second place from its last report before the silence; the way's kilometres are the trip's, and so is its end
  const u = new Track().park(1800, 600).drive(10, 40, 30);
  const haltedAt = u.t;
  u.emit({ speed: 0 });
  u.t += 4448;
  away(u, 21.8);
  const atB = u.emit();
  u.t += 600;
  u.park(1800, 600).drive(10, 40, 30).park(1800, 600);
  const t = await collect(trips(u.reports));
  const trip = t.find((x) => x.end === haltedAt);
  assert.ok(trip, `a trip to the stop since ${haltedAt}: ${JSON.stringify(t)}`);
  assert.deepEqual([trip.endLat, trip.endLng, trip.endAddress], [atB.properties.lat, atB.properties.lng, atB.properties.address], 'it ends at the first fix after the silence');
  near(trip.distanceKm, 10 + 21.8, 0.05, 'its kilometres are the way to that fix');
  const s = await collect(stops(u.reports));
  const stop = s.find((x) => x.arrival === haltedAt && x.departure !== null);
  assert.ok(stop && Math.abs(stop.lng - atB.properties.lng) * kmPerDegLng(stop.lat) < 0.01, `the stop since then is at that fix: ${JSON.stringify(stop)}`);
});

test('driving into a silence, then on at a crawl: a first fix whose slow speed fills the silence waits for the next to tell a roll to a stop from slow traffic', async () => {
  // driving at 51.3 km/h, silent 348 s, 0.64 km on reading 5.7 km/h (the way at 51.3 km/h takes 45 s: 303 s left,
  // a stop if that speed were a parked fix's noise; at 5.7 km/h it takes all of them), then on at 5.7 km/h
  const crawl = (then: (u: Track) => void): Track => {
    const u = new Track({ odometer: 5000 }).park(1800, 600).drive(10, 51.3, 200);
    const last = u.emit({ speed: 51.3 }).properties.date;
    u.t = last + 348;
    away(u, 0.64);
    then(u);
    return u.park(1800, 600);
  };
  const traffic = crawl((u) => u.drive(2.75, 5.7, 346, { reportSpeed: 5.7 }));
  assert.deepEqual((await collect(trips(traffic.reports))).map((x) => [x.start, x.end]), [[T0 + 1800, traffic.t - 1800]], 'one trip through the slow traffic');
  assert.equal((await collect(stops(traffic.reports))).length, 2, 'no stop in it');
  // the same first fix, then parked there: its speed was noise, a stop since the last report before the silence
  let first = 0;
  const parked = crawl((u) => {
    first = u.emit({ speed: 5.7 }).properties.date;
    u.t += 600;
  });
  const s = await collect(stops(parked.reports));
  assert.equal(s.length, 2, JSON.stringify(s));
  assert.ok((s[1]?.arrival ?? 0) < first, `the stop since before its first fix there: ${s[1]?.arrival} < ${first}`);
});

test('driving into a silence, at rest after it where the odometer counts a road (longer than the straight line): it drove there and stood, a stop before its one report there', async () => {
  // driving at 100 km/h, silent 30 minutes in which it drives 10.8 km by road (8.4 km as the crow flies) and parks; one
  // report there at rest, silent again 67 minutes, at rest 11 km on (14.6 km by road)
  const u = new Track({ odometer: 5000 }).park(1800, 600).drive(20, 100, 240);
  const lastDriving = u.emit({ speed: 100 }).properties.date;
  u.t = lastDriving + 1840;
  away(u, 8.4, 10.8);
  const atP1 = u.emit().properties.date;
  u.t += 4015;
  away(u, 11, 14.6);
  const atP2 = u.t;
  u.park(1800, 600);
  // the 10.8 km at the 100 km/h it drove take 389 s: it arrived then
  const arrived = lastDriving + 389;
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end, x.inferred]), [[T0 + 1800, arrived, false], [atP1, atP2, true]]);
  near(t[0]?.distanceKm ?? 0, 20 + 10.8, 0.01, 'the road to the stop');
  near(t[1]?.distanceKm ?? 0, 14.6, 0.01, 'the road in the second silence');
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]), [[T0, T0 + 1800], [arrived, atP1], [atP2, null]]);
});

test('the reports begin with a fix driving at 47.5 km/h, then silent 28 minutes, at rest 4 km on: a trip cut by their start, ending when the way at that speed ends; begun at rest, a whole trip', async () => {
  const begin = (speed: number): { u: Track; first: number } => {
    const u = new Track({ odometer: 5000 });
    const first = u.emit({ speed }).properties.date;
    u.t += 1699;
    away(u, 4);
    u.park(3600, 600);
    return { u, first };
  };
  const driving = begin(47.5);
  // 4 km at 47.5 km/h take 303 s
  const arrived = driving.first + 303;
  assert.deepEqual((await collect(trips(driving.u.reports))).map((x) => [x.start, x.end, x.partial]), [[driving.first, arrived, true]]);
  assert.deepEqual((await collect(stops(driving.u.reports))).map((x) => x.arrival), [arrived]);
  const parked = begin(0);
  assert.deepEqual((await collect(trips(parked.u.reports))).map((x) => [x.start, x.end, x.partial]), [[parked.first, parked.first + 1699, false]]);
});

test('--explain tells the story of a silence the unit drove into and stood through: how long the way took at its speed, a stop from then', async () => {
  const u = new Track({ odometer: 5000 }).park(1800, 600).drive(15, 57.8, 200);
  const last = u.emit({ speed: 57.8 }).properties.date;
  u.t += 2340;
  away(u, 3.4);
  u.park(3600, 600);
  const told: Explanation[] = [];
  await collect(trips(u.reports, DEFAULTS, { explain: (e) => told.push(e) }));
  const gaps = told.filter((e) => e.kind === 'gap');
  assert.deepEqual(gaps.map((e) => [e.from, e.to]), [[last, last + 2340]]);
  assert.match(gaps[0]?.reason ?? '', /^silent 39m, 3\.4 km away .*driving before it \(57\.8 km\/h\) and at rest after it: the way at that speed takes 3m 32s of it, and the unit stood the rest/);
});

test('driving into a silence, then a first fix creeping at 1.2 km/h 520 m on, silent again, 10 km away at rest: a stop at that fix from when the way at the speed before ends (it crept off no place it stood)', async () => {
  const u = new Track({ odometer: 5000 }).park(1800, 600).drive(7, 44.7, 48);
  const last = u.emit({ speed: 44.7 }).properties.date;
  u.t = last + 1935;
  away(u, 0.52);
  const creep = u.emit({ speed: 1.2 }).properties.date;
  u.t += 2451;
  away(u, 10.2);
  const there = u.t;
  u.park(3600, 600);
  // the 0.52 km at 44.7 km/h take 42 s
  const arrived = last + 42;
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end]), [[T0 + 1800, arrived], [creep, there]]);
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1), [[arrived, creep], [there, null]]);
});

test('driving into a 22-minute silence and out of it 85 m from where it fell silent, the odometer counting 8.2 km: the unit went elsewhere and came back, one trip across the silence, no stop at that place', async () => {
  const u = new Track({ odometer: 5000 }).park(1800, 600);
  const start = u.t;
  u.drive(5, 48, 45);
  u.emit({ speed: 48 });
  u.t += 1346;
  away(u, 0.085, 8.2);
  u.drive(4, 42, 45);
  const arrived = u.t;
  u.park(3600, 600);
  const told: Explanation[] = [];
  const t = await collect(trips(u.reports, DEFAULTS, { explain: (e) => told.push(e) }));
  assert.deepEqual(t.map((x) => [x.start, x.end]), [[start, arrived]]);
  near(t[0]?.distanceKm ?? 0, 5 + 8.2 + 4, 0.01, 'the drives and the odometer across the silence');
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]), [[T0, start], [arrived, null]]);
  const gap = told.find((e) => e.kind === 'gap');
  assert.match(gap?.reason ?? '', /^silent 22m 26s, 8\.2 km away .*the reports around it 85 m apart: the unit went elsewhere and came back, the move went on across it$/);
});

test('stood after a silence, silent 12 minutes, a parked fix reading 22.9 km/h 102 m off, the odometer still, then the tracker\'s moving at the stop: the stop goes on (no trip of 0 km by its silence\'s length)', async () => {
  // seed 8's unit 2008 (2026-09-24): the second parked fix lies just beyond the stop radius, the odometer counting nothing
  const u = new Track({ odometer: 2177 }).park(1800, 600);
  const start = u.t;
  u.drive(15, 60.8, 45);
  u.emit({ speed: 60.8 });
  u.t += 1511;
  away(u, 0.827);
  const stood = u.t;
  u.emit({ speed: 12.9 });
  const p1 = { lat: u.lat, lng: u.lng };
  u.t += 697;
  u.emit({ lat: p1.lat + 0.057 / 111.2, lng: p1.lng - 0.085 / kmPerDegLng(p1.lat), speed: 22.9 });
  u.t += 120;
  const moving = u.t;
  away(u, -0.045, 0);
  u.emit({ reportType: 'motion_state', reportValue: 'moving', speed: 0 });
  u.t += 40;
  u.drive(15, 75.5, 45);
  const parked = u.t;
  u.park(1800, 600);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => x.start), [start, moving], 'two trips: none of 0 km between them');
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => x.departure), [start, moving, null]);
  assert.ok((s[1]?.arrival ?? 0) < stood, 'the stop from when the way at 60.8 km/h ended');
  assert.ok((s[2]?.arrival ?? 0) >= parked - 45);
});
