import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFences } from '../../src/reports/fences.js';
import { visits } from '../../src/reports/visits.js';
import { collect, report, T0 } from './report-fixture.js';

const square = (x0: number, y0: number, x1: number, y1: number) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];
// a depot 11.0–11.1 E × 48.0–48.1 N, and a customer site further east 11.3–11.4 E
const fences = parseFences({
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', properties: { name: 'depot' }, geometry: { type: 'Polygon', coordinates: [square(11.0, 48.0, 11.1, 48.1)] } },
    { type: 'Feature', properties: { name: 'site' }, geometry: { type: 'Polygon', coordinates: [square(11.3, 48.0, 11.4, 48.1)] } },
  ],
}, 'fences.geojson');

test('visits enter at the first report inside and exit at the first report outside', async () => {
  // a unit along the 48.05 parallel: lng by time (minutes from t=0, one report a minute)
  const t0 = 1_780_000_000;
  const track: [number, number][] = [];
  // out: 11.095 at m=4 (in the depot), 11.105 at m=5 (out); the site from 11.305 (m=25) to 11.395 (m=34)
  for (let m = 0; m <= 60; m++) track.push([m, 11.055 + m * 0.01]);
  // back: the site from 11.395 (m=85) to 11.305 (m=94), out at 11.295 (m=95); the depot from 11.095 (m=115)
  for (let m = 61; m <= 120; m++) track.push([m, 11.645 - (m - 60) * 0.01]);
  const reports = track.map(([m, lng]) => report({ date: t0 + m * 60, lat: 48.05, lng }));
  const got = await collect(visits(reports, fences));
  const at = (m: number) => t0 + m * 60;
  assert.deepEqual(got.map((v) => [v.fence, v.enter, v.exit, v.duration, v.open]), [
    ['depot', at(0), at(5), 300, false], // inside from the first report
    ['site', at(25), at(35), 600, false],
    ['site', at(85), at(95), 600, false],
    ['depot', at(115), null, 300, true], // still inside when the stream ends
  ]);
  assert.deepEqual(Object.keys(got[0] ?? {}), ['did', 'name', 'fence', 'enter', 'exit', 'duration', 'open']);
  assert.equal(got[0]?.did, 7);
});

test('a unit in two overlapping fences is visiting both; late reports are placed first', async () => {
  const both = parseFences({
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', properties: { name: 'big' }, geometry: { type: 'Polygon', coordinates: [square(0, 0, 0.1, 0.1)] } },
      { type: 'Feature', properties: { name: 'small' }, geometry: { type: 'Polygon', coordinates: [square(0.04, 0.04, 0.06, 0.06)] } },
    ],
  }, 'f');
  // 2-4 km apart, 100 s apart: a drive (a fix the reports could not have driven to is an outlier, and no visit's edge)
  const pos: [number, number][] = [[-0.01, 0.05], [0.01, 0.05], [0.05, 0.05], [0.07, 0.05], [0.11, 0.05]];
  const reports = pos.map(([lng, lat], i) => report({ date: 1000 + i * 100, lat, lng }));
  const shuffled = [reports[0], reports[2], reports[1], reports[4], reports[3]].map((r) => r!);
  for (const input of [reports, shuffled]) {
    const got = await collect(visits(input, both));
    assert.deepEqual(got.map((v) => [v.fence, v.enter, v.exit]), [['small', 1200, 1300], ['big', 1100, 1400]]);
  }
});

test('a jump out of the fence and back (a fix 10 km off, a detour no speed explains) neither ends nor starts a visit', async () => {
  const fence = parseFences({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: 'Yard' }, geometry: { type: 'Polygon', coordinates: [square(11.49, 48.09, 11.51, 48.11)] } }] }, 'yard');
  const at = (i: number, lat: number, lng: number) => report({ date: T0 + i * 600, speed: 0, lat, lng });
  const input = [at(0, 48.1, 11.5), at(1, 48.1, 11.5), at(2, 48.19, 11.5), at(3, 48.1, 11.5), at(4, 48.1, 11.5)];
  const got = await collect(visits(input, fence));
  assert.deepEqual(got.map((v) => [v.enter, v.exit, v.open]), [[T0, null, true]], 'one visit, open at the end');
});
