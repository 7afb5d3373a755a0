/**
 * Hostile or mistaken input refused before any request: self-intersecting geofences,
 * geofence files built to exhaust memory, and locations with a scheme that is not supported.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { constants, existsSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
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
    h = await startHarness({ inProcess: true });
  });
  after(async () => h.close());

  test('a self-intersecting polygon is refused with exit 2, naming the feature, before any request', async () => {
    const file = h.file('fences.geojson', fences(['Depot', square], ['Yard', bowTie]));
    await h.expectUsage(['report', 'geofence', '--geofence', file, '2004', '--from', '1700000000'], 'feature 2 ("Yard"): outer ring crosses or touches itself');
    await h.expectUsage(['watch', '2004', '--geofence', file, '-o', 'ndjson'], '"Yard"');
  });

  test('a degenerate fence (a ring of one point repeated; a MultiPolygon of the same polygon twice) is refused with exit 2, before any request', async () => {
    const point = h.file('point.geojson', fences(['Depot', square], ['Dot', [[7, 50], [7, 50], [7, 50], [7, 50]]]));
    await h.expectUsage(['report', 'geofence', '--geofence', point, '2004', '--from', '1700000000'], 'feature 2 ("Dot"): outer ring encloses no area');
    await h.expectUsage(['watch', '2004', '--geofence', point, '-o', 'ndjson'], '"Dot"');
    const twice = h.file('twice.geojson', JSON.stringify({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: { name: 'Yard' }, geometry: { type: 'MultiPolygon', coordinates: [[square], [square]] } }],
    }));
    await h.expectUsage(['report', 'geofence', '--geofence', twice, '2004', '--from', '1700000000'], 'feature 1 ("Yard"): polygons 1 and 2 overlap');
    await h.expectUsage(['report', 'overspeed', '--limit', '80', '--geofence', twice, '2004', '--from', '1700000000'], 'polygons 1 and 2 overlap');
  });

  test('--geofence /dev/zero stops at the 32 MB limit: exit 2 naming the limit, before any request', async () => {
    await h.expectUsage(['report', 'geofence', '--geofence', '/dev/zero', '2004', '--from', '1700000000'], 'geofence file /dev/zero is over the limit of 32 MB');
  });

  test('a FIFO fed without end is read no further than the limit: the writer is cut off just past 32 MB', async () => {
    const fifo = join(h.dir, 'fences.fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    h.sandbox.clearRequests();
    const run = h.run(['report', 'geofence', '--geofence', fifo, '2004', '--from', '1700000000']);
    // Open for writing once the command opens it for reading; should it exit first, a reader of ours lets the open return.
    const opening = open(fifo, 'w');
    const first = await Promise.race([opening.then(() => 'opened' as const), run.then(() => 'exited' as const)]);
    if (first === 'exited') {
      const reader = await open(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      await (await opening).close();
      await reader.close();
      assert.fail(`the command exited before reading the FIFO: ${(await run).stderr}`);
    }
    const writer = await opening;
    const chunk = Buffer.alloc(1 << 20, 0x20);
    let written = 0;
    try {
      // 96 MB, three times the limit: a reader that stops at the limit closes the FIFO, and the next write fails (EPIPE).
      for (let i = 0; i < 96; i++) written += (await writer.write(chunk)).bytesWritten;
    } catch (err) {
      assert.equal((err as NodeJS.ErrnoException).code, 'EPIPE');
    }
    await writer.close();
    const r = await run;
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /over the limit of 32 MB/);
    assert.deepEqual(h.sent(), [], 'nothing is sent');
    assert.ok(written <= 34 * 1048576, `read ${(written / 1048576).toFixed(1)} MB, not far past the 32 MB limit`);
  });

  test('10 MB of "[" fails fast with exit 2 and a clear message, before any request', async () => {
    const file = join(h.dir, 'deep.geojson');
    writeFileSync(file, '['.repeat(10 * 1024 * 1024));
    await h.expectUsage(['report', 'geofence', '--geofence', file, '2004', '--from', '1700000000'], 'nested deeper than 32 levels');
  });
});

describe('locations with a scheme', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => h.close());

  test('--out-dir, --output-file, --checkpoint, --report and --geofence refuse scheme:// with exit 2 before any request, and make no local directory', async () => {
    const csv = h.file('devices.csv', 'name,tracker-id,type\nVan,359881234567897,TT8850\n');
    const cases: Array<[string[], string]> = [
      // s3:// holds the lake layout only (the lake's own tests cover it)
      [['history', '2004', '2005', '--from', '1700000000', '--out-dir', 's3://lake/x'], '--out-dir s3://lake/x needs --layout hive'],
      [['history', '2004', '2005', '--from', '1700000000', '--out-dir', 'http://lake/x', '--layout', 'hive'], '--out-dir http://lake/x: http:// locations are not supported'],
      [['history', '2004', '--from', '1700000000', '--out-dir', 'GS://bucket/prefix'], 'gs:// locations are not supported'],
      [['history', '2004', '--from', '1700000000', '--output-file', 'https://example.com/h.ndjson'], '--output-file'],
      [['history', '2004', '--checkpoint', 's3://lake/cp.json', '-o', 'ndjson'], '--checkpoint'],
      [['watch', '2004', '--checkpoint', 'file:///tmp/cp.json', '-o', 'ndjson'], '--checkpoint'],
      [['report', 'geofence', '2004', '--geofence', 's3://lake/fences.geojson'], '--geofence'],
      [['devices', 'import', csv, '--report', 's3://lake/report.ndjson'], '--report'],
    ];
    for (const [args, mention] of cases) await h.expectUsage(args, mention);
    for (const made of ['s3:', 'GS:', 'http:', 'https:', 'file:']) assert.equal(existsSync(join(process.cwd(), made)), false, `no local ./${made}`);
  });
});
