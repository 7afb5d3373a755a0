/**
 * The motion tracker's distances: fartherThan decides most cases by the haversine term alone
 * and legKm keeps a leg's distance with its first fix; both must answer as the plain great-circle
 * distance (haversineKm) does, to the bit, also right at the radius.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distKm, fartherThan, legKm, outlierReason, type Fix } from '../../src/reports/fix.js';
import { cosOfLat, haversineKm, odometerKm } from '../../src/reports/geo.js';
import { Centre } from '../../src/reports/place.js';
import { mulberry32 } from '../../src/sandbox/prng.js';

const fix = (lat: number, lng: number, t = 0, speed = 0, odometer: number | null = null): Fix => ({
  r: { properties: { did: 1, name: 'u', lat, lng, speed, date: t, odometer, address: null, reportType: 'report', reportValue: '' } },
  t, lat, lng, cosLat: cosOfLat(lat), speed, moving: false, going: false, nextLat: Number.NaN, nextLng: Number.NaN, nextKm: 0,
});

/**
 * Messy pairs of positions, as trackers send them: parked jitter of metres, a drive of tens of
 * metres a second, jumps of kilometres to thousands, and all of them across the antimeridian,
 * at the poles and along the equator: where fartherThan's latitude shortcut meets the great circle
 * (at a pole), and where the bounds outlierReason takes instead of a third distance are widest.
 */
function* messyPairs(seed: number, n: number): Generator<[Fix, Fix]> {
  const next = mulberry32(seed);
  const places = [() => [next() * 170 - 85, next() * 360 - 180], () => [next() * 0.01 - 0.005, 179.999 + next() * 0.002], () => [89.99 + next() * 0.01, next() * 360 - 180],
    () => [-89.999 - next() * 0.001, next() * 360 - 180], () => [next() * 0.002, next() * 360 - 180], () => [39.7 + next() * 0.1, -104.9 - next() * 0.1]];
  const metres = [0, 0.3, 3, 14, 99.9, 100, 100.1, 150, 1000, 11_000, 300_000, 5_000_000];
  for (let k = 0; k < n; k++) {
    const [lat, lng] = (places[k % places.length] as () => number[])() as [number, number];
    const m = (metres[Math.floor(next() * metres.length)] as number) * (0.9 + next() * 0.2);
    const bearing = next() * 2 * Math.PI;
    const lat2 = Math.max(-90, Math.min(90, lat + (m / 111_195) * Math.cos(bearing)));
    let lng2 = lng + ((m / 111_195) * Math.sin(bearing)) / Math.max(1e-6, Math.cos((lat * Math.PI) / 180));
    lng2 = ((((lng2 + 180) % 360) + 360) % 360) - 180; // across the antimeridian, as trackers write it
    yield [fix(lat, lng, k), fix(lat2, lng2, k + 1 + Math.floor(next() * 600))];
  }
}

test('fartherThan answers as haversineKm(a, b) > km on messy input: jitter, driving, jumps, the antimeridian, the poles (a pole and a point on its meridian right at the radius), and right at the radius', () => {
  let n = 0;
  for (const [a, b] of messyPairs(23, 120_000)) {
    const exact = haversineKm(a.lat, a.lng, b.lat, b.lng);
    for (const km of [0.1, 0.05, 1, exact, exact * (1 + 1e-7), exact * (1 - 1e-7), exact * (1 + Number.EPSILON), exact * (1 - Number.EPSILON)]) {
      assert.equal(fartherThan(a, b, km), exact > km, `${a.lat},${a.lng} → ${b.lat},${b.lng} at ${km} km`);
      n++;
    }
  }
  assert.equal(n, 960_000);
});

/** outlierReason as it reads with every distance the exact great circle (haversineKm): the answer its bounds must give. */
function outlierByHaversine(a: Fix, x: Fix, c: Fix, limit: number): 'speed' | 'odometer' | 'detour' | undefined {
  const km = (u: Fix, v: Fix): number => haversineKm(u.lat, u.lng, v.lat, v.lng);
  const ax = km(a, x);
  const xc = km(x, c);
  const inKmh = (ax * 3600) / Math.max(1, Math.abs(x.t - a.t));
  const outKmh = (xc * 3600) / Math.max(1, Math.abs(c.t - x.t));
  if (inKmh > limit && outKmh > limit) return 'speed';
  const direct = km(a, c);
  const odo = odometerKm(a.r, c.r, direct);
  if (odo !== undefined) {
    for (const [u, v, leg] of [[a, x, ax], [x, c, xc]] as const) {
      const delta = (v.r.properties.odometer as number) - (u.r.properties.odometer as number);
      if (delta >= 0 && leg > delta && odometerKm(u.r, v.r, leg) === undefined) return 'odometer';
    }
  }
  const way = ax + xc;
  if (way <= 2 * direct + 1) return undefined;
  const could = odo ?? (1.2 * Math.max(a.speed, x.speed, c.speed) * Math.max(0, c.t - a.t)) / 3600;
  return way <= could + 1 ? undefined : 'detour';
}

test('outlierReason, which bounds the way from the fix before to the fix after by the legs through the middle one, answers as with every distance exact', () => {
  const next = mulberry32(29);
  const kinds = { speed: 0, odometer: 0, detour: 0, none: 0 };
  const pairs = messyPairs(31, 60_000);
  for (const [a0, x0] of pairs) {
    // the third fix: back near the first (a detour), on along the way, or near the middle one
    const [, c0] = pairs.next().value as [Fix, Fix];
    const back = next();
    const lat = back < 0.3 ? a0.lat + (c0.lat - a0.lat) * 1e-3 : back < 0.6 ? x0.lat + (c0.lat - a0.lat) * 1e-4 : c0.lat;
    const lng = back < 0.3 ? a0.lng + (c0.lng - a0.lng) * 1e-3 : back < 0.6 ? x0.lng + (c0.lng - a0.lng) * 1e-4 : c0.lng;
    const odo = next() < 0.7;
    const o = 1000 + next() * 10;
    const km = haversineKm(a0.lat, a0.lng, x0.lat, x0.lng);
    // odometers that agree with the way, count a little less or more than it, or nothing
    const counted = [km, km * 0.95, km * 1.1, 0, km + 0.5][Math.floor(next() * 5)] as number;
    const speed = [0, 40, 120][Math.floor(next() * 3)] as number;
    const a = fix(a0.lat, a0.lng, 0, speed, odo ? o : null);
    const x = fix(x0.lat, x0.lng, x0.t - a0.t, speed, odo ? o + counted : null);
    const c = fix(lat, lng, x.t + 1 + Math.floor(next() * 600), speed, odo ? o + counted + counted * next() * 2 : null);
    const want = outlierByHaversine(a, x, c, 300);
    const got = outlierReason(a, x, c, 300);
    kinds[want ?? 'none']++;
    const kind = got === undefined ? undefined : /km\/h from/.test(got) ? 'speed' : /odometer counts .* \(and agrees/.test(got) ? 'odometer' : 'detour';
    assert.equal(kind, want, `${a.lat},${a.lng} → ${x.lat},${x.lng} → ${c.lat},${c.lng}`);
  }
  for (const [kind, count] of Object.entries(kinds)) assert.ok(count > 100, `${kind}: ${count}`);
});

test('fartherThan answers as haversineKm(a, b) > km, also for distances within rounding of km', () => {
  const next = mulberry32(11);
  let boundary = 0;
  for (let k = 0; k < 200_000; k++) {
    const a = fix(next() * 170 - 85, next() * 360 - 180);
    const bearing = next() * 2 * Math.PI;
    const metres = [0, 1, 50, 99.99, 100, 100.01, 300, 5000][k % 8] as number;
    const b = fix(a.lat + (metres / 111_195) * Math.cos(bearing), a.lng + (metres / 111_195) * Math.sin(bearing) / Math.max(0.05, Math.cos((a.lat * Math.PI) / 180)));
    const exact = haversineKm(a.lat, a.lng, b.lat, b.lng);
    // the radius itself at the pair's own distance, and one double either side of it: the cases the term alone cannot tell
    for (const km of [0.1, 0, exact, exact * (1 + Number.EPSILON), exact * (1 - Number.EPSILON), 30_000]) {
      if (km === exact) boundary++;
      assert.equal(fartherThan(a, b, km), haversineKm(a.lat, a.lng, b.lat, b.lng) > km, `${a.lat},${a.lng} → ${b.lat},${b.lng} at ${km} km`);
    }
    assert.equal(distKm(a, b), exact);
  }
  assert.ok(boundary > 0);
});

test('legKm gives distKm, for the same next fix and for another one at the same time', () => {
  const a = fix(39.7, -104.9);
  const b = fix(39.7001, -104.9001, 1);
  const c = fix(39.7002, -104.9003, 1);
  assert.equal(legKm(a, b), distKm(a, b));
  assert.equal(legKm(a, b), distKm(a, b));
  assert.equal(legKm(a, c), distKm(a, c));
  assert.equal(legKm(a, b), distKm(a, b));
  assert.equal(legKm(a, fix(39.7001, -104.9001, 2)), distKm(a, b), 'another fix at the same place is as far');
});

test('a place centre keeps the cosine of its latitude as it moves', () => {
  const centre = new Centre(fix(10, 20));
  for (const [lat, lng] of [[10.001, 20], [10.002, 20.001], [9.999, 20.002], [10.003, 19.999]] as const) {
    centre.add(fix(lat, lng));
    assert.equal(centre.cosLat, cosOfLat(centre.lat));
  }
});

test("a place centre is the median of the evenly thinned sample of its fixes, as a sort of that sample gives it", () => {
  // The sample, kept independently: every fix while it holds 64 or fewer; at 65 every other one
  // goes and then only every 2nd, 4th, … fix is taken.
  const rand = mulberry32(31);
  for (let round = 0; round < 40; round++) {
    const n = 1 + Math.floor(rand() * 700);
    const fixes: Array<[number, number]> = [];
    for (let i = 0; i < n; i++) {
      // Jitter, repeated values (a fix sent again), jumps, and both zeros.
      const r = rand();
      const lat = r < 0.1 ? fixes.at(-1)?.[0] ?? 0 : r < 0.15 ? (rand() < 0.5 ? 0 : -0) : r < 0.2 ? 40 + rand() * 5 : 39.7 + (rand() - 0.5) * 1e-3;
      const lng = r < 0.1 ? fixes.at(-1)?.[1] ?? 0 : r < 0.15 ? -0 : -104.9 + (rand() - 0.5) * 1e-3;
      fixes.push([lat, lng]);
    }
    const centre = new Centre(fix(...(fixes[0] as [number, number])));
    let sample: Array<[number, number]> = [fixes[0] as [number, number]];
    let stride = 1;
    for (let i = 1; i < n; i++) {
      centre.add(fix(...(fixes[i] as [number, number])));
      if (i % stride !== 0) continue;
      sample.push(fixes[i] as [number, number]);
      if (sample.length > 64) {
        sample = sample.filter((_, k) => k % 2 === 0);
        stride *= 2;
      }
      const median = (xs: number[]): number => {
        const s = [...xs].sort((x, y) => x - y);
        const m = s.length >> 1;
        return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
      };
      assert.ok(Object.is(centre.lat, median(sample.map((p) => p[0]))), `round ${round}, fix ${i}: lat ${centre.lat}`);
      assert.ok(Object.is(centre.lng, median(sample.map((p) => p[1]))), `round ${round}, fix ${i}: lng ${centre.lng}`);
    }
  }
});
