/**
 * Hostile or mistaken input refused before any request: self-intersecting geofences,
 * geofence files built to exhaust memory, and locations with a scheme that is not supported.
 */
import { after, before, describe, test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/cli.js';

const square = [[-84.41, 33.74], [-84.39, 33.74], [-84.39, 33.76], [-84.41, 33.76], [-84.41, 33.74]];
const bowTie = [[-84.41, 33.74], [-84.39, 33.76], [-84.39, 33.74], [-84.41, 33.76], [-84.41, 33.74]];
const fences = (...features: Array<[string, number[][]]>) =>
  JSON.stringify({
    type: 'FeatureCollection',
    features: features.map(([name, ring]) => ({ type: 'Feature', properties: { name }, geometry: { type: 'Polygon', coordinates: [ring] } })),
  });

describe('geofence files', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h.close());

  test('a self-intersecting polygon is refused with exit 2, naming the feature, before any request', async () => {
    const file = h.file('fences.geojson', fences(['Depot', square], ['Yard', bowTie]));
    await h.expectUsage(['report', 'geofence', '--geofence', file, '2004', '--from', '1700000000'], 'feature 2 ("Yard"): outer ring crosses or touches itself');
    await h.expectUsage(['watch', '2004', '--geofence', file, '-o', 'ndjson'], '"Yard"');
  });

  test('10 MB of "[" fails fast with exit 2 and a clear message, before any request', async () => {
    const file = join(h.dir, 'deep.geojson');
    writeFileSync(file, '['.repeat(10 * 1024 * 1024));
    await h.expectUsage(['report', 'geofence', '--geofence', file, '2004', '--from', '1700000000'], 'nested deeper than 32 levels');
  });
});
