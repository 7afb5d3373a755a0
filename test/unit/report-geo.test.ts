import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haversineKm, hasPosition } from '../../src/reports/geo.js';
import { odometerKm } from '../../src/reports/geo.js';
import { report } from './report-fixture.js';

// Vincenty's inverse formula on the WGS 84 ellipsoid: an independent distance, km.
function vincentyKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const a = 6378137, f = 1 / 298.257223563, b = a * (1 - f);
  const rad = Math.PI / 180;
  const L = (lon2 - lon1) * rad;
  const U1 = Math.atan((1 - f) * Math.tan(lat1 * rad));
  const U2 = Math.atan((1 - f) * Math.tan(lat2 * rad));
  const sinU1 = Math.sin(U1), cosU1 = Math.cos(U1), sinU2 = Math.sin(U2), cosU2 = Math.cos(U2);
  let lambda = L, prev: number, iter = 0;
  let sinSigma = 0, cosSigma = 0, sigma = 0, cos2Alpha = 0, cos2SigmaM = 0;
  do {
    const sinL = Math.sin(lambda), cosL = Math.cos(lambda);
    sinSigma = Math.sqrt((cosU2 * sinL) ** 2 + (cosU1 * sinU2 - sinU1 * cosU2 * cosL) ** 2);
    if (sinSigma === 0) return 0;
    cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosL;
    sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinL) / sinSigma;
    cos2Alpha = 1 - sinAlpha * sinAlpha;
    cos2SigmaM = cos2Alpha === 0 ? 0 : cosSigma - (2 * sinU1 * sinU2) / cos2Alpha;
    const C = (f / 16) * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha));
    prev = lambda;
    lambda = L + (1 - C) * f * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM ** 2)));
  } while (Math.abs(lambda - prev) > 1e-12 && ++iter < 200);
  const u2 = (cos2Alpha * (a * a - b * b)) / (b * b);
  const A = 1 + (u2 / 16384) * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)));
  const B = (u2 / 1024) * (256 + u2 * (-128 + u2 * (74 - 47 * u2)));
  const dSigma = B * sinSigma * (cos2SigmaM + (B / 4) * (cosSigma * (-1 + 2 * cos2SigmaM ** 2) - (B / 6) * cos2SigmaM * (-3 + 4 * sinSigma ** 2) * (-3 + 4 * cos2SigmaM ** 2)));
  return (b * A * (sigma - dSigma)) / 1000;
}

// Equirectangular projection: good for the short segments between two reports.
function flatKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const mid = ((lat1 + lat2) / 2) * (Math.PI / 180);
  const dy = (lat2 - lat1) * 111.195;
  const dx = (lon2 - lon1) * 111.195 * Math.cos(mid);
  return Math.hypot(dx, dy);
}

test('great-circle distances agree with Vincenty on the ellipsoid within 0.6 %', () => {
  const cases: [number, number, number, number][] = [
    [39.7392, -104.9903, 41.8781, -87.6298], // Denver – Chicago
    [47.6062, -122.3321, 33.749, -84.388], // Seattle – Atlanta
    [48.1, 11.5, 48.1, 11.6], // along a parallel
    [0, 0, 0.5, 0], // along a meridian at the equator
    [60, 10, 59.5, 10.8],
    [-33.9, 18.4, -34.1, 18.9],
  ];
  for (const [a, b, c, d] of cases) {
    const v = vincentyKm(a, b, c, d);
    const h = haversineKm(a, b, c, d);
    assert.ok(Math.abs(h - v) / v < 0.006, `${a},${b} → ${c},${d}: ${h} vs Vincenty ${v}`);
  }
  assert.ok(Math.abs(vincentyKm(39.7392, -104.9903, 41.8781, -87.6298) - 1480) < 15, 'Denver – Chicago is about 1,480 km');
});

test('short segments agree with a flat-earth approximation within 0.1 %', () => {
  for (let i = 0; i < 50; i++) {
    const lat = -70 + i * 2.8;
    const lng = -170 + i * 6.9;
    const dLat = Math.sin(i) * 0.004;
    const dLng = Math.cos(i * 1.3) * 0.006;
    const flat = flatKm(lat, lng, lat + dLat, lng + dLng);
    const h = haversineKm(lat, lng, lat + dLat, lng + dLng);
    assert.ok(Math.abs(h - flat) <= flat * 0.001 + 1e-9, `at ${lat},${lng}: ${h} vs ${flat}`);
  }
  assert.equal(haversineKm(10, 20, 10, 20), 0);
});

test('positions without a fix are not positions', () => {
  assert.equal(hasPosition(48.1, 11.5), true);
  assert.equal(hasPosition(0, 0), false);
  assert.equal(hasPosition(91, 0), false);
  assert.equal(hasPosition(Number.NaN, 3), false);
  assert.equal(hasPosition(null, 3), false);
});

test('the odometer is believed only when it advances plausibly', () => {
  const a = report({ date: 1000, odometer: 500 });
  const at = (dt: number, odometer: number | null) => report({ date: 1000 + dt, odometer });
  assert.equal(odometerKm(a, at(60, 501), 0.9), 1, 'a bit more than the straight line');
  assert.equal(odometerKm(a, at(60, 501.5), 0.2), 1.5, 'a winding road');
  assert.equal(odometerKm(a, at(60, 0), 0.9), undefined, 'reset');
  assert.equal(odometerKm(a, at(60, 499.95), 0), undefined, 'backwards, a little');
  assert.equal(odometerKm(a, at(60, 500), 2), undefined, 'stuck while the unit moved');
  assert.equal(odometerKm(a, at(60, 510), 1), undefined, '10 km in a minute');
  assert.equal(odometerKm(a, at(60, null), 1), undefined, 'missing');
  assert.equal(odometerKm(a, at(3600, 700), 150), 200, 'an hour of motorway');
});
