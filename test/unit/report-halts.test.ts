// The tracker's 'stopped' word, a parked report and a creeping first fix around silences, and the
// end of the reports after a 'stopped' report. Hand-built units whose answers are known by
// construction (the fixture knows where it drove, stood and fell silent).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stops } from '../../src/reports/stops.js';
import { trips } from '../../src/reports/trips.js';
import { collect, halt, kmPerDegLng, T0, Track } from './report-fixture.js';

/** The tracker says it sets off (speed 0), then drives `km` east at `kmh`, a report every `every` s. */
function setOff(u: Track, km: number, kmh = 40, every = 30): number {
  const at = u.t;
  u.emit({ reportType: 'motion_state', reportValue: 'moving', speed: 0 });
  u.t += every;
  u.drive(km, kmh, every);
  return at;
}

/** Silent `s` seconds, in which it goes `km` east (the odometer counting `odoKm`). */
function away(u: Track, s: number, km: number, odoKm = km): void {
  u.t += s;
  u.lng += km / kmPerDegLng(u.lat);
  u.odometer = (u.odometer ?? 0) + odoKm;
}

test('stopped 98 m past its last drive report, one parked report 392 s later, then silent over --max-gap and 20 km away: a stop from the stopped report, an inferred trip in the silence', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  setOff(u, 10, 88, 4); // a report every 98 m: the last one before it stopped lies within the stop radius of it
  const stopped = halt(u);
  away(u, 392, 0.005, 0); // 5 m on: beyond the radius of the last drive report
  const parked = u.t;
  u.emit();
  away(u, 3647, 20, 21);
  const there = u.t;
  u.park(1800, 600);
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1), [[stopped, parked], [there, null]]);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.end, x.inferred]), [[stopped, false], [there, true]]);
});

test('motion_state stopped, silent half an hour, then motion_state stopped again 700 m on: it drove between the two (a trip), not a roll to one stop', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  setOff(u, 6, 30, 200);
  const first = halt(u);
  away(u, 1938, 0.7);
  const second = halt(u);
  u.t += 600;
  u.park(3600, 600);
  const s = await collect(stops(u.reports));
  assert.equal(s.length, 3, 'parked, at the first stopped report, at the second');
  assert.equal(s[1]?.arrival, first);
  assert.equal(s[2]?.arrival, second);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => x.end), [first, second]);
});

test('motion_state stopped, silent 21 minutes, then motion_state moving 965 m on: it stood at both places and drove between (a trip in the silence), not a roll to one stop', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  setOff(u, 20, 86.8, 45);
  const stopped = halt(u);
  away(u, 1280, 0.965);
  const moving = setOff(u, 15, 56, 45);
  u.park(1800, 600);
  // the 0.965 km at the 86.8 km/h it came at take 40 s; the two stands share the other 1240 s alike
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1), [[stopped, stopped + 620], [moving - 620, moving], [u.t - 1800, null]]);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end]).slice(1), [[stopped + 620, moving - 620], [moving, u.t - 1800]]);
  assert.ok(Math.abs((t[1]?.distanceKm ?? 0) - 0.965) < 0.005, `the way in the silence: ${t[1]?.distanceKm} km`);
});

test('motion_state stopped after a report every 5 s, then parked reports minutes apart a few metres on: the stop begins at the stopped report, not at a later parked one', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  setOff(u, 3, 35.4, 5); // a report every 49 m: the candidate stop holds the two before the stopped report, 98 m back
  const stopped = halt(u);
  u.t += 219;
  u.lng -= 0.002 / kmPerDegLng(u.lat); // 2 m back: 96 m from the first fix the candidate holds
  u.emit();
  // 3 m past the stopped report: 101 m from that first fix, within the radius of the stopped report
  u.t += 1559;
  u.lng += 0.005 / kmPerDegLng(u.lat);
  u.emit();
  u.t += 845;
  const moving = setOff(u, 5, 60, 30);
  u.park(1800, 600);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => x.end), [stopped, u.t - 1800]);
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1), [[stopped, moving], [u.t - 1800, null]]);
});

test('motion_state stopped, silent 14 minutes, then 2 km on creeping in slow traffic: a stop until the way at the speed it came at ends at that fix', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  setOff(u, 20, 69, 200);
  const stopped = halt(u);
  away(u, 828, 2);
  u.drive(2, 3.2, 200, { reportSpeed: 3.2 }).park(1800, 600);
  // the 2 km at the 69 km/h it came at take 104 s of the 828: it stood the other 724 s
  const left = stopped + 724;
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1, 2), [[stopped, left]]);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end]), [[T0 + 1800, stopped], [left, u.t - 1800]]);
});

test('motion_state moving, silent 6 minutes, then 3.8 km on creeping through slow traffic to a stop: one trip, not two', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  const moving = u.t;
  u.emit({ reportType: 'motion_state', reportValue: 'moving', speed: 0 });
  away(u, 357, 3.8);
  u.drive(2.5, 3.9, 300);
  const stopped = halt(u);
  u.t += 600;
  u.park(1800, 600);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end, x.partial]), [[moving, stopped, false]]);
});

test('the reports end 70 s after motion_state stopped, at its place: the trip ended there, not cut by the end of the reports', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  setOff(u, 6, 45, 45);
  const stopped = halt(u);
  u.t += 70;
  u.emit();
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.end, x.partial]), [[stopped, false]]);
  // with no 'stopped' report the end of the reports cuts it
  const v = new Track({ odometer: 2000 }).park(1800, 600);
  setOff(v, 6, 45, 45);
  v.emit();
  v.t += 70;
  v.emit();
  assert.deepEqual((await collect(trips(v.reports))).map((x) => x.partial), [true]);
});

test('motion_state stopped on both sides of a silence over --max-gap: the trip dated inside it is inferred', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  setOff(u, 10, 50, 60);
  const first = halt(u);
  away(u, 6087, 12.7);
  const second = halt(u);
  u.t += 600;
  u.park(1800, 600);
  const t = await collect(trips(u.reports));
  assert.equal(t.length, 2);
  assert.equal(t[0]?.end, first);
  assert.deepEqual([t[1]?.end, t[1]?.inferred], [second, true]);
  assert.ok((t[1]?.start ?? 0) > first && (t[1]?.start ?? 0) < second, 'a departure dated inside the silence');
});

test('motion_state stopped, silent 25 minutes, then crawling off at 2.2 km/h within the stop radius for minutes: the stop is where it stood, not dragged along by the crawl', async () => {
  const u = new Track();
  u.drive(5, 40, 30);
  const stopped = halt(u);
  const at = { lat: u.lat, lng: u.lng };
  u.t += 25 * 60;
  // slow traffic: 1.2 km at 2.2 km/h, a report every 45 s (the first 80 m on), then driving
  u.lng += 0.08 / kmPerDegLng(u.lat);
  u.drive(1.2, 2.2, 45);
  u.drive(5, 40, 30);
  u.park(1800, 600);
  const s = (await collect(stops(u.reports))).find((x) => x.arrival === stopped);
  assert.ok(s, 'a stop from the stopped report');
  const metres = Math.hypot((s.lat - at.lat) * 111_200, (s.lng - at.lng) * kmPerDegLng(at.lat) * 1000);
  assert.ok(metres <= 50, `placed ${Math.round(metres)} m from where it stood`);
  assert.equal(s.departure, stopped + 25 * 60, 'it left with its first fix after the silence, crawling');
});

test('motion_state stopped, silent 30 minutes, a creeping fix 62 m on, stopped again 114 m from the first: two stops and a short move between; stopped again within the radius: one stop', async () => {
  // a shuffle to the next loading bay: both within the stop radius of the centre the creeping fix drags between them
  const shuffle = (metres: number): { u: Track; first: number; creep: number; second: number } => {
    const u = new Track();
    u.drive(5, 40, 30);
    const first = halt(u);
    away(u, 1833, 0.062);
    const creep = u.emit({ speed: 4.6 }).properties.date;
    away(u, 40, (metres - 62) / 1000);
    const second = halt(u);
    away(u, 2994, 0.785);
    u.drive(7, 64.2, 45);
    u.park(1800, 600);
    return { u, first, creep, second };
  };
  const bay = shuffle(114);
  const s = await collect(stops(bay.u.reports));
  assert.deepEqual(s.slice(0, 2).map((x) => [x.arrival, x.departure]), [[bay.first, bay.creep], [bay.second, s[1]?.departure]]);
  assert.ok((s[1]?.departure ?? 0) > bay.second + 2900, 'the second stop stands until the way on at 64.2 km/h begins');
  assert.equal((await collect(trips(bay.u.reports))).length, 2, 'the shuffle is a short move, no trip');
  // the tracker's second 'stopped' within the radius of its first: the unit did not go anywhere, one stop
  const still = shuffle(60);
  assert.deepEqual((await collect(stops(still.u.reports))).slice(0, 1).map((x) => x.arrival), [still.first]);
  assert.equal((await collect(stops(still.u.reports))).length, 2, 'one stop at the bay, one where it parked');
});

test('motion_state stopped, then moving, a 150 m crawl to the next bay and stopped there: two stops, not one stop and a 0 km trip out of a parked fix\'s noise', async () => {
  const u = new Track();
  u.drive(4, 40, 4);
  const atA = halt(u);
  u.t += 500;
  const leftA = u.t;
  u.emit({ reportType: 'motion_state', reportValue: 'moving', speed: 0 });
  u.t += 4;
  u.drive(0.15, 3, 4);
  const atB = halt(u);
  u.t += 742;
  u.emit();
  const b = { lat: u.lat, lng: u.lng };
  // silent 22 minutes, then a parked fix 46 m off reading 28.3 km/h (the odometer still), then 'moving' at the bay
  u.t += 1313;
  u.lng += 0.046 / kmPerDegLng(u.lat);
  u.emit({ speed: 28.3 });
  Object.assign(u, b);
  u.t += 322;
  const leftB = setOff(u, 8);
  u.park(1800, 600);
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.slice(0, 2).map((x) => [x.arrival, x.departure]), [[atA, leftA], [atB, leftB]]);
  const t = await collect(trips(u.reports));
  assert.ok(t.every((x) => x.distanceKm > 0.1), `no trip of nothing: ${JSON.stringify(t.map((x) => x.distanceKm))}`);
  assert.equal(t.length, 2, 'the drive to the first bay and the drive off from the second');
});

test('motion_state stopped, silent 25 minutes, then 1.5 km on creeping at 2.8 km/h (at which the way would take all of it): the tracker said it stood, a stop until the way at the speed it came at', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  setOff(u, 10, 42.4, 45);
  const stopped = halt(u);
  away(u, 1476, 1.467);
  u.drive(1, 2.8, 45, { reportSpeed: 2.8 }).park(1800, 600);
  // the 1.467 km at the 42.4 km/h it came at take 125 s of the 1476: it stood the other 1351 s
  const left = stopped + 1351;
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1, 2), [[stopped, left]]);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end]).slice(1), [[left, u.t - 1800]]);
});

test("its stopped report, then silent 35 minutes, at rest 973 m on: the trip ends at the stopped report (no roll on after the tracker said it stopped), the way on a move in the silence", async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  const start = u.t;
  u.drive(8, 68, 60);
  const stopped = halt(u);
  away(u, 2079, 0.973);
  const there = u.t;
  u.park(3600, 600);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end]), [[start, stopped], [stopped, there]]);
  assert.equal(t[0]?.distanceKm, 8);
  assert.equal(t[1]?.distanceKm, 0.973);
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]), [[T0, start], [there, null]]);
});
