// What real trackers do to trips, stops and the summary: hand-built units whose answers are
// known by construction (the fixture knows where it drove, stood and fell silent).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReportFeature } from '../../src/api/types.js';
import type { Explanation } from '../../src/reports/segments.js';
import { DEFAULTS, type ReportParams } from '../../src/reports/params.js';
import { stops } from '../../src/reports/stops.js';
import { summary, summaryProcessor } from '../../src/reports/summary.js';
import { tripProcessor, trips } from '../../src/reports/trips.js';
import { haversineKm } from '../../src/reports/geo.js';
import { collect, kmPerDegLng, near, T0, Track } from './report-fixture.js';

const P = (over: Partial<ReportParams> = {}): ReportParams => ({ ...DEFAULTS, ...over });

test('a stop inside a reporting gap: the last report before the silence is still driving, the unit was stopped from it', async () => {
  const u = new Track().park(1800, 600).drive(10, 40, 30);
  const arrival = u.t;
  u.emit({ speed: 40 }); // the tracker's last word before it sleeps: a driving speed
  u.gap(25 * 60); // shorter than --max-gap
  const woke = u.t;
  u.park(3600, 600, { jitterM: 30 });
  const departure = u.t;
  u.drive(5, 40, 30).park(1800, 600);
  const t = await collect(trips(u.reports));
  assert.equal(t.length, 2);
  assert.equal(t[0]?.end, arrival, 'the trip ends at the last report before the silence');
  assert.equal(t[0]?.drivingTime, 900, 'the silence is not driving');
  assert.equal(t[1]?.start, departure);
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.slice(1).map((x) => [x.arrival, x.departure]), [[arrival, departure], [u.t - 1800, null]]);
  assert.ok(woke > arrival);
  const [day] = await collect(summary(u.reports, 'UTC'));
  assert.equal(day?.drivingTime, 900 + 450);
  assert.equal(day?.trips, 2);
});

test('a trip inside a silence: two resting reports 20 minutes and 16 km apart are a trip of the odometer\'s distance', async () => {
  const u = new Track({ odometer: 5000 }).park(3600, 600);
  const left = u.t - 600; // the last report at A
  // drives 16.4 km by road (16 km as the crow flies) while the logger sleeps
  u.t = left + 20 * 60;
  u.lng += 16 / kmPerDegLng(u.lat);
  u.odometer = 5000 + 16.4;
  const arrived = u.t;
  u.park(3600, 600);
  const t = await collect(trips(u.reports));
  assert.equal(t.length, 1);
  assert.deepEqual([t[0]?.start, t[0]?.end], [left, arrived]);
  near(t[0]?.distanceKm ?? 0, 16.4, 0.001, 'the odometer delta');
  assert.equal(t[0]?.drivingTime, 0, 'no report says when it drove');
  assert.deepEqual([t[0]?.maxSpeed, t[0]?.avgSpeed], [null, null], 'nor how fast: not known, not 0');
  const s = await collect(stops(u.reports));
  assert.deepEqual(s.map((x) => [x.arrival, x.departure]), [[T0, left], [arrived, null]]);
  const [day] = await collect(summary(u.reports, 'UTC'));
  assert.deepEqual([day?.distanceKm, day?.odometerKm, day?.trips], [16.4, 16.4, 1]);
  // without an odometer, at least the straight hop
  const bare = new Track({ odometer: null }).park(3600, 600);
  bare.t += 20 * 60 - 600;
  bare.lng += 16 / kmPerDegLng(bare.lat);
  bare.park(3600, 600);
  near((await collect(trips(bare.reports)))[0]?.distanceKm ?? 0, 16, 0.05, 'great circle');
});

test('a short move between two long stops ends the first stop, places the second where the unit stood, and counts in the summary', async () => {
  const u = new Track().park(3600, 60, { jitterM: 8 });
  const a = { lat: u.lat, lng: u.lng };
  const moved = u.t;
  u.drive(0.3, 12, 15); // 90 s, 300 m: a truck moved to the next dock
  const arrived = u.t;
  const b = { lat: u.lat, lng: u.lng };
  u.park(3600, 60, { jitterM: 8 });
  assert.equal((await collect(trips(u.reports))).length, 0, 'under both trip minimums: not a trip');
  const s = await collect(stops(u.reports));
  assert.equal(s.length, 2, 'the stop ended when the unit left');
  assert.ok(Math.abs((s[0]?.departure ?? 0) - moved) <= 60, `departure ${s[0]?.departure} vs ${moved}`);
  assert.ok(Math.abs((s[1]?.arrival ?? 0) - arrived) <= 60, `arrival ${s[1]?.arrival} vs ${arrived}`);
  assert.ok(haversineKm(s[0]?.lat ?? 0, s[0]?.lng ?? 0, a.lat, a.lng) < 0.01, 'the first stop where it stood');
  assert.ok(haversineKm(s[1]?.lat ?? 0, s[1]?.lng ?? 0, b.lat, b.lng) < 0.01, 'the second stop where it stood, not at the first');
  const [day] = await collect(summary(u.reports, 'UTC'));
  near(day?.distanceKm ?? 0, 0.3, 0.02, 'the move\'s distance');
  assert.equal(day?.trips, 0);
  // 2 km in 3 minutes is a trip by its distance (Traccar's rule: distance or time)
  const yard = new Track().park(3600, 60).drive(2, 40, 15).park(3600, 60);
  assert.equal((await collect(trips(yard.reports))).length, 1);
});

test('a stop is placed at the median of its fixes: jitter and a stray fix do not move it', async () => {
  const u = new Track().park(1800, 600).drive(5, 40, 30);
  const spot = { lat: u.lat, lng: u.lng };
  u.park(3600, 60, { jitterM: 25 });
  const stray = u.reports[u.reports.length - 10] as ReportFeature;
  stray.properties.lat += 60 / 111_200; // one fix 60 m off, still inside the radius
  u.drive(5, 40, 30).park(1800, 600);
  const s = await collect(stops(u.reports));
  assert.equal(s.length, 3);
  assert.ok(haversineKm(s[1]?.lat ?? 0, s[1]?.lng ?? 0, spot.lat, spot.lng) < 0.01, 'within 10 m of the spot');
});

test('a jump (one fix kilometres off) is an outlier: no trip, no distance; inside a trip it adds nothing', async () => {
  const u = new Track().park(1800, 30);
  u.emit({ lat: u.lat + 0.05 }); // 5.6 km north, 30 s after and before its neighbours
  u.t += 30;
  u.park(1800, 30);
  const why: Explanation[] = [];
  assert.equal((await collect(trips(u.reports, DEFAULTS, { explain: (e) => why.push(e) }))).length, 0);
  assert.deepEqual(why.filter((e) => e.kind === 'outlier').map((e) => e.from), [T0 + 1800]);
  assert.equal((await collect(stops(u.reports))).length, 1);
  const [day] = await collect(summary(u.reports, 'UTC'));
  assert.deepEqual([day?.distanceKm, day?.trips], [0, 0]);

  const v = new Track({ odometer: null }).park(1800, 600).drive(5, 40, 30);
  v.emit({ lat: v.lat - 0.03, speed: 40 }); // 3.3 km south, mid-trip
  v.t += 30;
  v.drive(5, 40, 30).park(1800, 600);
  const [trip] = await collect(trips(v.reports));
  near(trip?.distanceKm ?? 0, v.drivenKm, 0.05, 'the jump left out');
  // a jump seen once while parked with reports minutes apart (too slow to be an outlier) is no trip either
  const w = new Track().park(3600, 600);
  w.emit({ lat: w.lat + 0.01, speed: 30 });
  w.t += 60;
  w.park(3600, 600);
  assert.equal((await collect(trips(w.reports))).length, 0);
});

test('an odometer reset makes no negative or absurd distance: odometerKm leaves the reset out, distanceKm the great circle', async () => {
  const u = new Track({ odometer: 5000 }).park(1800, 600).drive(10, 60, 30);
  u.odometer = 0; // the unit was replaced or its counter reset
  u.drive(10, 60, 30);
  u.odometer = (u.odometer ?? 0) + 90_000; // and a jump
  u.drive(10, 60, 30).park(1800, 600);
  const [day] = await collect(summary(u.reports, 'UTC'));
  assert.ok(day);
  near(day.distanceKm, 30, 0.1, 'GPS distance');
  // 20 steps of 0.5 km per leg; the step over the reset and the one over the jump count nothing
  near(day.odometerKm ?? -1, 30 - 1, 0.01, 'odometer distance');
  assert.deepEqual([day.startOdometer, day.endOdometer], [5000, 90_020]);
  const [trip] = await collect(trips(u.reports));
  near(trip?.distanceKm ?? 0, 30, 0.1, 'trip');
});

test('edge stops shorter than --min-stop are no stops; what the window cuts is partial', async () => {
  const u = new Track().park(120, 60); // the window opens 2 minutes before the departure
  const departure = u.t;
  u.drive(10, 40, 30);
  const arrival = u.t;
  u.park(120, 60); // and closes 2 minutes after the arrival
  const s = await collect(stops(u.reports));
  assert.deepEqual(s, [], 'two edge stops of 2 minutes');
  const t = await collect(trips(u.reports));
  assert.deepEqual(t.map((x) => [x.start, x.end, x.partial]), [[departure, arrival, true]], 'its arrival may have been a light');
  // the window opens while the unit drives: the trip began before it
  const v = new Track().drive(10, 40, 30).park(1800, 600);
  assert.deepEqual((await collect(trips(v.reports))).map((x) => [x.start, x.partial]), [[T0, true]]);
});

/** A week of a unit that sleeps at night, drives sparse and dense, stands in jitter, moves across the yard. */
function week(): Track {
  const u = new Track({ t: Date.UTC(2026, 5, 1, 0, 0) / 1000, odometer: 20_000 });
  u.park(6 * 3600, 3600, { jitterM: 10 }); // 00:00-06:00, a report an hour
  for (let d = 0; d < 7; d++) {
    const day = Date.UTC(2026, 5, 1 + d) / 1000;
    u.gap(day + 7 * 3600 - u.t); // asleep until 07:00
    u.park(600, 120, { jitterM: 15, spikes: [0, 12, 0, 25] });
    u.drive(12 + d, 50, d % 2 === 0 ? 5 : 300); // dense or sparse reporting
    u.park(40 * 60, 600, { jitterM: 20 });
    u.drive(0.3, 10, 20); // across the yard
    u.park(50 * 60, 300, { jitterM: 10 });
    u.drive(8, 35, 60);
    const stopAt = u.t;
    u.emit({ speed: 35 }); // asleep at the customer with a driving speed
    u.gap(30 * 60);
    u.park(30 * 60, 600, { jitterM: 20 });
    u.drive(20, 60, 30).park(2 * 3600, 900);
    assert.ok(stopAt < day + 86400);
    u.gap(day + 86400 + 6 * 3600 - u.t); // the night: one report at 06:00 next day, same place
    u.park(60, 60, { jitterM: 10 });
  }
  return u;
}

test('the same day in a day window and in a week window: identical trips and stops, what the day cuts marked partial', async () => {
  const u = week();
  const all = await collect(trips(u.reports));
  const allStops = await collect(stops(u.reports));
  assert.equal(all.length, 7 * 3, 'three trips a day; the moves across the yard are short moves');
  for (let d = 1; d < 6; d++) {
    const from = Date.UTC(2026, 5, 1 + d) / 1000;
    const to = from + 86400;
    const inDay = u.reports.filter((r) => r.properties.date >= from && r.properties.date < to);
    const dayTrips = await collect(trips(inDay));
    const dayStops = await collect(stops(inDay));
    const whole = <T extends { partial: boolean }>(xs: T[]) => xs.filter((x) => !x.partial);
    assert.deepEqual(whole(dayTrips), all.filter((x) => x.start >= from && x.end < to), `day ${d}: trips`);
    assert.equal(dayTrips.length, 3, `day ${d}: no trip cut`);
    assert.deepEqual(
      whole(dayStops),
      allStops.filter((x) => x.arrival >= from && x.departure !== null && x.departure < to && !x.partial),
      `day ${d}: stops`,
    );
    assert.ok(dayStops.filter((x) => x.partial).length >= 1, 'the night stop is cut by the window');
  }
});

test('the summary of a day is the same in a day window and a week window; byUnit and the processor agree', async () => {
  const u = week();
  const rows = await collect(summary(u.reports, 'UTC'));
  const p = tripProcessor();
  for (const r of u.reports) p.push(r);
  for (let d = 1; d < 6; d++) {
    const key = `2026-06-0${1 + d}`;
    const from = Date.UTC(2026, 5, 1 + d) / 1000;
    const inDay = u.reports.filter((r) => r.properties.date >= from && r.properties.date < from + 86400);
    const [one] = await collect(summary(inDay, 'UTC'));
    const inWeek = rows.find((x) => x.day === key);
    // the week sees the night before the first report of the day; the day cannot: stoppedTime differs, the rest not
    assert.deepEqual({ ...one, stoppedTime: 0 }, { ...inWeek, stoppedTime: 0 }, key);
    near(inWeek?.distanceKm ?? 0, inWeek?.odometerKm ?? 0, 0.02 * (inWeek?.odometerKm ?? 0), `${key}: GPS and odometer agree`);
  }
  const explained: Explanation[] = [];
  const proc = summaryProcessor('UTC', DEFAULTS, { explain: (e) => explained.push(e) });
  for (const r of u.reports) proc.push(r);
  proc.finish();
  const kinds = new Set(explained.map((e) => e.kind));
  assert.ok(kinds.has('trip') && kinds.has('move') && kinds.has('stop'), [...kinds].join());
  assert.ok(explained.some((e) => e.kind === 'stop' && /silence of 30m at the same place/.test(e.reason)), 'the stop through the silence says so');
  assert.ok(explained.filter((e) => e.kind === 'move').every((e) => /--min-trip-distance 0.5 km and --min-trip-duration 5m\)/.test(e.reason)));
});

test('a slow crawl in traffic (2-10 km/h for 20 minutes) is not a stop', async () => {
  const u = new Track().park(1800, 600).drive(5, 40, 30).drive(1.5, 4.5, 30).drive(5, 40, 30).park(1800, 600);
  assert.equal((await collect(trips(u.reports))).length, 1);
  assert.equal((await collect(stops(u.reports, P()))).length, 2);
});
