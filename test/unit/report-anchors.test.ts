/**
 * Reanchoring a move's candidate (anchors.ts) keeps what it measured from fix to fix and skips
 * the pairs the way along the legs says are within the radius: it must answer as asking every
 * pair afresh does, on messy tracks (parked jitter, crawling, driving, jumps, steps right at the
 * radius, a pole and the antimeridian) and as the tracker changes its candidate.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Anchors } from '../../src/reports/anchors.js';
import { fartherThan, type Fix } from '../../src/reports/fix.js';
import { cosOfLat } from '../../src/reports/geo.js';
import { mulberry32 } from '../../src/sandbox/prng.js';

const fix = (lat: number, lng: number, t: number): Fix => ({
  r: { properties: { did: 1, name: 'u', lat, lng, speed: 0, date: t, odometer: null, address: null, reportType: 'report', reportValue: '' } },
  t, lat, lng, cosLat: cosOfLat(lat), speed: 0, moving: false, going: false, nextLat: Number.NaN, nextLng: Number.NaN, nextKm: 0,
});

/** The rule asked afresh: the smallest i ≥ 1 whose fix has every later one and f within the radius. */
function naive(c: Fix[], f: Fix, r: number): number {
  outer: for (let i = 1; i < c.length; i++) {
    const a = c[i] as Fix;
    if (fartherThan(a, f, r)) continue;
    for (let j = c.length - 1; j > i; j--) if (fartherThan(a, c[j] as Fix, r)) continue outer;
    return i;
  }
  return c.length;
}

const KM_PER_DEG = 111.195;

test('reanchoring answers as asking every pair afresh, on messy tracks and as the candidate changes', () => {
  const starts: Array<[number, number]> = [[33.75, -84.39], [89.9995, 10], [-0.0004, 179.9996], [60, 0]];
  // metres a report: parked jitter, a crawl, driving, a jump
  const steps = [2, 12, 30, 4_000];
  let asked = 0;
  let beyond = 0;
  for (const radiusM of [25, 100, 400]) {
    for (const [s, [lat0, lng0]] of starts.entries()) {
      const next = mulberry32(radiusM * 10 + s);
      const r = radiusM / 1000;
      const anchors = new Anchors();
      let c: Fix[] = [];
      let lat = lat0;
      let lng = lng0;
      let heading = next() * 2 * Math.PI;
      let kind = 2;
      for (let t = 0; t < 20_000; t++) {
        if (next() < 0.02) kind = Math.floor(next() * 3);
        heading += (next() - 0.5) * (kind === 0 ? 3 : 0.3);
        // now and then a step of exactly the radius, or a jump
        const m = next() < 0.01 ? (steps[3] as number) : next() < 0.05 ? radiusM : (steps[kind] as number) * (0.5 + next());
        lat = Math.max(-89.99999, Math.min(89.99999, lat + (m / 1000 / KM_PER_DEG) * Math.cos(heading)));
        lng += (m / 1000 / KM_PER_DEG / Math.max(0.01, Math.cos((lat * Math.PI) / 180))) * Math.sin(heading);
        if (lng > 180) lng -= 360;
        if (lng < -180) lng += 360;
        const f = fix(lat, lng, t);
        const roll = next();
        // the tracker's other changes: a new candidate, a stop (nothing held), a candidate cut from the old one
        if (roll < 0.003) c = [f];
        else if (roll < 0.005) {
          anchors.forget();
          c = [];
        } else if (roll < 0.007 && c.length > 2) c = [...c.slice(1), f];
        else if (c.length === 0) c.push(f);
        else {
          if (fartherThan(c[0] as Fix, f, r)) {
            const want = naive(c, f, r);
            const got = anchors.first(c, f, r);
            assert.equal(got, want, `radius ${radiusM} m, start ${s}, fix ${t}: ${c.length} held`);
            asked++;
            if (want > 1 && want < c.length) beyond++;
            anchors.drop(c, got);
          }
          if (c.length >= 12) anchors.drop(c, 1);
          c.push(f);
        }
      }
    }
  }
  assert.ok(asked > 50_000, `${asked} reanchorings`);
  assert.ok(beyond > 1_000, `${beyond} of them past the next fix`);
});
