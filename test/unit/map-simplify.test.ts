/**
 * The drawing's line simplification against a plain Douglas-Peucker run again at each
 * tolerance (the reference below: split a segment at its farthest point while that lies beyond
 * the tolerance), on messy tracks: random walks, doubling back, points repeated, straight runs
 * with ties, silences that jump, kept indices out of range or repeated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simplifyIndices, simplifyToBudget, simplifyToBudgets } from '../../src/io/pages/map/simplify.js';
import { seeded, type Random } from '../helpers/messy-json.js';

function reference(lat: number[], lng: number[], tolerance: number, keep: number[]): number[] {
  const n = lat.length;
  if (n <= 2) return lat.map((_, i) => i);
  const kx = Math.cos((lat[0]! * Math.PI) / 180);
  const keepIt = new Set([0, n - 1, ...keep]);
  const split = (first: number, last: number): void => {
    let worst = -1;
    let worstD2 = tolerance * tolerance;
    const [ax, ay] = [lng[first]! * kx, lat[first]!];
    const [dx, dy] = [lng[last]! * kx - ax, lat[last]! - ay];
    const len2 = dx * dx + dy * dy;
    for (let i = first + 1; i < last; i++) {
      const [px, py] = [lng[i]! * kx - ax, lat[i]! - ay];
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
      const d2 = (px - t * dx) ** 2 + (py - t * dy) ** 2;
      if (d2 > worstD2) [worst, worstD2] = [i, d2];
    }
    if (worst < 0) return;
    keepIt.add(worst);
    split(first, worst);
    split(worst, last);
  };
  split(0, n - 1);
  return [...keepIt].filter((i) => i >= 0 && i < n).sort((a, b) => a - b);
}

/** A track of one of several kinds, from a seed. */
function track(r: Random): { lat: number[]; lng: number[] } {
  const n = 2 + r.int(400);
  const lat: number[] = [];
  const lng: number[] = [];
  let [y, x] = [33.75 + r.int(100) / 10, -84.39 + r.int(100) / 10];
  const kind = r.int(5);
  for (let i = 0; i < n; i++) {
    if (kind === 0) [y, x] = [y + (r.int(2001) - 1000) * 1e-6, x + (r.int(2001) - 1000) * 1e-6]; // a random walk
    else if (kind === 1) x += (i < n / 2 ? 1 : -1.5) * 1e-4; // out and back along one line
    else if (kind === 2) [y, x] = r.chance(0.5) ? [y, x] : [y + r.int(3) * 1e-5, x]; // stands, repeated points
    else if (kind === 3) [y, x] = [y + 1e-4, x + (i % 10 === 0 ? 2e-4 : 1e-4)]; // straight runs, equal distances
    else [y, x] = r.chance(0.05) ? [y + (r.int(200) - 100) * 1e-3, x + (r.int(200) - 100) * 1e-3] : [y + r.int(3) * 1e-5, x + r.int(3) * 1e-5]; // jumps after silences
    lat.push(Math.round(y * 1e6) / 1e6);
    lng.push(Math.round(x * 1e6) / 1e6);
  }
  return { lat, lng };
}

test('simplifyIndices keeps what Douglas-Peucker run at that tolerance keeps, on messy tracks', () => {
  for (let seed = 1; seed <= 600; seed++) {
    const r = seeded(seed);
    const { lat, lng } = track(r);
    const keep = Array.from({ length: r.int(4) }, () => r.int(lat.length + 4) - 2);
    for (const tolerance of [0, 1e-6, 1e-5, 3e-5, 1e-4, 1e-3, 1e-1]) {
      assert.deepEqual(simplifyIndices(lat, lng, tolerance, keep), reference(lat, lng, tolerance, keep), `seed ${seed}, tolerance ${tolerance}`);
    }
  }
});

/** The reference for a budget: the tolerances tried, as simplifyToBudget describes them. */
function referenceToBudget(lat: number[], lng: number[], budget: number, keep: number[]): number[] {
  if (lat.length <= budget) return lat.map((_, i) => i);
  const [minLat, maxLat, minLng, maxLng] = [Math.min(...lat), Math.max(...lat), Math.min(...lng), Math.max(...lng)];
  const diagonal = Math.hypot(maxLat - minLat, (maxLng - minLng) * Math.cos(((minLat + maxLat) * Math.PI) / 360));
  let tolerance = Math.max(diagonal / 4000, 1e-6);
  let want = reference(lat, lng, tolerance, keep);
  while (!(want.length <= Math.max(budget, keep.length + 2) || tolerance > diagonal)) {
    tolerance *= 2;
    want = reference(lat, lng, tolerance, keep);
  }
  return want;
}

test('simplifyToBudget(s) give the first doubled tolerance whose Douglas-Peucker fits each budget', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const r = seeded(seed);
    const { lat, lng } = track(r);
    const keep = Array.from({ length: r.int(4) }, () => r.int(lat.length));
    const [line, dots] = [2 + r.int(40), 2 + r.int(400)];
    const want = referenceToBudget(lat, lng, line, keep);
    assert.deepEqual(simplifyToBudget(lat, lng, line, keep), want, `seed ${seed}, budget ${line}`);
    assert.deepEqual(simplifyToBudgets(lat, lng, [line, dots], keep), [want, referenceToBudget(lat, lng, dots, keep)], `seed ${seed}, budgets ${line} and ${dots}`);
  }
});
