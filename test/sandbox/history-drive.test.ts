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
}
interface Stop {
  arrival: number;
  departure: number | null;
  lat: number;
  lng: number;
}
interface Truth {
  did: number;
  trips: Trip[];
  stops: Stop[];
  gaps: Array<{ from: number; to: number }>;
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
  };
};

const isStart = (r: R): boolean => r.reportType === 'motion_state' && r.reportValue === 'moving';
const isStop = (r: R): boolean => r.reportType === 'motion_state' && r.reportValue === 'stopped';

// A window well before the clock, so that every report in it has been received (late ones arrive within 6 h).
const FROM = T0 - 5 * 86400;
const TO = T0 - 7 * 3600;
const VEHICLES = [2004, 2005, 2006, 2007, 2009, 2011, 2014];
const TRACKED = [2021, 2023, 2025];

describe('the sandbox drives like a fleet', () => {
  let c: Client;
  const reports = async (did: number, from = FROM, to = TO): Promise<R[]> => {
    const r = await c.s('GET', `/reports/history/${did}/from:${from}/to:${to}/`);
    assert.equal(r.status, 200, r.text.slice(0, 300));
    return arr(r.json.features).map(toR);
  };
  const truth = async (did: number, from = FROM, to = TO): Promise<Truth> => {
    const r = await req(c.sb.url, 'GET', `/_sandbox/truth/${did}?from=${from}&to=${to}`);
    assert.equal(r.status, 200, r.text.slice(0, 300));
    return r.json as unknown as Truth;
  };
  const inGap = (t: Truth, a: number, b: number): boolean => t.gaps.some((g) => g.from <= b && g.to > a);
  const data = new Map<number, { rs: R[]; t: Truth }>();

  before(async () => {
    c = await signedIn({ sessionTtl: 30 * 86400 });
    for (const did of [...VEHICLES, ...TRACKED, 2016, 2017]) data.set(did, { rs: await reports(did), t: await truth(did) });
  });
  after(async () => {
    await c.sb.close();
  });

  test('tracked users exist where the test expects them', async () => {
    const all = (await c.s('GET', '/all-units/')).json;
    for (const did of TRACKED) assert.equal(str(all.devices![String(did)]!.deviceCategory), 'trackedUser', `unit ${did}`);
  });

  test('truth trips start and end exactly at the motion_state reports, at the places reported', () => {
    for (const did of [...VEHICLES, ...TRACKED]) {
      const { rs, t } = data.get(did)!;
      assert.ok(t.trips.length >= 5, `unit ${did}: ${t.trips.length} trips in five days`);
      const starts = rs.filter(isStart).map((r) => r.date);
      const stops = rs.filter(isStop).map((r) => r.date);
      const byDate = new Map(rs.map((r) => [r.date, r]));
      const inside = t.trips.filter((tr) => tr.start > FROM && tr.end <= TO);
      // a motion_state report is missing only when it fell into a reporting gap
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
      }
      // between trips, no other report says the unit started or stopped
      assert.equal(rs.filter((r) => r.reportType === 'motion_state').length, starts.length + stops.length);
    }
  });

  test('speed is the distance between consecutive moving reports over their time (km/h), and the trip maximum is reported', () => {
    let pairs = 0;
    let close = 0;
    for (const did of [...VEHICLES, ...TRACKED]) {
      const { rs, t } = data.get(did)!;
      for (const tr of t.trips.filter((x) => x.start > FROM && x.end <= TO && !inGap(t, x.start, x.end))) {
        const legs = rs.filter((r) => r.date >= tr.start && r.date <= tr.end);
        let max = 0;
        for (let i = 1; i < legs.length; i++) {
          const [p, q] = [legs[i - 1]!, legs[i]!];
          if (q.speed > max) max = q.speed;
          if (isStop(q)) continue;
          const v = km(p, q) / ((q.date - p.date) / 3600);
          pairs++;
          // a pair that spans a turn is slower than either speed; most pairs lie on one straight stretch
          assert.ok(v <= tr.maxSpeed * 1.01 + 0.5, `unit ${did}: ${v.toFixed(1)} km/h between reports, trip max ${tr.maxSpeed}`);
          if (Math.abs(v - q.speed) <= 0.02 * q.speed + 0.3) close++;
        }
        assert.equal(max, tr.maxSpeed, `unit ${did}: the fastest reported speed is the trip's maximum`);
        assert.ok(tr.maxSpeed > 5 && tr.maxSpeed < 130, `unit ${did}: plausible max speed ${tr.maxSpeed}`);
      }
    }
    assert.ok(pairs > 500, `${pairs} pairs`);
    assert.ok(close / pairs > 0.8, `${close} of ${pairs} pairs match their reported speed within 2 %`);
  });

  test('the odometer grows by the distance driven, and only while driving', () => {
    for (const did of [...VEHICLES, ...TRACKED]) {
      const { rs, t } = data.get(did)!;
      for (let i = 1; i < rs.length; i++) assert.ok(rs[i]!.odometer! >= rs[i - 1]!.odometer!, `unit ${did}: the odometer never goes back`);
      let path = 0;
      let odo = 0;
      for (const tr of t.trips.filter((x) => x.start > FROM && x.end <= TO && !inGap(t, x.start, x.end))) {
        const legs = rs.filter((r) => r.date >= tr.start && r.date <= tr.end);
        let sum = 0;
        for (let i = 1; i < legs.length; i++) sum += km(legs[i - 1]!, legs[i]!);
        const delta = legs[legs.length - 1]!.odometer! - legs[0]!.odometer!;
        // the reports cut the corners of the path a little, never more
        assert.ok(sum <= delta + 0.002 && sum >= delta * 0.97, `unit ${did}: path ${sum.toFixed(3)} km, odometer ${delta.toFixed(3)} km`);
        path += sum;
        odo += delta;
      }
      assert.ok(path >= odo * 0.985, `unit ${did}: over five days the reports trace ${path.toFixed(1)} of ${odo.toFixed(1)} km`);
      // parked: the odometer stands still, the position jitters by a few metres, speed is about zero
      for (const st of t.stops) {
        const here = rs.filter((r) => r.date > st.arrival && (st.departure === null || r.date < st.departure));
        for (const r of here) {
          assert.ok(km(r, st) < 0.01, `unit ${did}: ${(km(r, st) * 1000).toFixed(1)} m from the stop`);
          assert.ok(r.speed < 2, `unit ${did}: speed ${r.speed} while parked`);
          assert.equal(r.odometer, here[0]!.odometer);
        }
      }
    }
  });

  test('reports come every 30–60 s while driving and every 10–30 min while parked', () => {
    let parked = 0;
    for (const did of [...VEHICLES, ...TRACKED]) {
      const { rs, t } = data.get(did)!;
      const trips = t.trips;
      const movingAt = (x: number): boolean => trips.some((tr) => x >= tr.start && x <= tr.end);
      for (let i = 1; i < rs.length; i++) {
        const [p, q] = [rs[i - 1]!, rs[i]!];
        if (inGap(t, p.date, q.date)) continue;
        const dt = q.date - p.date;
        const tr = trips.find((x) => p.date >= x.start && q.date <= x.end);
        if (tr) assert.ok(dt >= 30 && dt <= 60, `unit ${did}: ${dt} s between reports while driving`);
        else if (!movingAt(p.date) && !movingAt(q.date) && !trips.some((x) => x.start > p.date && x.start < q.date)) {
          assert.ok(dt >= 600 && dt <= 1800, `unit ${did}: ${dt} s between parked reports at ${q.date}`);
          parked++;
        }
      }
    }
    assert.ok(parked > 500);
  });

  test('stops last 5–60 minutes, vehicles sleep at their depot, tracked users drive less', () => {
    const perDay = (dids: number[]): number => {
      let total = 0;
      for (const did of dids) total += data.get(did)!.t.trips.reduce((s, tr) => s + tr.distanceKm, 0);
      return total / dids.length / 5;
    };
    for (const did of VEHICLES) {
      const { t } = data.get(did)!;
      const depot = t.trips[0]!;
      for (const st of t.stops) {
        if (st.departure === null || st.arrival <= FROM) continue;
        const d = st.departure - st.arrival;
        const home = km(st, { lat: depot.startLat, lng: depot.startLng }) < 0.001;
        if (home) assert.ok(d > 4 * 3600, `unit ${did}: a night at the depot lasts ${d} s`);
        else assert.ok(d >= 300 && d <= 3600, `unit ${did}: a stop lasts ${d} s`);
      }
    }
    const vehicles = perDay(VEHICLES);
    const people = perDay(TRACKED);
    assert.ok(people < vehicles / 2, `tracked users ${people.toFixed(1)} km a day, vehicles ${vehicles.toFixed(1)}`);
  });

  test('sensors stay where they are', () => {
    for (const did of [2016, 2017]) {
      const { rs, t } = data.get(did)!;
      assert.deepEqual(t.trips, []);
      assert.ok(rs.length > 200);
      for (const r of rs) {
        assert.ok(km(r, rs[0]!) < 0.015 && r.speed < 2 && r.odometer === null && r.reportType !== 'motion_state');
      }
    }
  });

  test('windows compose: the reports of (a, c] are those of (a, b] and then (b, c]', async () => {
    const a = T0 - 2 * 86400;
    const cut = T0 - 86400;
    for (const did of [2004, 2021]) {
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
    assert.equal((await req(c.sb.url, 'GET', '/_sandbox/truth/424242')).status, 404);
    assert.equal((await req(c.sb.url, 'POST', '/_sandbox/truth/2004')).status, 405);
    const day = (await req(c.sb.url, 'GET', '/_sandbox/truth/2004')).json;
    assert.equal(num(day.to), T0);
    assert.equal(num(day.from), T0 - 86400);
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
