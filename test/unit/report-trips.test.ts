import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReportFeature, ReportPoint } from '../../src/api/types.js';
import { roundDegrees } from '../../src/reports/geo.js';
import { DEFAULTS, type ReportParams } from '../../src/reports/params.js';
import { stopProcessor, stops } from '../../src/reports/stops.js';
import { trips } from '../../src/reports/trips.js';
import { byUnit, run } from '../../src/reports/stream.js';
import { tripProcessor } from '../../src/reports/trips.js';
import { collect, kmPerDegLng, near, report, T0, Track } from './report-fixture.js';

const P = (over: Partial<ReportParams> = {}): ReportParams => ({ ...DEFAULTS, ...over });

test('a drive between two parkings is one trip from the first moving report to the arrival', async () => {
  const u = new Track().park(3600, 900);
  const departure = u.t;
  u.drive(10, 40, 30);
  const arrival = u.t;
  u.park(3600, 900);
  const got = await collect(trips(u.reports));
  assert.equal(got.length, 1);
  const [trip] = got;
  assert.ok(trip);
  assert.deepEqual(Object.keys(trip).slice(0, 14), [
    'did', 'name', 'start', 'end', 'duration', 'distanceKm', 'maxSpeed', 'avgSpeed',
    'startLat', 'startLng', 'startAddress', 'endLat', 'endLng', 'endAddress',
  ]);
  assert.equal(trip.start, departure);
  assert.equal(trip.end, arrival);
  assert.equal(trip.duration, 900);
  assert.equal(trip.drivingTime, 900);
  near(trip.distanceKm, 10, 0.001, 'odometer distance');
  assert.equal(trip.maxSpeed, 40);
  // the last segment goes from 40 to 0: the mean of reported speeds is a little under 40
  near(trip.avgSpeed ?? 0, 40, 1, 'average speed');
  assert.equal(trip.did, 7);
  assert.equal(trip.name, 'Van 7');
  assert.equal(trip.startAddress, u.reports.find((r) => r.properties.date === departure)?.properties.address);
  assert.ok(trip.endLng > trip.startLng);
});

test('without an odometer the distance is the sum of great-circle distances', async () => {
  const u = new Track({ odometer: null }).park(1800, 600).drive(12, 50, 30).park(1800, 600);
  const [trip] = await collect(trips(u.reports));
  assert.ok(trip);
  // the fixture moves along a parallel by flat-earth steps; the great circle is within 0.5 % of that
  near(trip.distanceKm, u.drivenKm, u.drivenKm * 0.005, 'great-circle distance');
});

test('a tracker that reads no speed: its trip\'s maximum and average speed are not known (null), not 0', async () => {
  const u = new Track().park(1800, 600).drive(10, 40, 30, { reportSpeed: 0 }).park(1800, 600);
  const [trip, ...rest] = await collect(trips(u.reports));
  assert.equal(rest.length, 0);
  near(trip?.distanceKm ?? 0, 10, 0.001, 'the way');
  assert.deepEqual([trip?.maxSpeed, trip?.avgSpeed], [null, null]);
  // one report of it with a speed: both known again
  u.reports[8]!.properties.speed = 38;
  const [known] = await collect(trips(u.reports));
  assert.equal(known?.maxSpeed, 38);
  assert.ok((known?.avgSpeed ?? 0) > 0);
});

test('an odometer that counts whole kilometres: a drive read every second counts its steps, one read every 10 s its legs, never both', async () => {
  const wholeKm = (u: Track): void => {
    for (const r of u.reports) r.properties.odometer = Math.floor(r.properties.odometer as number);
  };
  // every second at 50 km/h: each leg (14 m) reads 0 km, each step (1 km) comes in a second
  const often = new Track().park(1800, 600).drive(50, 50, 1).park(1800, 600);
  wholeKm(often);
  const [a] = await collect(trips(often.reports));
  assert.ok(a);
  near(a.distanceKm, often.drivenKm, 1, 'the steps counted, to the kilometre the odometer rounds to');
  // every 10 s at 100 km/h: the legs (278 m) are longer than the odometer's rounding and count their straight lines; its steps add nothing to them
  const seldom = new Track().park(1800, 600).drive(50, 100, 10).park(1800, 600);
  wholeKm(seldom);
  const told: string[] = [];
  const [b] = await collect(trips(seldom.reports, DEFAULTS, { explain: (e) => told.push(`${e.kind}: ${e.reason}`) }));
  assert.ok(b);
  near(b.distanceKm, seldom.drivenKm, seldom.drivenKm * 0.005, 'the legs counted once');
  // a leg of 278 m where the odometer reads the same is within its kilometre: no fix is a jump the odometer shows
  assert.deepEqual(told.filter((x) => x.startsWith('outlier')), []);
});

test('GPS jitter while parked, speed spikes included, makes no trip', async () => {
  // 12 hours parked, a fix every 10 min wandering 40 m, and speed noise above the threshold on
  // consecutive reports (so the movement run lasts longer than the minimum trip duration)
  const u = new Track().park(12 * 3600, 600, { jitterM: 40, spikes: [0, 12, 9, 0, 0, 7, 0, 15, 11, 8, 0] });
  assert.equal((await collect(trips(u.reports))).length, 0);
  const s = await collect(stops(u.reports));
  assert.equal(s.length, 1, 'one stop, the whole span');
  assert.equal(s[0]?.open, true);
  assert.equal(s[0]?.departure, null);
  assert.equal(s[0]?.duration, 12 * 3600 - 600);
});

test('a jump far away and back with a speed spike makes no trip', async () => {
  const u = new Track().park(3600, 600);
  const lat = u.lat;
  u.lat += 0.01; // ~1.1 km off, once
  u.emit({ speed: 30 });
  u.lat = lat;
  u.t += 60;
  u.park(3600, 600);
  assert.equal((await collect(trips(u.reports))).length, 0, 'lasted 60 s: under the minimum duration');
});

test('a short halt at a light does not make a stop; a long one does', async () => {
  const light = new Track().park(1800, 600).drive(3, 36, 30).halt(90, 30).drive(3, 36, 30).park(1800, 600);
  const t1 = await collect(trips(light.reports));
  assert.equal(t1.length, 1, 'one trip through the light');
  near(t1[0]?.distanceKm ?? 0, 6, 0.001, 'both legs');
  assert.equal((t1[0]?.duration ?? 0) - (t1[0]?.drivingTime ?? 0), 60, 'the halt between its first and last report is not driving');
  const avg = t1[0]?.avgSpeed ?? 0;
  assert.ok(avg > 25 && avg < 36, `the halt at the light counts in the average speed: ${avg}`);
  const s1 = await collect(stops(light.reports));
  assert.equal(s1.length, 2, 'parked before and after only');

  const errand = new Track().park(1800, 600).drive(3, 36, 30);
  const arrived = errand.t;
  errand.halt(600, 30);
  const left = errand.t;
  errand.drive(3, 36, 30).park(1800, 600);
  const t2 = await collect(trips(errand.reports));
  assert.equal(t2.length, 2);
  assert.equal(t2[0]?.end, arrived);
  assert.equal(t2[1]?.start, left);
  const s2 = await collect(stops(errand.reports));
  assert.equal(s2.length, 3);
  assert.deepEqual([s2[1]?.arrival, s2[1]?.departure, s2[1]?.duration], [arrived, left, 600]);
});

test('moving before and after a silence longer than maxGap, as far on as its speed goes: the trip goes on across it, inferred', async () => {
  const u = new Track().park(1800, 600).drive(5, 30, 60);
  // silent for 2 hours, in which it drives on 60 km at its speed
  u.gap(2 * 3600);
  u.lng += 60 / kmPerDegLng(u.lat);
  u.odometer = (u.odometer as number) + 60;
  u.drive(5, 30, 60).park(1800, 600);
  const got = await collect(trips(u.reports));
  assert.deepEqual(got.map((x) => [x.start, x.end, x.partial, x.inferred]), [[T0 + 1800, u.t - 1800, false, true]]);
  near(got[0]?.distanceKm ?? 0, 70, 0.001, 'both drives and the way between');
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure === null, x.partial]), [[T0, false, true], [u.t - 1800, true, true]]);
  // with a longer maxGap, the same trip, not inferred
  const one = await collect(trips(u.reports, P({ maxGapS: 3 * 3600 })));
  assert.deepEqual(one.map((x) => [x.start, x.inferred]), [[T0 + 1800, false]]);
});

test('driving before and after a silence, a short way on: it stood for most of the silence, a stop where the first fix after it is', async () => {
  const u = new Track().park(1800, 600).drive(5, 30, 60);
  const silent = u.t - 60; // the last report before the silence, 500 m before the end of the drive
  u.gap(2 * 3600); // it parked at the end of the drive; its first fix after the silence reads 30 km/h (parked noise)
  const back = u.t;
  u.drive(5, 30, 60).park(1800, 600);
  const got = await collect(trips(u.reports));
  // the first ends where it parked, 500 m on (60 s at the 30 km/h it read) in a silence over --max-gap that no report shows: inferred
  assert.deepEqual(got.map((x) => [x.start, x.end, x.inferred]), [[T0 + 1800, silent + 60, true], [back, u.t - 1800, false]]);
  const s = await collect(stops(u.reports));
  assert.deepEqual(s[1] && [s[1].arrival, s[1].departure], [silent + 60, back], 'a stop through the silence');
});

test('a move is a trip when it is long enough in distance or in time (Traccar\'s rule); shorter ones are short moves', async () => {
  const yard = new Track().park(1800, 600).drive(0.4, 10, 30).park(1800, 600); // 144 s, 400 m
  assert.equal((await collect(trips(yard.reports))).length, 0, 'under both minimums');
  assert.equal((await collect(trips(yard.reports, P({ minTripDistanceKm: 0.3 })))).length, 1, 'far enough');
  assert.equal((await collect(trips(yard.reports, P({ minTripDurationS: 100 })))).length, 1, 'long enough');
  const hop = new Track().park(1800, 600).drive(2, 60, 30).park(1800, 600); // 120 s, 2 km
  assert.equal((await collect(trips(hop.reports))).length, 1, '2 km in 2 minutes is a trip by its distance');
  // 450 m at 3 km/h: 9 minutes, of which the first 100 m (2 minutes) are within the stop radius
  const crawl = new Track().park(1800, 600).drive(0.45, 3, 30).park(1800, 600);
  const [slow] = await collect(trips(crawl.reports));
  assert.ok(slow && slow.distanceKm < 0.5 && slow.duration >= 300, `a trip by its duration: ${JSON.stringify(slow)}`);
});

test('an odometer reset or jump falls back to the great-circle distance for that segment', async () => {
  const clean = new Track({ odometer: 5000 }).park(1800, 600).drive(20, 60, 30);
  const reset = new Track({ odometer: 5000 }).park(1800, 600).drive(10, 60, 30);
  reset.odometer = 0; // the unit was replaced or its counter reset mid-trip
  reset.drive(10, 60, 30, { reportSpeed: 60 }).park(1800, 600);
  clean.park(1800, 600);
  const jump = new Track({ odometer: 5000 }).park(1800, 600).drive(10, 60, 30);
  jump.odometer = (jump.odometer ?? 0) + 4000;
  jump.drive(10, 60, 30).park(1800, 600);
  const [c] = await collect(trips(clean.reports));
  const rs = await collect(trips(reset.reports));
  const [j] = await collect(trips(jump.reports));
  near(c?.distanceKm ?? 0, 20, 0.001, 'clean odometer');
  assert.equal(rs.length, 1);
  near(rs[0]?.distanceKm ?? 0, 20, 0.05, 'across a reset');
  near(j?.distanceKm ?? 0, 20, 0.05, 'across a jump');
});

test('an odometer that stands still while the unit moves is not believed', async () => {
  const u = new Track({ odometer: 100 }).park(1800, 600);
  const stuck = u.odometer;
  u.drive(8, 40, 30);
  for (const r of u.reports) r.properties.odometer = stuck;
  u.park(1800, 600);
  const [trip] = await collect(trips(u.reports));
  near(trip?.distanceKm ?? 0, 8, 0.05, 'great-circle instead');
});

test('late reports are placed by their date', async () => {
  const u = new Track().park(1800, 600).drive(10, 40, 30).halt(600, 60).drive(10, 40, 30).park(1800, 600);
  const inOrder = await collect(trips(u.reports));
  assert.equal(inOrder.length, 2);
  // every 7th report arrives 10 minutes late (after the reports of the next 10 minutes)
  const shuffled: ReportFeature[] = [];
  const late: ReportFeature[] = [];
  for (const [i, r] of u.reports.entries()) {
    if (i % 7 === 3) late.push(r);
    else shuffled.push(r);
    while (late[0] && r.properties.date - late[0].properties.date >= 600) shuffled.push(late.shift() as ReportFeature);
  }
  shuffled.push(...late);
  assert.notDeepEqual(shuffled.map((r) => r.properties.date), u.reports.map((r) => r.properties.date));
  assert.deepEqual(await collect(trips(shuffled)), inOrder);
  // beyond the reorder window they cannot be placed: reported, and left out
  const dropped: ReportPoint[] = [];
  await collect(trips(shuffled, P({ reorderWindowS: 300 }), { onLate: (r) => dropped.push(r) }));
  assert.ok(dropped.length > 0);
});

test('motion_state moving, then a few metres across the yard and parked again: the trip starts at the moving report it drove off after', async () => {
  const u = new Track().park(1800, 600);
  u.emit({ reportType: 'motion_state', reportValue: 'moving' });
  u.t += 60;
  u.lng += 0.0008; // about 75 m, within the stop radius
  u.park(3000, 600);
  const departure = u.t;
  u.emit({ reportType: 'motion_state', reportValue: 'moving' });
  u.t += 30;
  u.drive(5, 40, 30).park(1800, 600);
  const got = await collect(trips(u.reports));
  assert.deepEqual(got.map((x) => x.start), [departure]);
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => x.departure).slice(0, 1), [departure], 'one stop, across the yard');
});

test('motion_state reports decide when present; speed decides when absent or ignored', async () => {
  // a tracker that reports speed 0 always but says when it starts and stops moving
  const u = new Track().park(1800, 600);
  const departure = u.t;
  u.emit({ reportType: 'motion_state', reportValue: 'moving' });
  u.t += 30;
  u.drive(10, 40, 30, { reportSpeed: 0 });
  const arrival = u.t;
  u.emit({ reportType: 'motion_state', reportValue: 'stopped' });
  u.t += 600;
  u.park(1800, 600);
  const got = await collect(trips(u.reports));
  assert.equal(got.length, 1);
  assert.equal(got[0]?.start, departure);
  assert.equal(got[0]?.end, arrival);
  near(got[0]?.distanceKm ?? 0, 10, 0.001, 'distance');
  // without motion_state the speeds say parked, but the positions moved 10 km: where the unit was decides
  const bySpeed = await collect(trips(u.reports, P({ useMotionState: false })));
  assert.equal(bySpeed.length, 1);
  near(bySpeed[0]?.distanceKm ?? 0, 10, 0.001, 'distance');

  // motion_state said stopped, then the unit drives 3 km at 20 km/h with no 'moving' (it fell
  // into a reporting gap): the speed says it moved, and it is a trip either way
  const v = new Track();
  v.emit({ reportType: 'motion_state', reportValue: 'stopped' });
  v.t += 60;
  v.drive(3, 20, 30).park(1800, 600);
  assert.equal((await collect(trips(v.reports))).length, 1);
  assert.equal((await collect(trips(v.reports, P({ useMotionState: false })))).length, 1);
  // parked drift below the threshold after a 'stopped' stays parked
  const w = new Track();
  w.emit({ reportType: 'motion_state', reportValue: 'stopped' });
  w.t += 60;
  w.drive(0.05, 1.2, 60).park(1800, 600);
  assert.equal((await collect(trips(w.reports))).length, 0);
});

test('byUnit keeps the units of a merged stream apart', async () => {
  const a = new Track({ did: 1 }).park(1800, 600).drive(10, 40, 30).park(1800, 600);
  const b = new Track({ did: 2, lat: 52.5 }).park(900, 300).drive(5, 30, 60).park(600, 300).drive(5, 30, 60).park(1800, 600);
  const merged = [...a.reports, ...b.reports].sort((x, y) => x.properties.date - y.properties.date);
  const got = await collect(byUnit(merged, () => tripProcessor()));
  assert.deepEqual(got.filter((t) => t.did === 1), await collect(trips(a.reports)));
  assert.deepEqual(got.filter((t) => t.did === 2), await collect(trips(b.reports)));
  assert.equal(got.length, 3);
});

test('reports without a position are skipped', async () => {
  const u = new Track().park(1800, 600).drive(10, 40, 30).park(1800, 600);
  const withHoles = u.reports.flatMap((r, i) => (i % 5 === 0 ? [r, report({ date: r.properties.date + 1, lat: 0, lng: 0, speed: 0 })] : [r]));
  const [trip] = await collect(trips(withHoles));
  assert.ok(trip);
  near(trip.distanceKm, 10, 0.001, 'distance');
  assert.equal(trip.start, T0 + 1800);
});

test('with path, a trip carries the positions of its reports from departure to arrival', async () => {
  const u = new Track().park(1800, 600);
  const departure = u.t;
  u.drive(3, 36, 30).halt(90, 30).drive(3, 36, 30);
  const arrival = u.t;
  u.park(1800, 120); // the reports at +120 and +240 s are taken into the run until the stop is certain
  const [trip] = await collect(trips(u.reports, DEFAULTS, { path: true }));
  assert.ok(trip);
  const inTrip = u.reports.filter((r) => r.properties.date >= departure && r.properties.date <= arrival);
  assert.deepEqual(trip.path, inTrip.map((r) => [r.properties.lng, r.properties.lat]));
  assert.deepEqual(trip.path[0], [trip.startLng, trip.startLat]);
  assert.deepEqual(trip.path[trip.path.length - 1], [trip.endLng, trip.endLat]);
  const [plain] = await collect(trips(u.reports));
  assert.equal('path' in (plain ?? {}), false, 'no path unless asked');
  assert.deepEqual({ ...trip, path: undefined }, { ...plain, path: undefined });
});

test('the stops at the edges of the stream: parked from the first report, open at the end', async () => {
  const u = new Track().park(1800, 600);
  const departure = u.t;
  u.drive(10, 40, 30);
  const arrival = u.t;
  u.park(3000, 600);
  const last = u.reports[u.reports.length - 1]?.properties.date ?? 0;
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure, x.duration, x.open, x.partial]), [
    [T0, departure, departure - T0, false, true],
    [arrival, null, last - arrival, true, true],
  ]);
  assert.deepEqual(Object.keys(s[0] ?? {}), ['did', 'name', 'arrival', 'departure', 'duration', 'lat', 'lng', 'address', 'open', 'partial']);
  const at = u.reports.find((r) => r.properties.date === arrival)?.properties;
  // the place where it parked, to the seventh decimal a stop's place is shown to (the fixture's positions are computed doubles)
  assert.deepEqual([s[1]?.lat, s[1]?.lng, s[1]?.address], [roundDegrees(at?.lat as number), roundDegrees(at?.lng as number), at?.address]);
});

test('a unit still driving when the stream ends: the trip ends at the last report, no stop after it', async () => {
  const u = new Track().park(1800, 600);
  const departure = u.t;
  u.drive(10, 40, 30);
  const last = u.reports[u.reports.length - 1]?.properties.date ?? 0;
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end]), [[departure, last]]);
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure, x.open]), [[T0, departure, false]]);
});

test('a stop\'s place is shown to the seventh decimal (its median is computed); a fix\'s position in an explanation as reported', async () => {
  // Two fixes a parked unit alternates between: the median is their mean, whose double has noise in its last bits.
  const lats = [33.748521, 33.748522];
  const lngs = [-84.503609, -84.503611];
  const parked = Array.from({ length: 40 }, (_, i) => report({ date: T0 + 60 * i, lat: lats[i % 2] as number, lng: lngs[i % 2] as number }));
  const noisy = ((lats[0] as number) + (lats[1] as number)) / 2;
  assert.notEqual(noisy, 33.7485215, 'the fixture does make a mean with noise');
  // A jump the outlier rule leaves out, at a position with nine decimals, then the unit parked again.
  const jump = report({ date: T0 + 60 * 40, lat: 33.912345678, lng: -84.312345678 });
  const after = Array.from({ length: 6 }, (_, i) => report({ date: T0 + 60 * (41 + i), lat: lats[i % 2] as number, lng: lngs[i % 2] as number }));
  const explained: Array<{ kind: string; lat: number | null; lng: number | null }> = [];
  const s = await collect(run([...parked, jump, ...after], stopProcessor(DEFAULTS, { explain: (e) => void explained.push(e) })));
  assert.equal(s.length, 1);
  assert.deepEqual([s[0]?.lat, s[0]?.lng], [33.7485215, -84.50361]);
  const stop = explained.find((e) => e.kind === 'stop');
  assert.deepEqual([stop?.lat, stop?.lng], [33.7485215, -84.50361], 'the stop\'s explanation shows the same place');
  const outlier = explained.find((e) => e.kind === 'outlier');
  assert.deepEqual([outlier?.lat, outlier?.lng], [33.912345678, -84.312345678], 'a fix is shown as reported');
});
