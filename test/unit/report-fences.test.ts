import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../src/errors.js';
import { containing, inFence, loadFences, MAX_FENCE_FILE_BYTES, parseFences } from '../../src/reports/fences.js';

const square = (x0: number, y0: number, x1: number, y1: number) => [
  [x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0],
];
const feature = (name: unknown, geometry: unknown) => ({ type: 'Feature', properties: { name }, geometry });
const collection = (...features: unknown[]) => ({ type: 'FeatureCollection', features });

// A depot 0..10 × 0..10 with a 4..6 × 4..6 courtyard cut out; a yard made of two squares;
// a triangle (0,20) (10,20) (0,30) whose hypotenuse is x + y = 30.
const fences = parseFences(
  collection(
    feature('depot', { type: 'Polygon', coordinates: [square(0, 0, 10, 10), square(4, 4, 6, 6)] }),
    feature('yard', { type: 'MultiPolygon', coordinates: [[square(20, 0, 22, 2)], [square(30, 0, 32, 2)]] }),
    feature('wedge', { type: 'Polygon', coordinates: [[[0, 20], [10, 20], [0, 30], [0, 20]]] }),
  ),
  'fences.geojson',
);
const names = (lng: number, lat: number) => containing(fences, lng, lat).map((f) => f.name);

test('a point inside a polygon and outside its hole is in the fence', () => {
  assert.deepEqual(names(1, 1), ['depot']);
  assert.deepEqual(names(9.99, 5), ['depot']);
  assert.deepEqual(names(5, 5), [], 'the courtyard is a hole');
  assert.deepEqual(names(3.9, 5), ['depot'], 'just left of the hole');
  assert.deepEqual(names(10.01, 5), []);
  assert.deepEqual(names(-0.01, 5), []);
});

test('each part of a MultiPolygon counts, the space between does not', () => {
  assert.deepEqual(names(21, 1), ['yard']);
  assert.deepEqual(names(31, 1), ['yard']);
  assert.deepEqual(names(26, 1), [], 'inside the bounding box of the whole yard, between its parts');
});

test('a slanted edge is tested exactly, not by its bounding box', () => {
  assert.deepEqual(names(4.9, 25), ['wedge'], 'x + y = 29.9 < 30');
  assert.deepEqual(names(5.1, 25), [], 'x + y = 30.1 > 30, still inside the bounding box');
  assert.deepEqual(names(1, 28.9), ['wedge']);
  assert.deepEqual(names(1, 29.1), []);
  assert.equal(inFence(fences[2]!, 9, 20.5), true);
});

test('overlapping fences all contain the point, in file order', () => {
  const both = parseFences(
    collection(
      feature('big', { type: 'Polygon', coordinates: [square(-1, -1, 1, 1)] }),
      feature('small', { type: 'Polygon', coordinates: [square(0, 0, 0.5, 0.5)] }),
    ),
    'x',
  );
  assert.deepEqual(containing(both, 0.25, 0.25).map((f) => f.name), ['big', 'small']);
  assert.deepEqual(containing(both, -0.5, 0.25).map((f) => f.name), ['big']);
  assert.deepEqual(both[0]!.bbox, [-1, -1, 1, 1]);
});

test('a ring given clockwise works the same as counter-clockwise', () => {
  const cw = parseFences(collection(feature('cw', { type: 'Polygon', coordinates: [square(0, 0, 2, 2).reverse()] })), 'x');
  assert.equal(inFence(cw[0]!, 1, 1), true);
  assert.equal(inFence(cw[0]!, 3, 1), false);
});

function rejects(json: unknown, reason: RegExp): void {
  assert.throws(() => parseFences(json, 'f.geojson'), (err: unknown) => {
    assert.ok(err instanceof UsageError, String(err));
    assert.match(err.message, /^f\.geojson: /);
    assert.match(err.message, reason);
    return true;
  });
}

test('anything but a FeatureCollection of named Polygons/MultiPolygons is refused with the reason', () => {
  const poly = { type: 'Polygon', coordinates: [square(0, 0, 1, 1)] };
  rejects([], /not a GeoJSON FeatureCollection/);
  rejects({ type: 'Feature', geometry: poly }, /not a GeoJSON FeatureCollection/);
  rejects({ type: 'FeatureCollection' }, /not a GeoJSON FeatureCollection/);
  rejects(collection(), /no features/);
  rejects(collection({ type: 'Point' }), /feature 1 is not a GeoJSON Feature/);
  rejects(collection(feature(undefined, poly)), /feature 1 has no "name"/);
  rejects(collection(feature(7, poly)), /feature 1 has no "name"/);
  rejects(collection(feature('a', poly), feature('a', poly)), /two features are named "a"/);
  rejects(collection(feature('p', { type: 'Point', coordinates: [0, 0] })), /"p"\) is a Point, not a Polygon or MultiPolygon/);
  rejects(collection(feature('n', null)), /"n"\) has no geometry/);
  rejects(collection(feature('r', { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [0, 0]]] })), /outer ring needs at least 4 positions/);
  rejects(collection(feature('o', { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] })), /outer ring is not closed/);
  rejects(collection(feature('h', { type: 'Polygon', coordinates: [square(0, 0, 9, 9), [[1, 1], [2, 1], [1, 1]]] })), /hole 1 needs at least 4/);
  rejects(collection(feature('s', { type: 'Polygon', coordinates: [[[0, 0], ['1', 0], [1, 1], [0, 0]]] })), /position 2 is not \[longitude, latitude\]/);
  rejects(collection(feature('z', { type: 'Polygon', coordinates: [square(0, 0, 200, 1)] })), /out of range/);
  rejects(collection(feature('m', { type: 'MultiPolygon', coordinates: [[square(0, 0, 1, 1)], 'x'] })), /polygon 2: a polygon is a non-empty array/);
  rejects(collection(feature('e', { type: 'Polygon', coordinates: [] })), /a polygon is a non-empty array of rings/);
  const bowTie = [[0, 0], [2, 2], [2, 0], [0, 2], [0, 0]];
  rejects(collection(feature('ok', poly), feature('bow tie', { type: 'Polygon', coordinates: [bowTie] })), /feature 2 \("bow tie"\): outer ring crosses or touches itself \(the edges from positions 1 and 3 meet/);
  rejects(collection(feature('hole', { type: 'Polygon', coordinates: [square(-9, -9, 9, 9), bowTie] })), /"hole"\): hole 1 crosses or touches itself/);
  rejects(collection(feature('yard', { type: 'MultiPolygon', coordinates: [[square(5, 5, 6, 6)], [bowTie]] })), /"yard"\), polygon 2: outer ring crosses/);
});

test('degenerate fences are refused: a ring with no area, polygons of one MultiPolygon that overlap, touch or nest', () => {
  rejects(collection(feature('dot', { type: 'Polygon', coordinates: [[[1, 1], [1, 1], [1, 1], [1, 1]]] })), /"dot"\): outer ring encloses no area/);
  rejects(collection(feature('hole', { type: 'Polygon', coordinates: [square(0, 0, 9, 9), [[1, 1], [1, 1], [1, 1], [1, 1]]] })), /"hole"\): hole 1 encloses no area/);
  const multi = (...polygons: number[][][]) => collection(feature('yard', { type: 'MultiPolygon', coordinates: polygons.map((ring) => [ring]) }));
  rejects(multi(square(0, 0, 1, 1), square(0, 0, 1, 1)), /"yard"\): polygons 1 and 2 overlap or touch \(near \[0, 0\]\); the polygons of a MultiPolygon must lie apart/);
  rejects(multi(square(0, 0, 2, 2), square(1, 1, 3, 3)), /polygons 1 and 2 overlap or touch/);
  rejects(multi(square(0, 0, 1, 1), square(1, 0, 2, 1)), /polygons 1 and 2 overlap or touch/); // sharing an edge
  rejects(multi(square(5, 5, 6, 6), square(0, 0, 10, 10)), /polygons 1 and 2 overlap \(polygon 1 lies inside polygon 2\)/);
  rejects(multi(square(20, 0, 21, 1), square(0, 0, 10, 10), square(2, 2, 3, 3)), /polygons 2 and 3 overlap \(polygon 3 lies inside polygon 2\)/);
  // Apart (even within each other's bounding box) is fine.
  const apart = parseFences(multi(square(0, 0, 1, 1), [[2, 0], [3, 0], [3, 3], [0, 3], [0, 2], [2, 2], [2, 0]]), 'f');
  assert.equal(apart[0]!.polygons.length, 2);
});

test('loadFences reads a file; an unreadable or non-JSON file is a usage error naming it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fences-'));
  const good = join(dir, 'good.geojson');
  writeFileSync(good, JSON.stringify(collection(feature('depot', { type: 'Polygon', coordinates: [square(0, 0, 1, 1)] }))));
  const loaded = await loadFences(good);
  assert.equal(loaded[0]!.name, 'depot');
  const bad = join(dir, 'bad.geojson');
  writeFileSync(bad, '{"type": "FeatureCollection",');
  await assert.rejects(loadFences(bad), (e: unknown) => e instanceof UsageError && e.message.includes(bad) && /not JSON/.test(e.message));
  await assert.rejects(loadFences(join(dir, 'missing.geojson')), (e: unknown) => e instanceof UsageError && /cannot read geofence file .*missing\.geojson: no such file/.test(e.message));
  await assert.rejects(loadFences(dir), (e: unknown) => e instanceof UsageError && /cannot read geofence file/.test(e.message));
});

test('loadFences bounds the file before parsing: too large, or nested too deep, is a usage error naming it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fences-'));
  const deep = join(dir, 'deep.geojson');
  writeFileSync(deep, '['.repeat(10 * 1024 * 1024));
  await assert.rejects(loadFences(deep), (e: unknown) => e instanceof UsageError && e.message.includes(deep) && /nested deeper than 32 levels, at character 33/.test(e.message));
  // Brackets inside strings are text, not nesting.
  const named = join(dir, 'named.geojson');
  writeFileSync(named, JSON.stringify(collection(feature('[['.repeat(40), { type: 'Polygon', coordinates: [square(0, 0, 1, 1)] }))));
  assert.equal((await loadFences(named))[0]!.name, '[['.repeat(40));
  const big = join(dir, 'big.geojson');
  writeFileSync(big, '');
  truncateSync(big, MAX_FENCE_FILE_BYTES + 1);
  await assert.rejects(loadFences(big), (e: unknown) => e instanceof UsageError && e.message.includes(big) && /over the limit of 32 MB/.test(e.message));
});
