// Jumps the outlier rule must tell from the fixes around them when only the odometer contradicts
// the way: which of two neighbours jumped, and a jump at the stream's first fix. Hand-built units
// whose answers are known by construction (the fixture knows where it drove, stood and fell silent).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Explanation } from '../../src/reports/segments.js';
import { DEFAULTS } from '../../src/reports/params.js';
import { stops } from '../../src/reports/stops.js';
import { summary } from '../../src/reports/summary.js';
import { trips } from '../../src/reports/trips.js';
import { collect, kmPerDegLng, near, setOff, T0, Track } from './report-fixture.js';

test('a jump right after a good fix, that the odometer from the fix before happens to agree with: the jump is left out, not the good fix before it', async () => {
  const u = new Track({ odometer: 3000 }).park(1800, 600);
  const first = u.t;
  u.drive(6, 60, 120);
  const lastDriving = u.t;
  u.emit({ speed: 60 }); // 6 km east, still driving; then 2 km more in the silence, and it stands there 30 minutes
  u.t += 120 + 1800;
  u.lng += 2 / kmPerDegLng(u.lat);
  u.odometer = (u.odometer ?? 0) + 2;
  const moving = u.t;
  u.emit({ reportType: 'motion_state', reportValue: 'moving', speed: 0 }); // it sets off from there
  // 5 minutes on, 5 km further east by road: the fix says 7 km north of the last driving report instead, as far from
  // it as the odometer counts (7 km), but 7.3 km from the moving report, where the odometer counts 5
  u.t += 300;
  u.odometer = (u.odometer ?? 0) + 5;
  const jumpLat = u.lat + 7 / 111.2;
  const jumpLng = u.lng - 2 / kmPerDegLng(u.lat);
  u.emit({ lat: jumpLat, lng: jumpLng, speed: 60 });
  u.lng += 5 / kmPerDegLng(u.lat);
  // silent while it drives 2 km more and parks
  u.t += 1800;
  u.lng += 2 / kmPerDegLng(u.lat);
  u.odometer = (u.odometer ?? 0) + 2;
  const parked = u.t;
  u.park(1800, 600);
  const told: Explanation[] = [];
  const t = await collect(trips(u.reports, DEFAULTS, { explain: (e) => told.push(e) }));
  assert.deepEqual(told.filter((e) => e.kind === 'outlier').map((e) => e.from), [moving + 300], 'the jump alone left out');
  // the 2 km at the 60 km/h it read take 120 s: it arrived then
  assert.deepEqual(t.map((x) => [x.start, x.end, x.partial]), [[first, lastDriving + 120, false], [moving, parked, false]], 'two trips, the stop between them seen');
  near(t[0]?.distanceKm ?? 0, 8, 0.002, 'the drive, then the odometer to where it stood');
  near(t[1]?.distanceKm ?? 0, 7, 0.002, 'the odometer from the moving report, the jump left out');
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]), [[T0, first], [lastDriving + 120, moving], [parked, null]]);
});

test('a jump after midnight right after a good fix: the good fix dates the drive before midnight', async () => {
  // the last drive of a day: the tracker's moving report (speed 0), one report driving, then silent until morning
  const u = new Track({ odometer: 3000, t: T0 + 16 * 3600 }).park(1800, 600);
  u.emit({ reportType: 'motion_state', reportValue: 'moving', speed: 0 });
  u.t += 180;
  u.lng += 3 / kmPerDegLng(u.lat);
  u.odometer = (u.odometer ?? 0) + 3;
  u.emit({ speed: 60 });
  // 6 km more in 6 minutes, and it parks: well before midnight
  u.lng += 6 / kmPerDegLng(u.lat);
  u.odometer = (u.odometer ?? 0) + 6;
  const midnight = T0 + 18 * 3600;
  u.t = midnight + 2 * 3600;
  // a check-in 9 km north of the moving report, as far as the odometer counts from it (9 km): a jump only the fix after tells
  u.emit({ lat: u.lat + 9 / 111.2, lng: u.lng - 9 / kmPerDegLng(u.lat), reportType: 'check_in', reportValue: 'checked_in' });
  u.t += 1200;
  u.park(3600, 600);
  const days = await collect(summary(u.reports, 'UTC'));
  assert.deepEqual(days.map((d) => d.day), ['2026-06-01', '2026-06-02']);
  near(days[0]?.distanceKm ?? 0, 9, 0.005, 'every kilometre before midnight');
  near(days[1]?.distanceKm ?? 0, 0, 0.005, 'none after');
});

test('the first fix a jump the odometer contradicts: left out, no trip from it, the first trip from the tracker\'s moving report', async () => {
  const u = new Track({ odometer: 5000 });
  u.emit({ lat: u.lat - 6.9 / 111.2 }); // 6.9 km south, the odometer unchanged
  u.t += 150;
  const moving = setOff(u, 10);
  u.park(1800, 600);
  const told: Explanation[] = [];
  const t = await collect(trips(u.reports, DEFAULTS, { explain: (e) => told.push(e) }));
  assert.deepEqual(t.map((x) => [x.start, x.end, x.partial]), [[moving, u.t - 1800, false]]);
  near(t[0]?.distanceKm ?? 0, 10 + 1 / 3, 0.002, 'not the 6.9 km from the jump');
  assert.match(told.find((e) => e.kind === 'outlier')?.reason ?? '', /^the first fix, 6\.9 km from the fix after, where the odometer counts 0\.0 km: left out$/);
  // without odometers nothing tells the jump: the first fix stays
  const bare = u.reports.map((r) => ({ ...r, properties: { ...r.properties, odometer: null } }));
  near((await collect(trips(bare)))[0]?.distanceKm ?? 0, 10 + 1 / 3 + 6.9, 0.05, 'the way from the first fix');
  // the first fix good and the second the jump: the first stays, the second is left out
  const v = new Track({ odometer: 5000 }).park(1800, 600);
  const second = v.reports[1]?.properties;
  assert.ok(second);
  second.lat -= 6.9 / 111.2;
  const s = await collect(stops(v.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]), [[T0, null]]);
});

test('after a silence, a fix at rest 4 km from where the unit stood, then its moving report there, the odometer still between the two: the odometer goes by the moving report, the fix at rest is the jump', async () => {
  const u = new Track({ odometer: 3000 }).park(1800, 600);
  const first = u.t;
  u.drive(10, 100, 60);
  const lastDriving = u.t;
  u.emit({ speed: 100 }); // then 9 km east in the silence (324 s at 100 km/h), and it stands there
  const l = { lat: u.lat, lng: u.lng };
  const at = (east: number, north: number): { lat: number; lng: number } => ({ lat: l.lat + north / 111.2, lng: l.lng + east / kmPerDegLng(l.lat) });
  u.odometer = (u.odometer ?? 0) + 9;
  // 2000 s on, a fix at rest 6.8 km from the last driving report (a road's length short of the odometer's 9 km), 4.4 km from where it stands
  u.t += 2000;
  const jump = u.t;
  u.emit({ ...at(6, 3.2), speed: 0 });
  u.t += 600;
  const moving = u.t;
  Object.assign(u, at(9, 0));
  u.emit({ reportType: 'motion_state', reportValue: 'moving', speed: 0 });
  // 9.5 km north-west by road, as straight as the odometer counts it (5.5 km from the fix at rest): it drives there and parks
  Object.assign(u, at(9 - 9.5 * Math.cos(Math.PI / 6), 9.5 * Math.sin(Math.PI / 6)));
  u.odometer = (u.odometer ?? 0) + 9.5;
  u.t += 570;
  const there = u.t;
  u.emit({ speed: 60 });
  u.t += 60;
  u.park(1800, 600);
  const told: Explanation[] = [];
  const t = await collect(trips(u.reports, DEFAULTS, { explain: (e) => told.push(e) }));
  assert.deepEqual(told.filter((e) => e.kind === 'outlier').map((e) => e.from), [jump], 'the fix at rest alone left out');
  assert.match(told.find((e) => e.kind === 'outlier')?.reason ?? '', /^4\.4 km from the fix after, where the odometer counts 0\.0 km .*; the odometer's count from the fix before to the next but one goes by the fix after, not by this one: left out$/);
  assert.deepEqual(t.map((x) => [x.start, x.end]), [[first, lastDriving + 324], [moving, there]], 'two trips, the stop between them where the moving report is');
  near(t[0]?.distanceKm ?? 0, 19, 0.002, 'the drive, then the odometer to where it stood');
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]).slice(0, 2), [[T0, first], [lastDriving + 324, moving]]);
});

test('two fixes whose ways fit the odometer alike (a jump after the tracker\'s stopped report, a silence between): the odometer decides nothing, the stopped report is kept and the jump left out', async () => {
  // a delivery van's reports as the sandbox made them (seed 7): moving, driving, stopped; silent 9 minutes; a fix 6.5 km
  // off where the odometer counts 1.8 km; stopped at the next place. Through the jump or through the stopped report, the
  // way from the driving report to the last one is within 100 m of the odometer's 7.3 km.
  const u = new Track({ lat: 47.606986, lng: -122.327903, odometer: 659.852 }).park(1800, 600);
  const t0 = u.t;
  const at = (dt: number, lat: number, lng: number, odometer: number, speed: number, reportValue?: string): number => {
    u.t = t0 + dt;
    Object.assign(u, { lat, lng });
    u.odometer = odometer;
    u.emit({ speed, ...(reportValue ? { reportType: 'motion_state', reportValue } : {}) });
    return u.t;
  };
  at(0, 47.606986, -122.327903, 659.852, 0, 'moving');
  at(300, 47.580162, -122.32445, 662.999, 32.6);
  const stopped = at(610, 47.558274, -122.334254, 665.693, 0, 'stopped');
  const jump = at(1175, 47.601103, -122.269622, 667.448, 24.5);
  const there = at(1458, 47.581071, -122.284001, 670.323, 0, 'stopped');
  u.t += 600;
  u.park(1800, 600);
  const told: Explanation[] = [];
  const t = await collect(trips(u.reports, DEFAULTS, { explain: (e) => told.push(e) }));
  assert.deepEqual(told.filter((e) => e.kind === 'outlier').map((e) => e.from), [jump], 'the jump alone left out');
  assert.deepEqual(t.map((x) => x.end), [stopped, there], 'the trip ends at the stopped report, the next at the second');
});
