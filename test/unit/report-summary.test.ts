import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReportFeature } from '../../src/api/types.js';
import { UsageError } from '../../src/errors.js';
import { DayClock } from '../../src/reports/days.js';
import { DEFAULTS } from '../../src/reports/params.js';
import { summary, summaryProcessor } from '../../src/reports/summary.js';
import { trips } from '../../src/reports/trips.js';
import { byUnit } from '../../src/reports/stream.js';
import { collect, kmPerDegLng, near, report, Track } from './report-fixture.js';

const utc = (y: number, m: number, d: number, h = 0, min = 0) => Date.UTC(y, m - 1, d, h, min) / 1000;

test('day boundaries in a zone follow daylight-saving changes', () => {
  const berlin = new DayClock('Europe/Berlin');
  // 2026-03-29: clocks go 02:00 → 03:00, a 23-hour day; 2026-10-25: 03:00 → 02:00, 25 hours
  const spring = berlin.dayOf(utc(2026, 3, 29, 12));
  assert.deepEqual(spring, { key: '2026-03-29', start: utc(2026, 3, 28, 23), end: utc(2026, 3, 29, 22) });
  const autumn = berlin.dayOf(utc(2026, 10, 25, 12));
  assert.deepEqual(autumn, { key: '2026-10-25', start: utc(2026, 10, 24, 22), end: utc(2026, 10, 25, 23) });
  assert.equal(berlin.dayOf(utc(2026, 3, 28, 22, 59)).key, '2026-03-28');
  assert.equal(berlin.dayOf(utc(2026, 3, 28, 23)).key, '2026-03-29');
  const denver = new DayClock('America/Denver');
  assert.deepEqual(denver.dayOf(utc(2026, 7, 1, 5)), { key: '2026-06-30', start: utc(2026, 6, 30, 6), end: utc(2026, 7, 1, 6) });
  const kathmandu = new DayClock('Asia/Kathmandu'); // +05:45
  assert.equal(kathmandu.dayOf(utc(2026, 1, 1, 18, 15)).start, utc(2026, 1, 1, 18, 15));
  assert.throws(() => new DayClock('Mars/Olympus_Mons'), UsageError);
});

test('a parked day: stopped all the time it was observed, no trips, first and last report and odometers', async () => {
  // parked from 23:00 on the 28th to 01:00 on the 30th, Berlin time, across the spring change
  const u = new Track({ t: utc(2026, 3, 28, 22), odometer: 4321.5 }).park(27 * 3600, 900);
  const got = await collect(summary(u.reports, 'Europe/Berlin'));
  assert.deepEqual(got.map((d) => d.day), ['2026-03-28', '2026-03-29', '2026-03-30']);
  const day = got[1];
  assert.ok(day);
  assert.deepEqual(Object.keys(day), [
    'did', 'name', 'day', 'distanceKm', 'odometerKm', 'drivingTime', 'stoppedTime', 'maxSpeed', 'trips',
    'firstReport', 'lastReport', 'startOdometer', 'endOdometer', 'partial',
  ]);
  assert.equal(day.stoppedTime, 23 * 3600, 'the spring day has 23 hours');
  assert.equal(day.firstReport, utc(2026, 3, 28, 23));
  assert.equal(day.lastReport, utc(2026, 3, 29, 21, 45));
  assert.deepEqual([day.trips, day.distanceKm, day.drivingTime, day.maxSpeed], [0, 0, 0, 0]);
  assert.deepEqual([day.startOdometer, day.endOdometer], [4321.5, 4321.5]);
  // the first day is observed from the first report (22:00 UTC = 23:00 local) to midnight
  assert.equal(got[0]?.stoppedTime, 3600);
  // the last day up to the last report (the stream does not say what came after it)
  const last = u.reports[u.reports.length - 1]?.properties.date ?? 0;
  assert.equal(got[2]?.stoppedTime, last - utc(2026, 3, 29, 22));
});

test('the autumn day in Berlin has 25 hours', async () => {
  const u = new Track({ t: utc(2026, 10, 24, 20) }).park(30 * 3600, 1800);
  const got = await collect(summary(u.reports, 'Europe/Berlin'));
  assert.equal(got.find((d) => d.day === '2026-10-25')?.stoppedTime, 25 * 3600);
});

test('a day the window cuts is partial; the days it holds are whole, of 23 or 25 hours at the changes', async () => {
  // Parked from Friday 2026-10-23 12:00 UTC to Tuesday the 27th, reporting every 15 minutes.
  const u = new Track({ t: utc(2026, 10, 23, 12) }).park(4 * 86400, 900);
  const run = async (tz: string, from: number, to: number) => {
    const p = summaryProcessor(tz, DEFAULTS, { window: { from, to } });
    const rows = [...u.reports.filter((r) => r.properties.date >= from && r.properties.date <= to).flatMap((r) => [...p.push(r)]), ...p.finish()];
    return rows.map((d) => [d.day, d.partial, d.stoppedTime]);
  };
  // Berlin's 24th to 26th whole (the 25th has 25 hours), from 2026-10-23T22:00Z to 2026-10-26T23:00Z; the report at
  // 23:00Z sharp is the first second of Berlin's 27th, which the window cuts.
  assert.deepEqual(await run('Europe/Berlin', utc(2026, 10, 23, 22), utc(2026, 10, 26, 23)), [
    ['2026-10-24', false, 86400],
    ['2026-10-25', false, 90000],
    ['2026-10-26', false, 86400],
    ['2026-10-27', true, 0],
  ]);
  // The same instants cut Tokyo's days: its 24th starts at 15:00 UTC on the 23rd, before the window.
  const tokyo = await run('Asia/Tokyo', utc(2026, 10, 23, 22), utc(2026, 10, 26, 23));
  assert.deepEqual(tokyo.map(([day, partial]) => [day, partial]), [['2026-10-24', true], ['2026-10-25', false], ['2026-10-26', false], ['2026-10-27', true]]);
  // A window from noon: the first day is cut, the next whole; the last second of a day (to = end - 1) still holds it.
  const cut = await run('UTC', utc(2026, 10, 24, 12), utc(2026, 10, 26) - 1);
  assert.deepEqual(cut.map(([day, partial]) => [day, partial]), [['2026-10-24', true], ['2026-10-25', false]]);
  // Without a window (summary() of a stream) nothing is partial.
  assert.ok((await collect(summary(u.reports, 'UTC'))).every((d) => d.partial === false));
});

test('a trip across midnight is split by day, distance and driving time by time', async () => {
  // drive 30 km at 60 km/h from 23:45 to 00:15 UTC, parked before and after
  const u = new Track({ t: utc(2026, 6, 1, 22) }).park(6300, 900);
  assert.equal(u.t, utc(2026, 6, 1, 23, 45));
  u.drive(30, 60, 30).park(3 * 3600, 900);
  const [trip] = await collect(trips(u.reports));
  assert.ok(trip);
  near(trip.distanceKm, 30, 0.001, 'the whole trip');
  const got = await collect(summary(u.reports, 'UTC'));
  assert.deepEqual(got.map((d) => d.day), ['2026-06-01', '2026-06-02']);
  const [d1, d2] = got;
  assert.ok(d1 && d2);
  assert.deepEqual([d1.trips, d2.trips], [1, 1], 'the trip counts on both days');
  assert.deepEqual([d1.drivingTime, d2.drivingTime], [900, 900]);
  near(d1.distanceKm, 15, 0.01, 'before midnight');
  near(d2.distanceKm, 15, 0.01, 'after midnight');
  near(d1.distanceKm + d2.distanceKm, trip.distanceKm, 0.002, 'the parts add up to the trip');
  assert.equal(d1.stoppedTime, 6300, 'from the first report to the departure');
  const lastDate = u.reports[u.reports.length - 1]?.properties.date ?? 0;
  assert.equal(d2.stoppedTime, lastDate - utc(2026, 6, 2) - 900);
  assert.deepEqual([d1.maxSpeed, d2.maxSpeed], [60, 60]);
  // in Denver the whole trip is on the afternoon of June 1st
  const denver = await collect(summary(u.reports, 'America/Denver'));
  assert.deepEqual(denver.map((d) => [d.day, d.trips]), [['2026-06-01', 1]]);
  near(denver[0]?.distanceKm ?? 0, 30, 0.002, 'one day');
});

test('a segment between two reports either side of midnight is shared by time', async () => {
  // a tracker reporting every 20 minutes: 23:30, 23:50, 00:10, arriving 00:30, at 60 km/h
  const u = new Track({ t: utc(2026, 6, 1, 22, 30) }).park(3600, 1200).drive(60, 60, 1200).park(3600, 1200);
  const [d1, d2] = await collect(summary(u.reports, 'UTC'));
  near(d1?.distanceKm ?? 0, 30, 0.001, 'before midnight: 20 km and half of the next 20');
  near(d2?.distanceKm ?? 0, 30, 0.001, 'after midnight');
  assert.deepEqual([d1?.drivingTime, d2?.drivingTime], [1800, 1800]);
});

test('a silence over midnight the unit drove into and is found at rest after gives its way to the day it was driven on', async () => {
  // driving at 60 km/h until its last report at 23:04 (4 km on), silent until 02:00, then parked 8 km farther, the odometer counting a 10 km road
  const u = new Track({ t: utc(2026, 6, 1, 22) }).park(3600, 900).drive(5, 60, 60);
  u.lng += 7 / (111.32 * Math.cos((u.lat * Math.PI) / 180));
  u.odometer = (u.odometer as number) + 9;
  u.t = utc(2026, 6, 2, 2);
  u.park(7200, 900);
  const [d1, d2] = await collect(summary(u.reports, 'UTC'));
  // the way at the mean of 60 and 0 km/h takes 20 minutes of the silence: before midnight, not shared by time over its 3 hours
  near(d1?.distanceKm ?? 0, 14, 0.01, 'the day it drove');
  near(d2?.distanceKm ?? 0, 0, 0.001, 'the day after');
});

test('a trip arriving at midnight sharp is a trip of the day before only', async () => {
  const u = new Track({ t: utc(2026, 6, 1, 22) }).park(5400, 900).drive(20, 40, 30).park(3600, 900);
  assert.equal(u.reports.find((r) => r.properties.date === utc(2026, 6, 2))?.properties.speed, 0, 'the arrival is at 00:00');
  const [d1, d2] = await collect(summary(u.reports, 'UTC'));
  assert.deepEqual([d1?.trips, d1?.drivingTime, d2?.trips, d2?.drivingTime, d2?.maxSpeed], [1, 1800, 0, 0, 0]);
});

test('driving time, trips and distance add up over a working day; halts are not driving', async () => {
  const u = new Track({ t: utc(2026, 6, 3, 5) }).park(3600, 900);
  u.drive(20, 40, 30).halt(60, 30).drive(5, 30, 30).park(1800, 600).drive(25, 50, 30).park(7200, 900);
  const [day] = await collect(summary(u.reports, 'UTC'));
  assert.ok(day);
  assert.equal(day.trips, 2);
  near(day.distanceKm, 50, 0.002, 'distance');
  assert.equal(day.drivingTime, 1800 + 600 + 1800 + 30, 'the halt less its last 30 s (accelerating)');
  const span = (day.lastReport ?? 0) - (day.firstReport ?? 0);
  assert.equal(day.stoppedTime + day.drivingTime + 30, span, 'everything observed is driving, halted at the light or stopped');
  assert.equal(day.maxSpeed, 50);
  assert.equal(day.endOdometer, 1050);
  assert.equal(day.startOdometer, 1000);
});

test('a day row waits for a trip that began before midnight and is still undecided', async () => {
  const u = new Track({ t: utc(2026, 6, 1, 23) }).park(3000, 600).drive(20, 40, 30).park(3600, 600);
  const p = summaryProcessor('UTC', DEFAULTS, { windowS: 0 });
  const emitted: string[] = [];
  for (const r of u.reports) {
    for (const d of p.push(r)) emitted.push(`${d.day}@${r.properties.date - utc(2026, 6, 2)}`);
  }
  // the trip starts at 23:50 and is settled by the first report at least 5 minutes into the stop
  // after it (00:30), known for no outlier when the next one came (00:40)
  assert.deepEqual(emitted, [`2026-06-01@${40 * 60}`]);
  assert.deepEqual([...p.finish()].map((d) => d.day), ['2026-06-02']);
});

test('summary rows of many units through byUnit', async () => {
  const a = new Track({ did: 1, t: utc(2026, 6, 1, 8) }).park(600, 300).drive(10, 40, 30).park(600, 300);
  const b = new Track({ did: 2, t: utc(2026, 6, 1, 9) }).park(600, 300).drive(4, 40, 30).park(600, 300);
  const merged: ReportFeature[] = [...a.reports, ...b.reports].sort((x, y) => x.properties.date - y.properties.date);
  const rows = await collect(byUnit(merged, () => summaryProcessor('UTC')));
  assert.deepEqual(rows.map((r) => [r.did, r.trips, r.distanceKm]), [[1, 1, 10], [2, 1, 4]]);
});

test('reports without a position count as reports of the day', async () => {
  const r = [report({ date: utc(2026, 6, 1, 10), lat: 0, lng: 0, odometer: 12 }), report({ date: utc(2026, 6, 1, 11), odometer: 13 })];
  const [day] = await collect(summary(r, 'UTC'));
  assert.deepEqual([day?.firstReport, day?.lastReport, day?.startOdometer, day?.endOdometer], [utc(2026, 6, 1, 10), utc(2026, 6, 1, 11), 12, 13]);
});

test("the odometer's count by day, on messy increases: each plausible one shared between the days it spans by time, as reckoned day by day", async () => {
  const { seeded } = await import('../helpers/messy-json.js');
  const { MAX_ODOMETER_KMH, ODOMETER_STEP_KM } = await import('../../src/reports/geo.js');
  for (const tz of ['UTC', 'Asia/Kolkata', 'Europe/Berlin']) {
    for (let seed = 1; seed <= 20; seed++) {
      const r = seeded(seed);
      const clock = new DayClock(tz);
      // silences of seconds to days, dates landing on midnight sharp, repeated dates, resets, jumps, and reports without an
      // odometer (the increase across them reaches back to days whose reports are all in: each day is still one row)
      const midnights = [utc(2026, 10, 24), utc(2026, 10, 25), utc(2026, 10, 26)].map((t) => clock.dayOf(t).start);
      let t = utc(2026, 10, 24, 20);
      let km = 1000;
      const reports: ReportFeature[] = [];
      for (let k = 0; k < 300; k++) {
        const gap = r.pick([0, 1, 30, 600, 3599, 3 * 3600, 26 * 3600]);
        t = r.chance(0.05) ? Math.max(t, r.pick(midnights)) : t + gap;
        if (r.chance(0.05)) t = clock.dayOf(t).end; // midnight sharp
        // an odometer that stood, reset, leapt, or counted on (a step of up to 2 km too, when it stood a while)
        km = r.chance(0.1) ? km : r.chance(0.03) ? 0 : r.chance(0.03) ? km + 5000 : r.chance(0.1) ? km + 1 + r.int(2) / 2 : km + (gap * r.int(60)) / 3600 + r.int(3) / 7;
        // no two alike: none dropped as a repeat
        reports.push(report({ date: t, lat: 52.5 + k / 1e5, lng: 13.4, speed: 0, odometer: r.chance(0.3) ? null : km }));
      }
      const got = await collect(summary(reports, tz, { ...DEFAULTS, reorderWindowS: 0 }));
      // reckoned day by day, as the summary's rule says (a reset or a jump adds nothing; a step counts by the time since the odometer read what it stepped from)
      const want = new Map<string, number>();
      let last: { t: number; km: number; since: number } | undefined;
      for (const x of reports) {
        const odo = x.properties.odometer;
        const day = clock.dayOf(x.properties.date).key;
        if (typeof odo !== 'number') continue;
        if (!last) want.set(day, 0);
        else {
          const delta = odo - last.km;
          const dt = x.properties.date - last.t;
          const step = delta <= ODOMETER_STEP_KM && delta <= 0.1 + (MAX_ODOMETER_KMH * (x.properties.date - last.since)) / 3600;
          if (delta >= 0 && (delta <= 0.1 + (MAX_ODOMETER_KMH * dt) / 3600 || step)) {
            if (dt <= 0) want.set(day, (want.get(day) ?? 0) + delta);
            for (let s = last.t; dt > 0 && s < x.properties.date; ) {
              const d = clock.dayOf(s);
              const to = Math.min(x.properties.date, d.end);
              want.set(d.key, (want.get(d.key) ?? 0) + (delta * (to - s)) / dt);
              s = to;
            }
          }
        }
        last = { t: x.properties.date, km: odo, since: last && last.km === odo ? last.since : x.properties.date };
      }
      const days = got.map((row) => row.day);
      assert.deepEqual(days, [...new Set(days)].sort(), `${tz} seed ${seed}: each day once, in order`);
      assert.deepEqual(days.filter((d) => want.has(d)), [...want.keys()], `${tz} seed ${seed}: the days counted`);
      for (const row of got) {
        const w = want.get(row.day);
        assert.equal(row.odometerKm, w === undefined ? null : Math.round(w * 1000) / 1000, `${tz} seed ${seed} ${row.day}`);
      }
    }
  }
});

test('an odometer that counts whole kilometres, read every second while the unit drives across midnight: its steps count, day by day', async () => {
  // 50 km/h for two hours from 23:00 UTC: the odometer reads 8000 + whole kilometres driven, a step every 72 s
  const t0 = utc(2026, 6, 1, 23);
  const reports: ReportFeature[] = [];
  for (let s = 0; s <= 7200; s++) {
    const km = (50 * s) / 3600;
    reports.push(report({ date: t0 + s, lat: 48.1, lng: 11.5 + km / kmPerDegLng(48.1), speed: 50, odometer: 8000 + Math.floor(km) }));
  }
  const rows = await collect(summary(reports, 'UTC'));
  // the step to 8050 at midnight sharp was driven in the day's last second (from 8049 at 23:59:59)
  assert.deepEqual(rows.map((row) => [row.day, row.startOdometer, row.endOdometer, row.odometerKm]), [
    ['2026-06-01', 8000, 8049, 50],
    ['2026-06-02', 8050, 8100, 50],
  ]);
});
