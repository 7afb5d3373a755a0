/**
 * The sandbox drives like a fleet: invariants of its history, checked from the outside
 * (the reports as served, the ground truth at /_sandbox/truth, and a haversine of our own),
 * never from the generator's internals.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { arr, type Client, type J, num, req, signedIn, str, T0 } from './helpers.js';

interface R {
  date: number;
  lat: number;
  lng: number;
  speed: number;
  odometer: number | null;
  reportType: string;
  reportValue: string;
  address: string | null;
}
interface Segment {
  start: number;
  end: number;
  speed: number;
  distanceKm: number;
}
interface Trip {
  start: number;
  end: number;
  distanceKm: number;
  startLat: number;
  startLng: number;
  endLat: number;
  endLng: number;
  maxSpeed: number;
  reports: number;
  inSilence: boolean;
  short: boolean;
  startAround: [number | null, number | null];
  endAround: [number | null, number | null];
  segments: Segment[];
}
interface Stop {
  arrival: number;
  departure: number | null;
  lat: number;
  lng: number;
  reports: number;
  speedFixes: number;
  arrivalAround: [number | null, number | null];
  departureAround: [number | null, number | null] | null;
}
interface Gap {
  from: number;
  to: number;
  kind: 'sleep' | 'outage';
}
interface Overspeed {
  start: number;
  end: number;
  maxSpeed: number;
  distanceKm: number;
  reports: number;
  firstReport: number | null;
  lastReport: number | null;
  maxReported: number | null;
}
interface Truth {
  did: number;
  interval: { driving: number | null; parked: number };
  limit: number;
  trips: Trip[];
  stops: Stop[];
  gaps: Gap[];
  jumps: Array<{ date: number; lat: number; lng: number; trueLat: number; trueLng: number }>;
  odometerResets: Array<{ at: number; before: number }>;
  overspeed: Overspeed[];
}

/** Our own great-circle distance (km), independent of the sandbox's. */
function km(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

const toR = (f: J): R => {
  const p = f.properties!;
  return {
    date: num(p.date), lat: num(p.lat), lng: num(p.lng), speed: num(p.speed),
    odometer: p.odometer === null ? null : num(p.odometer), reportType: str(p.reportType), reportValue: str(p.reportValue),
    address: p.address === null ? null : str(p.address),
  };
};

const isStart = (r: R): boolean => r.reportType === 'motion_state' && r.reportValue === 'moving';
const isStop = (r: R): boolean => r.reportType === 'motion_state' && r.reportValue === 'stopped';

// A window well before the clock, so that every report in it has been received (late ones arrive within 6 h).
const FROM = T0 - 5 * 86400;
const TO = T0 - 7 * 3600;
const VEHICLES = [2004, 2005, 2006, 2007, 2009, 2011, 2014, 2015];
const TRACKED = [2021, 2023, 2025];
const DRIVERS = [...VEHICLES, ...TRACKED];

describe('the sandbox drives like real trackers', () => {
  let c: Client;
  const reports = async (did: number, from = FROM, to = TO): Promise<R[]> => {
    const r = await c.s('GET', `/reports/history/${did}/from:${from}/to:${to}/`);
    assert.equal(r.status, 200, r.text.slice(0, 300));
    return arr(r.json.features).map(toR);
  };
  const truth = async (did: number, from = FROM, to = TO, limit?: number): Promise<Truth> => {
    const r = await req(c.sb.url, 'GET', `/_sandbox/truth/${did}?from=${from}&to=${to}${limit === undefined ? '' : `&limit=${limit}`}`);
    assert.equal(r.status, 200, r.text.slice(0, 300));
    return r.json as unknown as Truth;
  };
  const inGap = (t: Truth, a: number, b: number): boolean => t.gaps.some((g) => g.from <= b && g.to > a);
  const data = new Map<number, { rs: R[]; t: Truth; jumps: Set<number> }>();
  const all = (): Array<[number, { rs: R[]; t: Truth; jumps: Set<number> }]> => [...data].filter(([did]) => DRIVERS.includes(did));

  before(async () => {
    c = await signedIn({ sessionTtl: 30 * 86400 });
    for (const did of [...DRIVERS, 2016, 2017]) {
      const t = await truth(did);
      data.set(did, { rs: await reports(did), t, jumps: new Set(t.jumps.map((j) => j.date)) });
    }
  });
  after(async () => {
    await c.sb.close();
  });

  test('tracked users exist where the test expects them', async () => {
    const all = (await c.s('GET', '/all-units/')).json;
    for (const did of TRACKED) assert.equal(str(all.devices![String(did)]!.deviceCategory), 'trackedUser', `unit ${did}`);
  });

  test('truth trips start and end exactly at the motion_state reports, at the places reported; reports counts and the reports around each event are exact', () => {
    for (const [did, { rs, t, jumps }] of all()) {
      assert.ok(t.trips.length >= 5, `unit ${did}: ${t.trips.length} trips in five days`);
      const starts = rs.filter(isStart).map((r) => r.date);
      const stops = rs.filter(isStop).map((r) => r.date);
      const byDate = new Map(rs.map((r) => [r.date, r]));
      const inside = t.trips.filter((tr) => tr.start > FROM && tr.end <= TO);
      // a motion_state report is missing only when it fell into a silence
      const want = (at: (tr: Trip) => number): number[] =>
        t.trips.map(at).filter((x) => x > FROM && x <= TO && !inGap(t, x, x));
      assert.deepEqual(starts, want((tr) => tr.start), `unit ${did}: starts`);
      assert.deepEqual(stops, want((tr) => tr.end), `unit ${did}: stops`);
      for (const tr of inside) {
        const a = byDate.get(tr.start);
        const b = byDate.get(tr.end);
        if (a) assert.ok(km(a, { lat: tr.startLat, lng: tr.startLng }) < 0.001 && a.speed === 0, `unit ${did}: trip start place`);
        if (b) assert.ok(km(b, { lat: tr.endLat, lng: tr.endLng }) < 0.001 && b.speed === 0, `unit ${did}: trip end place`);
        if (a && b) assert.ok(Math.abs(b.odometer! - a.odometer! - tr.distanceKm) < 0.003, `unit ${did}: odometer over a trip = its distance`);
        assert.equal(rs.filter((r) => r.date >= tr.start && r.date <= tr.end).length, tr.reports, `unit ${did}: reports of the trip at ${tr.start}`);
        const segKm = tr.segments.reduce((sum, g) => sum + g.distanceKm, 0);
        assert.ok(Math.abs(segKm - tr.distanceKm) < 0.001 && tr.segments[0]!.start === tr.start && tr.segments.at(-1)!.end === tr.end, `unit ${did}: segments make the trip`);
      }
      for (const st of t.stops.filter((x) => x.arrival >= FROM && x.departure !== null && x.departure <= TO)) {
        assert.equal(rs.filter((r) => r.date > st.arrival && r.date < st.departure!).length, st.reports, `unit ${did}: reports of the stop at ${st.arrival}`);
      }
      // the reports around each event: served reports (jumps left out), the last at or before it and the first at or after it
      const fixes = rs.filter((r) => !jumps.has(r.date)).map((r) => r.date);
      const around = (e: number, got: [number | null, number | null] | null, what: string): void => {
        if (e <= FROM + 86400 || e >= TO - 86400) return; // the served window may not hold the reports around it
        const before = fixes.filter((d) => d <= e).at(-1) ?? null;
        const after = fixes.find((d) => d >= e) ?? null;
        assert.deepEqual(got, [before, after], `unit ${did}: reports around ${what} ${e}`);
      };
      for (const tr of t.trips) {
        around(tr.start, tr.startAround, 'the start of a trip at');
        around(tr.end, tr.endAround, 'the end of a trip at');
      }
      for (const st of t.stops) {
        around(st.arrival, st.arrivalAround, 'the arrival at');
        if (st.departure !== null) around(st.departure, st.departureAround, 'the departure at');
      }
      // between trips, no other report says the unit started or stopped
      assert.equal(rs.filter((r) => r.reportType === 'motion_state').length, starts.length + stops.length);
    }
  });

  test('speed is the distance between consecutive driving reports over their time (km/h), and every report reads its segment\'s speed', () => {
    let pairs = 0;
    let close = 0;
    for (const [did, { rs, t, jumps }] of all()) {
      for (const tr of t.trips.filter((x) => x.start > FROM && x.end <= TO && !inGap(t, x.start, x.end))) {
        const legs = rs.filter((r) => r.date >= tr.start && r.date <= tr.end);
        let max = 0;
        for (let i = 1; i < legs.length; i++) {
          const [p, q] = [legs[i - 1]!, legs[i]!];
          if (q.speed > max) max = q.speed;
          if (isStop(q) || jumps.has(p.date) || jumps.has(q.date)) continue;
          const seg = tr.segments.find((g) => q.date > g.start && q.date <= g.end)!;
          assert.equal(q.speed, seg.speed, `unit ${did}: the report at ${q.date} reads its segment's speed`);
          if (q.date - p.date < 10) continue; // a second or two of rounding says little
          const v = km(p, q) / ((q.date - p.date) / 3600);
          pairs++;
          // a pair that spans a turn is slower than either speed; most pairs lie on one straight stretch
          assert.ok(v <= tr.maxSpeed * 1.01 + 0.5, `unit ${did}: ${v.toFixed(1)} km/h between reports, trip max ${tr.maxSpeed}`);
          if (Math.abs(v - q.speed) <= 0.02 * q.speed + 0.3) close++;
        }
        // every segment is sampled when reports come at least every 45 s
        if (t.interval.driving! <= 45) assert.equal(max, tr.maxSpeed, `unit ${did}: the fastest reported speed is the trip's maximum`);
        else assert.ok(max <= tr.maxSpeed);
        assert.ok(tr.maxSpeed > 5 && tr.maxSpeed < 132, `unit ${did}: plausible max speed ${tr.maxSpeed}`);
      }
    }
    assert.ok(pairs > 500, `${pairs} pairs`);
    assert.ok(close / pairs > 0.7, `${close} of ${pairs} pairs match their reported speed within 2 %`);
  });

  test('the odometer grows by the distance driven, only while driving, and drops to 0 only at a reset the truth lists', () => {
    let resets = 0;
    for (const [did, { rs, t, jumps }] of all()) {
      for (let i = 1; i < rs.length; i++) {
        const [p, q] = [rs[i - 1]!, rs[i]!];
        const reset = t.odometerResets.find((x) => x.at > p.date && x.at <= q.date);
        if (reset) {
          resets++;
          assert.equal(p.odometer, reset.before, `unit ${did}: the reading before the reset`);
          assert.ok(q.odometer! >= 0 && q.odometer! < 0.001 + (q.date - reset.at) * 0.04, `unit ${did}: ${q.odometer} km just after a reset`);
        } else assert.ok(q.odometer! >= p.odometer!, `unit ${did}: the odometer never goes back (${p.date} → ${q.date})`);
      }
      let path = 0;
      let odo = 0;
      for (const tr of t.trips.filter((x) => x.start > FROM && x.end <= TO && !inGap(t, x.start, x.end))) {
        const legs = rs.filter((r) => r.date >= tr.start && r.date <= tr.end && !jumps.has(r.date));
        let sum = 0;
        for (let i = 1; i < legs.length; i++) sum += km(legs[i - 1]!, legs[i]!);
        const delta = legs[legs.length - 1]!.odometer! - legs[0]!.odometer!;
        // the reports cut the corners of the path, never more (sparse reporters cut more)
        const cut = t.interval.driving! > 45 ? 0.6 : 0.97;
        assert.ok(sum <= delta + 0.002 && sum >= delta * cut, `unit ${did}: path ${sum.toFixed(3)} km, odometer ${delta.toFixed(3)} km`);
        path += sum;
        odo += delta;
      }
      if (t.interval.driving! <= 45) assert.ok(path >= odo * 0.985, `unit ${did}: over five days the reports trace ${path.toFixed(1)} of ${odo.toFixed(1)} km`);
      // parked: the odometer stands still, the position jitters by a few metres, now and then tens of metres at a driving speed
      for (const st of t.stops) {
        const here = rs.filter((r) => r.date > st.arrival && (st.departure === null || r.date < st.departure) && !jumps.has(r.date));
        let fast = 0;
        for (const r of here) {
          if (r.speed >= 5) {
            fast++;
            assert.ok(km(r, st) >= 0.0149 && km(r, st) < 0.081 && r.speed <= 30, `unit ${did}: a speed fix ${(km(r, st) * 1000).toFixed(1)} m off at ${r.speed} km/h`);
          } else assert.ok(km(r, st) < 0.0061 && r.speed < 2, `unit ${did}: ${(km(r, st) * 1000).toFixed(1)} m from the stop at ${r.speed} km/h`);
          if (t.odometerResets.every((x) => x.at <= st.arrival || x.at > r.date)) assert.equal(r.odometer, here[0]!.odometer);
        }
        if (st.arrival >= FROM && st.departure !== null && st.departure <= TO) assert.equal(fast, st.speedFixes, `unit ${did}: speed fixes`);
      }
    }
    assert.ok(resets >= 1, 'some unit\'s odometer is reset in the window');
  });

  test('reports come every interval.driving seconds while driving and every 10–30 min while parked, unless silent', () => {
    let parked = 0;
    const steps = new Set<number>();
    for (const [did, { rs, t }] of all()) {
      const step = t.interval.driving!;
      steps.add(step <= 5 ? 1 : step <= 60 ? 45 : 300);
      const trips = t.trips;
      const movingAt = (x: number): boolean => trips.some((tr) => x >= tr.start && x <= tr.end);
      for (let i = 1; i < rs.length; i++) {
        const [p, q] = [rs[i - 1]!, rs[i]!];
        if (inGap(t, p.date, q.date)) continue;
        const dt = q.date - p.date;
        const tr = trips.find((x) => p.date >= x.start && q.date <= x.end);
        if (tr && step === 45) assert.ok(dt >= 30 && dt <= 60, `unit ${did}: ${dt} s between reports while driving`);
        else if (tr) {
          assert.ok(dt >= 1 && dt <= Math.ceil(1.5 * step) + 1, `unit ${did}: ${dt} s between reports every ${step} s`);
          if (tr.end - tr.start >= 3 * step) assert.ok(dt >= Math.floor(0.6 * step), `unit ${did}: ${dt} s between reports every ${step} s`);
        } else if (!movingAt(p.date) && !movingAt(q.date) && !trips.some((x) => x.start > p.date && x.start < q.date)) {
          assert.ok(dt >= 600 && dt <= 1800, `unit ${did}: ${dt} s between parked reports at ${q.date}`);
          parked++;
        }
      }
    }
    assert.ok(parked > 500);
    assert.deepEqual([...steps].sort((a, b) => a - b), [1, 45, 300], 'dense, usual and sparse reporters');
  });

  test('silences: loggers sleep from the moment they park and wake at the same place; a whole trip can pass in silence', () => {
    let sleeps = 0;
    let driving = 0;
    let silentTrips = 0;
    for (const [did, { rs, t, jumps }] of all()) {
      for (const g of t.gaps) {
        assert.equal(rs.filter((r) => r.date >= g.from && r.date < g.to).length, 0, `unit ${did}: a report inside a silence`);
        if (g.kind !== 'sleep' || g.from < FROM || g.to > TO - 3600) continue;
        sleeps++;
        assert.ok(g.to - g.from >= 900 && g.to - g.from <= 36000, `unit ${did}: slept ${g.to - g.from} s`);
        const st = t.stops.find((x) => x.arrival <= g.from && (x.departure === null || x.departure >= g.to + 300))!;
        assert.ok(st, `unit ${did}: a sleep lies in a stop, ending 5 minutes before the departure or earlier`);
        const before = rs.filter((r) => r.date < g.from).at(-1);
        const after = rs.find((r) => r.date >= g.to && !jumps.has(r.date))!;
        assert.ok(after, `unit ${did}: no report after the sleep ${JSON.stringify(g)}`);
        assert.ok(km(after, st) < 0.081, `unit ${did}: wakes ${(km(after, st) * 1000).toFixed(0)} m from where it slept`);
        if (before && g.from === st.arrival && before.date > st.arrival - 600 && !jumps.has(before.date)) {
          // asleep as soon as it parked: the trip's last report shows a driving speed, no `stopped` report
          assert.ok(before.speed > 0 && !isStop(before), `unit ${did}: the report before a sleep at ${before.date}`);
          driving++;
        }
      }
      for (const tr of t.trips.filter((x) => x.inSilence && x.start > FROM + 3600 && x.end < TO - 3600)) {
        silentTrips++;
        assert.equal(tr.reports, 0);
        const before = rs.filter((r) => r.date < tr.start && !jumps.has(r.date)).at(-1)!;
        const after = rs.find((r) => r.date > tr.end && !jumps.has(r.date))!;
        // An outage over two trips and the stop between: the reports around it bound both, not each.
        if (t.trips.some((x) => x !== tr && x.start < after.date && x.end > before.date)) continue;
        assert.ok(before.speed <= 30 && after.speed <= 30, `unit ${did}: parked reports around a silent trip`);
        assert.ok(km(before, { lat: tr.startLat, lng: tr.startLng }) < 0.081 && km(after, { lat: tr.endLat, lng: tr.endLng }) < 0.081, `unit ${did}: where the silent trip began and ended`);
        assert.ok(Math.abs(after.odometer! - before.odometer! - tr.distanceKm) < 0.002, `unit ${did}: the odometer shows the silent trip`);
      }
    }
    assert.ok(sleeps >= 10 && driving >= 3 && silentTrips >= 2, `${sleeps} sleeps (${driving} from a driving report), ${silentTrips} silent trips`);
  });

  test('short moves, slow traffic, jumps and speeding are in the world and in the reports', () => {
    let moves = 0;
    let jams = 0;
    let jumpsSeen = 0;
    for (const [did, { rs, t }] of all()) {
      for (const tr of t.trips.filter((x) => x.short)) {
        moves++;
        assert.ok(tr.distanceKm >= 1.5 && tr.distanceKm <= 3.01 && tr.end - tr.start >= 180 && tr.end - tr.start <= 300, `unit ${did}: a move of ${tr.distanceKm} km in ${tr.end - tr.start} s`);
        const around = t.stops.filter((st) => st.departure === tr.start || st.arrival === tr.end);
        assert.equal(around.length, 2);
        for (const st of around) assert.ok(st.departure! - st.arrival >= 300, `unit ${did}: a stop around a move`);
      }
      for (const g of t.trips.flatMap((x) => x.segments).filter((x) => x.speed <= 10 && x.end - x.start >= 600)) {
        jams++;
        assert.ok(g.speed >= 1.9 && g.end - g.start >= 720 && g.end - g.start <= 3000, `unit ${did}: traffic at ${g.speed} km/h for ${g.end - g.start} s`);
        for (const r of rs.filter((x) => x.date > g.start && x.date < g.end)) assert.equal(r.speed, g.speed, `unit ${did}: crawling, and driving`);
      }
      for (const j of t.jumps.filter((x) => x.date > FROM && x.date <= TO)) {
        jumpsSeen++;
        const i = rs.findIndex((r) => r.date === j.date);
        const [p, r, q] = [rs[i - 1]!, rs[i]!, rs[i + 1]!];
        assert.deepEqual([r.lat, r.lng], [j.lat, j.lng]);
        const off = km(r, { lat: j.trueLat, lng: j.trueLng });
        assert.ok(off >= 1.99 && off <= 15.01, `unit ${did}: a jump ${off.toFixed(1)} km off`);
        // the neighbours are where the unit was: the true position lies between them, the fix far off both
        assert.ok(km(p, { lat: j.trueLat, lng: j.trueLng }) + km(q, { lat: j.trueLat, lng: j.trueLng }) <= km(p, q) + 2 * off / 3, `unit ${did}: jump at ${j.date}`);
        assert.ok(km(p, r) > 1.5 && km(r, q) > 1.5);
      }
    }
    assert.ok(moves >= 4 && jams >= 4 && jumpsSeen >= 4, `${moves} moves, ${jams} traffic jams, ${jumpsSeen} jumps`);
  });

  test('overspeed episodes: the reports above the limit, run by run, are exactly those the truth lists', async () => {
    let episodes = 0;
    for (const limit of [90, 100]) {
      for (const did of DRIVERS) {
        const { rs } = data.get(did)!;
        const t = await truth(did, FROM, TO, limit);
        assert.equal(t.limit, limit);
        // runs of reports above the limit, each inside one trip; a run ends at a report at or under it
        const runs: number[][] = [];
        let run: number[] | null = null;
        for (const r of rs) {
          if (r.speed > limit && t.trips.some((tr) => r.date > tr.start && r.date < tr.end)) (run ??= []).push(r.date);
          else if (run) {
            runs.push(run);
            run = null;
          }
        }
        if (run) runs.push(run);
        const seen = t.overspeed.filter((o) => o.reports > 0 && o.start >= FROM && o.end <= TO);
        const speedAt = new Map(rs.map((r) => [r.date, r.speed]));
        assert.deepEqual(
          seen.map((o) => [o.firstReport, o.lastReport, o.reports, o.maxReported]),
          runs.filter((x) => x[0]! > FROM + 3600 && x.at(-1)! < TO - 3600 || seen.some((o) => o.firstReport === x[0])).map((x) => [x[0], x.at(-1), x.length, Math.max(...x.map((d) => speedAt.get(d)!))]),
          `unit ${did} over ${limit} km/h`,
        );
        for (const o of t.overspeed) assert.ok(o.maxSpeed > limit && o.end > o.start);
        episodes += seen.length;
      }
    }
    assert.ok(episodes >= 10, `${episodes} episodes`);
  });

  test('one place, one address: the address follows the position', () => {
    const byPlace = new Map<string, string>();
    let checked = 0;
    for (const [did, { rs, t, jumps }] of all()) {
      // where a trip ends is where the next one starts: both read the same address
      const byDate = new Map(rs.map((r) => [r.date, r]));
      for (let i = 1; i < t.trips.length; i++) {
        const a = byDate.get(t.trips[i - 1]!.end);
        const b = byDate.get(t.trips[i]!.start);
        if (a?.address && b?.address) {
          assert.equal(b.address, a.address, `unit ${did}: the stop at ${a.date}`);
          checked++;
        }
      }
      for (const st of t.stops) {
        const here = rs.filter((r) => r.date > st.arrival && (st.departure === null || r.date < st.departure) && !jumps.has(r.date) && r.address !== null);
        assert.ok(new Set(here.map((r) => r.address)).size <= 1, `unit ${did}: a stop reads one address`);
      }
      for (const r of rs) {
        if (r.address === null || jumps.has(r.date)) continue;
        const key = `${r.lat},${r.lng}`;
        assert.equal(byPlace.get(key) ?? r.address, r.address, `the same position reads the same address (${key})`);
        byPlace.set(key, r.address);
      }
    }
    assert.ok(checked > 50, `${checked} stops`);
  });

  test('sensors stay where they are', () => {
    for (const did of [2016, 2017]) {
      const { rs, t } = data.get(did)!;
      assert.deepEqual(t.trips, []);
      assert.deepEqual(t.jumps, []);
      assert.equal(t.interval.driving, null);
      assert.ok(rs.length > 200);
      for (const r of rs) {
        assert.ok(km(r, rs[0]!) < 0.015 && r.speed < 2 && r.odometer === null && r.reportType !== 'motion_state');
      }
    }
  });

  test('windows compose: the reports of (a, c] are those of (a, b] and then (b, c]', async () => {
    // Monday evening to Tuesday evening: both units work
    const a = T0 - 36 * 3600;
    const cut = T0 - 6 * 3600;
    for (const did of [2006, 2025]) {
      const whole = await reports(did, a, cut);
      const trips = (await truth(did, a, cut)).trips;
      // cut inside trips, inside stops, and on report dates
      const bs = [trips[1]!.start + 37, trips[2]!.end - 1, whole[100]!.date, whole[whole.length - 40]!.date, a + 43_210];
      for (const b of bs) {
        const parts = [...(await reports(did, a, b)), ...(await reports(did, b, cut))];
        assert.deepEqual(parts, whole, `unit ${did}, cut at ${b}`);
      }
      // truth: a trip over the cut is in both halves, unchanged
      const t1 = (await truth(did, a, trips[1]!.start + 37)).trips;
      const t2 = (await truth(did, trips[1]!.start + 37, cut)).trips;
      assert.deepEqual(t1[t1.length - 1], trips[1]);
      assert.deepEqual(t2[0], trips[1]);
    }
  });

  test('the truth endpoint: bad input, unknown unit, defaults', async () => {
    assert.equal((await req(c.sb.url, 'GET', `/_sandbox/truth/2004?from=${T0}&to=${T0 - 10}`)).status, 422);
    assert.equal((await req(c.sb.url, 'GET', '/_sandbox/truth/2004?from=yesterday')).status, 400);
    assert.equal((await req(c.sb.url, 'GET', '/_sandbox/truth/2004?since=5')).status, 400);
    for (const bad of ['fast', '0', '-5', '401']) assert.equal((await req(c.sb.url, 'GET', `/_sandbox/truth/2004?limit=${bad}`)).status, 400, `limit=${bad}`);
    assert.equal((await req(c.sb.url, 'GET', '/_sandbox/truth/424242')).status, 404);
    assert.equal((await req(c.sb.url, 'POST', '/_sandbox/truth/2004')).status, 405);
    const day = (await req(c.sb.url, 'GET', '/_sandbox/truth/2004')).json;
    assert.equal(num(day.to), T0);
    assert.equal(num(day.from), T0 - 86400);
    assert.equal(num(day.limit), 100);
    // stale unit: nothing after its last report
    const stale = (await req(c.sb.url, 'GET', `/_sandbox/truth/2008?from=${T0 - 7 * 86400}&to=${T0}`)).json as unknown as Truth;
    const last = await reports(2008, T0 - 7 * 86400, T0);
    const lastDate = last[last.length - 1]!.date;
    assert.ok(stale.trips.every((tr) => tr.end <= lastDate));
    assert.equal(stale.stops[stale.stops.length - 1]!.departure, null, 'still parked where it stopped reporting');
  });
});

test('history and truth are deterministic given the seed', async () => {
  const snapshot = async (seed: number): Promise<string> => {
    const c = await signedIn({ seed });
    try {
      const h = (await c.s('GET', `/reports/history/2005/from:${T0 - 2 * 86400}/to:${T0}/`)).text;
      const t = (await req(c.sb.url, 'GET', `/_sandbox/truth/2005?from=${T0 - 2 * 86400}&to=${T0}`)).text;
      return h + t;
    } finally {
      await c.sb.close();
    }
  };
  const a = await snapshot(11);
  assert.equal(await snapshot(11), a);
  assert.notEqual(await snapshot(12), a);
});

test('generated units (--devices) drive too, and 10,000 of them cost nothing to keep', async () => {
  const c = await signedIn({ devices: 10_000, sessionTtl: 86400 });
  try {
    const lastDid = 2025 + 10_000;
    let moving = 0;
    const started = performance.now();
    for (const did of [2026, 2027, 7000, lastDid]) {
      const r = await c.s('GET', `/reports/history/${did}/from:${T0 - 86400}/to:${T0}/`);
      assert.equal(r.status, 200, r.text.slice(0, 200));
      const rs = arr(r.json.features).map(toR);
      assert.ok(rs.length > 40, `unit ${did}: ${rs.length} reports in a day`);
      assert.equal(num(arr(r.json.features)[0]!.properties!.did), did);
      moving += rs.filter(isStart).length;
      const t = (await req(c.sb.url, 'GET', `/_sandbox/truth/${did}?from=${T0 - 86400}&to=${T0}`)).json as unknown as Truth;
      assert.equal(t.did, did);
    }
    assert.ok(moving > 0, 'some generated unit drove that day');
    assert.ok(performance.now() - started < 5000);
    assert.equal((await c.s('GET', `/reports/history/${lastDid + 1}/`)).status, 404);
  } finally {
    await c.sb.close();
  }
});
