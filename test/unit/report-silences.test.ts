// Silences and the tracker's own word: a motion_state 'moving' or 'stopped' report on either
// side of a silence says where the unit stood. Hand-built units whose answers are known by
// construction (the fixture knows where it drove, stood and fell silent).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stops } from '../../src/reports/stops.js';
import { summary } from '../../src/reports/summary.js';
import { trips } from '../../src/reports/trips.js';
import { collect, halt, kmPerDegLng, near, setOff, T0, Track } from './report-fixture.js';

test('a sleeping logger whose stop has no report: the next motion_state moving says it stood there from when the way from its last report ended', async () => {
  const u = new Track().park(1800, 600);
  setOff(u, 10);
  const arrival = u.t;
  u.emit({ speed: 40 }); // asleep from the moment it parks: its last report reads a driving speed
  u.lng += 0.3 / kmPerDegLng(u.lat); // and it rolls on 300 m to where it parks
  u.odometer = (u.odometer ?? 0) + 0.3;
  u.gap(25 * 60); // no parked report before it sets off again
  const departure = setOff(u, 5);
  u.park(1800, 600);
  const parked = arrival + 27; // the 300 m at the 40 km/h it read
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.end === parked, x.start === departure, x.partial]).slice(0, 2), [[true, false, false], [false, true, false]]);
  assert.equal(t.length, 2, 'two trips, not one through the silence');
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1), [[parked, departure], [u.t - 1800, null]]);
  near(s[1]?.lng ?? 0, u.reports.find((r) => r.properties.date === departure)?.properties.lng ?? 0, 1e-6, 'placed where it set off');
});

test('motion_state stopped, then an outage over the next trip, then moving: it stood at both places, the way at the speed it came at between, the stands share the rest', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  const first = setOff(u, 10); // at 40 km/h
  const stopped = halt(u);
  // silent for 40 minutes, in which it drives 13 km by road (12 km east as the crow flies) and stands
  u.t += 40 * 60;
  u.lng += 12 / kmPerDegLng(u.lat);
  u.odometer = (u.odometer ?? 0) + 13;
  const moving = setOff(u, 6);
  u.park(1800, 600);
  // 13 km at 40 km/h take 1170 s of the 2400: each place had about 615 s of the rest
  const left = stopped + 615;
  const arrived = moving - 615;
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end, x.partial]), [[first, stopped, false], [left, arrived, false], [moving, u.t - 1800, false]]);
  near(t[0]?.distanceKm ?? 0, 10 + 1 / 3, 0.002, 'the first trip up to the stopped report');
  near(t[1]?.distanceKm ?? 0, 13, 0.002, 'the odometer over the silence');
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]), [[T0, first], [stopped, left], [arrived, moving], [u.t - 1800, null]], 'a stop on each side of the way');
  const [day] = await collect(summary(u.reports, 'UTC'));
  near(day?.distanceKm ?? 0, 10 + 13 + 6 + 2 / 3, 0.005, 'every kilometre of the day');
  assert.equal(day?.trips, 3);
});

test('motion_state stopped and one parked report, then silent and elsewhere: a stop from the stopped report to the last report there', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  setOff(u, 10);
  const stopped = halt(u);
  u.t += 100;
  const lastThere = u.t;
  u.emit(); // parked, 100 s after: shorter than --min-stop, but the tracker said stopped and then fell silent
  u.t += 45 * 60;
  u.lng += 9 / kmPerDegLng(u.lat);
  u.odometer = (u.odometer ?? 0) + 9.5;
  u.park(1800, 600);
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1), [[stopped, lastThere], [lastThere + 45 * 60, null]]);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.end, x.partial]), [[stopped, false], [lastThere + 45 * 60, false]]);
  near(t[1]?.distanceKm ?? 0, 9.5, 0.002, 'the odometer over the silence');
});

test('an outage ends a trip elsewhere; one parked report, then motion_state moving: a stop from that report', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  const first = setOff(u, 10);
  const lastSeen = u.t - 30;
  // silent for 20 minutes, in which it drives 8 km by road (5 km as the crow flies) and stops
  u.t += 20 * 60;
  u.lng += 5 / kmPerDegLng(u.lat);
  u.odometer = (u.odometer ?? 0) + 8;
  const parked = u.t;
  u.emit();
  u.t += 90;
  const moving = setOff(u, 6);
  u.park(1800, 600);
  assert.ok(moving - parked < 300, 'seen there for less than --min-stop');
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]), [[T0, first], [parked, moving], [u.t - 1800, null]]);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end]), [[first, parked], [moving, u.t - 1800]]);
  near(t[0]?.distanceKm ?? 0, 10 + 1 / 3 + 8, 0.002, 'the drive, then the odometer over the silence');
  assert.ok(lastSeen < parked);
});

test('a jump along the road that only the odometer contradicts (sparse reports) is left out of the distance', async () => {
  const u = new Track({ odometer: 3000 }).park(1800, 600);
  u.drive(12, 48, 300); // a report every 5 minutes, 4 km apart
  u.park(1800, 600);
  // the second fix of the drive says 2 km from the start, the odometer 4: back along the road
  const drive = u.reports.filter((r) => r.properties.speed === 48);
  const x = drive[1]?.properties;
  assert.ok(x);
  x.lng -= 2 / kmPerDegLng(x.lat);
  const t = await collect(trips(u.reports));
  assert.equal(t.length, 1);
  near(t[0]?.distanceKm ?? 0, 12, 0.002, 'the odometer, not 2 + 6 + 4 km');
});

test('a silence over --max-gap after which the unit stands elsewhere: an inferred trip across it, counted in the summary', async () => {
  const u = new Track({ odometer: 1000 }).park(3600, 600);
  const lastThere = u.t - 600;
  u.t += 2 * 3600;
  u.lng += 10 / kmPerDegLng(u.lat);
  u.odometer = 1010.5;
  const first = u.t;
  u.park(3600, 600);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end, x.distanceKm, x.partial, x.inferred]), [[lastThere, first, 10.5, false, true]]);
  const [day] = await collect(summary(u.reports, 'UTC'));
  assert.deepEqual([day?.distanceKm, day?.odometerKm, day?.trips, day?.drivingTime], [10.5, 10.5, 1, 0]);
});

test('motion_state moving after a silence over --max-gap: an inferred trip across the silence, then the trip it dates', async () => {
  const u = new Track({ odometer: 1000 }).park(3600, 600);
  const lastThere = u.t - 600;
  u.t += 3 * 3600;
  u.lng += 20 / kmPerDegLng(u.lat);
  u.odometer = 1021;
  const moving = setOff(u, 8);
  u.park(1800, 600);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end, x.partial, x.inferred]), [[lastThere, moving, false, true], [moving, u.t - 1800, false, false]]);
  // without the tracker's word, the first fix after the silence drives: it stood until it set off in the silence, as long
  // before that fix as the way takes at its speed (the odometer's 21 1/3 km at 40 km/h: 1920 s)
  const bare = u.reports.filter((r) => r.properties.reportType !== 'motion_state');
  const left = moving + 30 - 1920;
  const b = await collect(trips(bare));
  assert.deepEqual(b.map((x) => [x.start, x.partial, x.inferred]), [[left, false, true]]);
  near(b[0]?.distanceKm ?? 0, 21 + 1 / 3 + 8, 0.01, 'the odometer across the silence and the drive');
  const s = await collect(stops(bare));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]), [[T0, left], [u.t - 1800, null]]);
});

test('driving before a silence, at rest after it where a road leads (the odometer a little over the straight line), then motion_state moving: it drove there and stood, a stop from when the way at its last report\'s speed ends', async () => {
  const u = new Track().park(1800, 600);
  setOff(u, 10);
  const before = u.t;
  u.emit({ speed: 27 }); // driving, then silent for 52 minutes
  // 2.54 km on to where it parks, by a road the odometer makes 2.65 km (4 % over the straight line: more than 100 m)
  u.lat += 2.54 / 111.32;
  u.odometer = (u.odometer ?? 0) + 2.65;
  u.gap(52 * 60);
  u.emit({ speed: 0 }); // its first report after the silence, at rest where it parked
  u.t += 107;
  const departure = setOff(u, 5); // 107 s later its tracker says it sets off
  u.park(1800, 600);
  const s = await collect(stops(u.reports));
  const stop = s.find((x) => x.departure === departure);
  assert.ok(stop, `a stop until it set off: ${JSON.stringify(s)}`);
  assert.equal(stop.arrival, before + 353, 'from when the way at the 27 km/h of the last report before the silence ends (2.65 km by the odometer: 353 s)');
  assert.ok(stop.duration >= 300, `at least --min-stop: ${stop.duration} s`);
  near(stop.lat, u.reports.find((r) => r.properties.date === departure)?.properties.lat ?? 0, 1e-6, 'where it stood, not where it was driving');
});

test('motion_state stopped, then silent 45 minutes and 28 km away at rest, the odometer the straight line: a stop at the stopped report, the trip in the silence', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  setOff(u, 10);
  const stopped = halt(u);
  u.t += 45 * 60;
  u.lng += 28 / kmPerDegLng(u.lat);
  u.odometer = (u.odometer ?? 0) + 28;
  const there = u.t;
  u.park(1800, 600);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end]).slice(1), [[stopped, there]], 'the drive ends at the stopped report; a trip in the silence');
  near(t[0]?.distanceKm ?? 0, 10 + 1 / 3, 0.002, 'the drive to the stopped report, not the way on');
  near(t[1]?.distanceKm ?? 0, 28, 0.002, 'the odometer over the silence');
});

test('driving, silent 35 minutes and at rest 600 m on, silent 95 minutes and 20 km away: a stop from when the way at the last drive report\'s speed ends, then a trip in the second silence, inferred', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  setOff(u, 10);
  const lastDriving = u.t - 30;
  u.t += 35 * 60;
  u.lng += 0.6 / kmPerDegLng(u.lat);
  u.odometer = (u.odometer ?? 0) + 0.6;
  const rest = u.t;
  u.emit(); // at rest, the one report of the stop
  u.t += 95 * 60;
  u.lng += 15 / kmPerDegLng(u.lat);
  u.odometer = (u.odometer ?? 0) + 20;
  const there = u.t;
  u.park(1800, 600);
  const s = await collect(stops(u.reports));
  // the 930 m from the last drive report (the odometer's) at the 40 km/h it read: 84 s
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1), [[lastDriving + 84, rest], [there, null]]);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end, x.inferred]).slice(1), [[rest, there, true]]);
  near(t[1]?.distanceKm ?? 0, 20, 0.002, 'the odometer over the second silence');
});

test('motion_state stopped, silent 20 minutes, then motion_state stopped 8 km on: it stood until the way at the speed it came at ends at the second, then drove', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  setOff(u, 10); // at 40 km/h
  const stopped = halt(u);
  u.t += 20 * 60;
  u.lng += 8 / kmPerDegLng(u.lat);
  u.odometer = (u.odometer ?? 0) + 8;
  const there = halt(u);
  u.t += 600;
  u.park(1800, 600);
  const left = there - 12 * 60; // 8 km at 40 km/h
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(1), [[stopped, left], [there, null]], 'a stop of 8 minutes at the first');
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end]).slice(1), [[left, there]]);
  near(t[1]?.distanceKm ?? 0, 8, 0.002, 'the odometer over the silence');
  // 16 km on: the way takes the whole silence at 40 km/h, no stand in it to tell
  const far = new Track({ odometer: 2000 }).park(1800, 600);
  setOff(far, 10);
  const stopped2 = halt(far);
  far.t += 20 * 60;
  far.lng += 16 / kmPerDegLng(far.lat);
  far.odometer = (far.odometer ?? 0) + 16;
  const there2 = halt(far);
  far.park(1800, 600);
  assert.deepEqual((await collect(trips(far.reports))).map((x) => [x.start, x.end]).slice(1), [[stopped2, there2]]);
  assert.equal((await collect(stops(far.reports))).length, 2, 'parked before and after only');
});

test('crawling in slow traffic (6.5 km/h, a report every 5 minutes), silent 352 s and 730 m on at 55 km/h: it drove the way, no stand in the silence, one trip', async () => {
  const u = new Track({ odometer: 2000 }).park(1800, 600);
  const start = setOff(u, 2);
  u.drive(2.7, 6.5, 300); // its last report 540 m short of where the drive ends
  u.t += 52;
  u.lng += 0.19 / kmPerDegLng(u.lat);
  u.odometer = (u.odometer ?? 0) + 0.19; // 730 m from its last report in 352 s: at 6.5 km/h the way takes 404 s
  u.drive(5, 55, 300);
  const end = u.t;
  u.park(1800, 600);
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end]), [[start, end]], 'one trip: the roll at 55 km/h would have left a stand, the way at the speed it crawled leaves none');
  assert.equal((await collect(stops(u.reports))).length, 2, 'parked before and after only');
});

test('driving, silent 50 minutes and 8 km on, then crawling at 3.4 km/h: no report shows it at rest, one trip across the silence; a parked fix reading 0.4 km/h there is a stop', async () => {
  const build = (after: (u: Track) => void): { u: Track; start: number; lastDriving: number; there: number } => {
    const u = new Track({ odometer: 2000 }).park(1800, 600);
    const start = setOff(u, 10);
    const lastDriving = u.t - 30;
    u.t += 50 * 60;
    u.lng += 8 / kmPerDegLng(u.lat);
    u.odometer = (u.odometer ?? 0) + 8.05; // the road about the straight line: it may have stood anywhere on the way
    const there = u.t;
    after(u);
    return { u, start, lastDriving, there };
  };
  // crawling from its first fix on, as far on at each report as 3.4 km/h goes, then on at 30 km/h
  const crawl = build((u) => {
    u.drive(1.5, 3.4, 45);
    u.drive(3, 30, 45);
  });
  const end = crawl.u.t;
  crawl.u.park(1800, 600);
  const t = await collect(trips(crawl.u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end]), [[crawl.start, end]], 'one trip through the silence');
  near(t[0]?.distanceKm ?? 0, 1 / 3 + 10 + 8.05 + 1.5 + 3, 0.01, 'the odometer over the silence, and the crawl');
  assert.equal((await collect(stops(crawl.u.reports))).length, 2, 'parked before and after only');
  // parked there, its fix reading the noise of 0.4 km/h: it stood from when the way from its last report before the
  // silence ended (the 8.38 km of the odometer at the 40 km/h it read: 754 s)
  const parked = build((u) => u.park(1800, 600, { spikes: [0.4, 0] }));
  assert.deepEqual((await collect(stops(parked.u.reports))).map((x) => [x.arrival, x.departure]).slice(1), [[parked.lastDriving + 754, null]]);
  // the same fix, then silent 95 minutes and 20 km away: a stop from when the way from its last drive report ended to that fix
  const left = build((u) => {
    u.emit({ speed: 0.4 });
    u.t += 95 * 60;
    u.lng += 15 / kmPerDegLng(u.lat);
    u.odometer = (u.odometer ?? 0) + 20;
    u.park(1800, 600);
  });
  assert.deepEqual((await collect(stops(left.u.reports))).map((x) => [x.arrival, x.departure]).slice(1, 2), [[left.lastDriving + 754, left.there]]);
});
