import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ringCrossing } from '../../src/reports/ring-check.js';
import { mulberry32 } from '../../src/sandbox/prng.js';

const ring = (...points: Array<[number, number]>): Float64Array => new Float64Array([...points, points[0] as [number, number]].flat());

test('simple rings, convex and concave, do not cross themselves', () => {
  assert.equal(ringCrossing(ring([0, 0], [10, 0], [10, 10], [0, 10])), undefined, 'a square');
  assert.equal(ringCrossing(ring([0, 0], [10, 0], [10, 10], [5, 2], [0, 10])), undefined, 'a dart (concave)');
  assert.equal(ringCrossing(ring([0, 0], [4, 0], [4, 1], [1, 1], [1, 3], [4, 3], [4, 4], [0, 4])), undefined, 'a C shape');
  assert.equal(ringCrossing(ring([0, 0], [0, 0], [10, 0], [10, 10], [10, 10], [0, 10])), undefined, 'repeated positions are ignored');
  assert.equal(ringCrossing(ring([0, 0], [5, 0], [10, 0], [10, 10], [0, 10])), undefined, 'a straight run through a middle position');
});

test('bow ties, stars, figure eights, touching and doubling back are found', () => {
  assert.deepEqual(ringCrossing(ring([0, 0], [10, 10], [10, 0], [0, 10]))?.edge, 0, 'a bow tie: the first edge crosses the third');
  assert.notEqual(ringCrossing(ring([0, 3], [10, 3], [2, -4], [5, 8], [8, -4])), undefined, 'a pentagram');
  assert.notEqual(ringCrossing(ring([0, 0], [4, 0], [4, 4], [2, 0], [0, 4])), undefined, 'a vertex touching an edge');
  assert.notEqual(ringCrossing(ring([0, 0], [4, 0], [4, 4], [2, 4], [2, 0], [2, -2], [0, -2])), undefined, 'an edge lying along another');
  assert.notEqual(ringCrossing(ring([0, 0], [10, 0], [5, 0], [5, 5])), undefined, 'a spike back along the previous edge');
});

/** All pairs of non-neighbouring edges, each tested by solving p + t·r = q + u·s (an independent method). */
function bruteForce(points: Array<[number, number]>): boolean {
  const pts = points.filter((p, i) => i === 0 || p[0] !== points[i - 1]?.[0] || p[1] !== points[i - 1]?.[1]);
  if (pts[0]?.[0] !== pts.at(-1)?.[0] || pts[0]?.[1] !== pts.at(-1)?.[1]) pts.push(pts[0] as [number, number]);
  const n = pts.length - 1;
  const cross = (a: [number, number], b: [number, number]) => a[0] * b[1] - a[1] * b[0];
  const sub = (a: [number, number], b: [number, number]): [number, number] => [a[0] - b[0], a[1] - b[1]];
  const meet = (i: number, j: number): boolean => {
    const p = pts[i] as [number, number], r = sub(pts[i + 1] as [number, number], p);
    const q = pts[j] as [number, number], s = sub(pts[j + 1] as [number, number], q);
    const denom = cross(r, s);
    const qp = sub(q, p);
    if (denom === 0) {
      if (cross(qp, r) !== 0) return false; // parallel, apart
      const rr = r[0] * r[0] + r[1] * r[1];
      const t0 = (qp[0] * r[0] + qp[1] * r[1]) / rr;
      const t1 = t0 + (s[0] * r[0] + s[1] * r[1]) / rr;
      return Math.max(Math.min(t0, t1), 0) <= Math.min(Math.max(t0, t1), 1);
    }
    const t = cross(qp, s) / denom, u = cross(qp, r) / denom;
    return t >= 0 && t <= 1 && u >= 0 && u <= 1;
  };
  for (let i = 0; i < n; i++) {
    // Neighbours share a position; they meet elsewhere only when the ring turns straight back.
    const j = (i + 1) % n;
    const a = sub(pts[i] as [number, number], pts[i + 1] as [number, number]);
    const b = sub(pts[j + 1] as [number, number], pts[j] as [number, number]);
    if (n >= 3 && cross(a, b) === 0 && a[0] * b[0] + a[1] * b[1] > 0) return true;
    for (let k = i + 2; k < n; k++) {
      if (i === 0 && k === n - 1) continue;
      if (meet(i, k)) return true;
    }
  }
  return false;
}

test('agrees with an all-pairs check on 20,000 random rings on a small grid (many touching and collinear cases)', () => {
  const random = mulberry32(21);
  let crossing = 0;
  for (let trial = 0; trial < 20_000; trial++) {
    const count = 3 + Math.floor(random() * 7);
    const points: Array<[number, number]> = [];
    for (let k = 0; k < count; k++) points.push([Math.floor(random() * 6) - 3, Math.floor(random() * 6)]);
    if (new Set(points.map((p) => p.join())).size < 3) continue;
    const expected = bruteForce(points);
    const flat = new Float64Array([...points, points[0] as [number, number]].flat());
    assert.equal(ringCrossing(flat) !== undefined, expected, JSON.stringify(points));
    if (expected) crossing++;
  }
  assert.ok(crossing > 1000 && crossing < 19_000, `both kinds were drawn (${crossing} crossing)`);
});

test('agrees on simple star-shaped rings with fractional coordinates, which never cross', () => {
  const random = mulberry32(7);
  for (let trial = 0; trial < 500; trial++) {
    // One position per sector, so no two neighbours are half a turn apart: the ring winds once around its centre.
    const count = 5 + Math.floor(random() * 200);
    const angles = Array.from({ length: count }, (_, k) => ((k + random() * 0.9) * 2 * Math.PI) / count);
    const points = angles.map((a): [number, number] => {
      const r = 0.001 + random() * 0.01;
      return [-84.4 + Math.cos(a) * r, 33.7 + Math.sin(a) * r];
    });
    const flat = new Float64Array([...points, points[0] as [number, number]].flat());
    assert.equal(bruteForce(points), false, `trial ${trial}: the all-pairs check agrees the ring is simple`);
    assert.equal(ringCrossing(flat), undefined, `trial ${trial}`);
  }
});
