/**
 * The motion tracker's distances: fartherThan decides most cases by the haversine term alone
 * and legKm keeps a leg's distance with its first fix; both must answer as the plain great-circle
 * distance (haversineKm) does, to the bit, also right at the radius.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distKm, fartherThan, legKm, type Fix } from '../../src/reports/fix.js';
import { cosOfLat, haversineKm } from '../../src/reports/geo.js';
import { Centre } from '../../src/reports/place.js';
import { mulberry32 } from '../../src/sandbox/prng.js';

const fix = (lat: number, lng: number, t = 0): Fix => ({
  r: { properties: { did: 1, name: 'u', lat, lng, speed: 0, date: t, odometer: null, address: null, reportType: 'report', reportValue: '' } },
  t, lat, lng, cosLat: cosOfLat(lat), speed: 0, moving: false, going: false, nextLat: Number.NaN, nextLng: Number.NaN, nextKm: 0,
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
