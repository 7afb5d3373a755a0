/**
 * The depots: `trackctl sandbox depots` prints them, docs/depots.geojson ships the default
 * seed's, a running sandbox serves its own, and they hold what parks there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runCli } from '../helpers/cli.js';
import { req, signedIn, T0 } from './helpers.js';

interface Fc {
  type: string;
  features: Array<{ type: string; properties: { name: string; speedLimit?: number }; geometry: { type: string; coordinates: number[][][] } }>;
}

/** Our own point-in-rectangle: the depots are axis-aligned rectangles (a ring of five corners). */
function inside(f: Fc['features'][number], lat: number, lng: number): boolean {
  const ring = f.geometry.coordinates[0]!;
  const lngs = ring.map((p) => p[0]!);
  const lats = ring.map((p) => p[1]!);
  return lat >= Math.min(...lats) && lat <= Math.max(...lats) && lng >= Math.min(...lngs) && lng <= Math.max(...lngs);
}

test('sandbox depots prints the shipped docs/depots.geojson for the default seed, another seed\'s depots with --seed, as the sandbox serves them', async () => {
  const shipped = readFileSync(join(ROOT, 'docs/depots.geojson'), 'utf8');
  const home = mkdtempSync(join(tmpdir(), 'depots-'));
  try {
    const env = { HOME: home, TRACKCTL_CONFIG_DIR: join(home, 'config') };
    const plain = await runCli(['sandbox', 'depots'], env);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout, shipped);
    assert.equal(plain.stderr, '');
    const fc = JSON.parse(shipped) as Fc;
    assert.equal(fc.type, 'FeatureCollection');
    assert.deepEqual(fc.features.map((f) => f.properties.name), ['North depot', 'Central depot', 'South depot']);
    for (const f of fc.features) {
      assert.equal(f.geometry.type, 'Polygon');
      const ring = f.geometry.coordinates[0]!;
      assert.equal(ring.length, 5);
      assert.deepEqual(ring[0], ring[4], 'a closed ring');
    }
    assert.deepEqual(fc.features.filter((f) => typeof f.properties.speedLimit === 'number').map((f) => f.properties.speedLimit), [20, 15]);

    const seven = await runCli(['sandbox', 'depots', '--seed', '7'], env);
    assert.equal(seven.code, 0, seven.stderr);
    assert.notEqual(seven.stdout, shipped);
    const c = await signedIn({ seed: 7 });
    try {
      const served = await req(c.sb.url, 'GET', '/_sandbox/depots');
      assert.equal(served.status, 200);
      assert.equal(served.text, seven.stdout);
    } finally {
      await c.sb.close();
    }

    const bad = await runCli(['sandbox', 'depots', '--seed', 'north'], env);
    assert.equal(bad.code, 2);
    assert.equal(bad.stdout, '');
    assert.match(bad.stderr, /--seed.*north/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('every vehicle sleeps in a depot and every depot sensor sits in one', async () => {
  const fc = JSON.parse(readFileSync(join(ROOT, 'docs/depots.geojson'), 'utf8')) as Fc;
  const c = await signedIn();
  try {
    const used = new Set<string>();
    for (let did = 2004; did <= 2019; did++) {
      const t = (await req(c.sb.url, 'GET', `/_sandbox/truth/${did}?from=${T0 - 6 * 86400}&to=${T0}`)).json as unknown as {
        stops: Array<{ arrival: number; departure: number | null; lat: number; lng: number }>;
      };
      // the longest stay is the night (or the weekend, or for ever: a sensor) at the depot
      const night = [...t.stops].sort((a, b) => (b.departure ?? T0) - b.arrival - ((a.departure ?? T0) - a.arrival))[0]!;
      const depot = fc.features.find((f) => inside(f, night.lat, night.lng));
      assert.ok(depot, `unit ${did} stays the night at ${night.lat},${night.lng}, outside every depot`);
      used.add(depot.properties.name);
    }
    assert.equal(used.size, 3, 'each depot has units');
  } finally {
    await c.sb.close();
  }
});

test('the geofence example of the README and docs/reports.md: report geofence --geofence docs/depots.geojson --all-units --sandbox finds visits', async () => {
  const home = mkdtempSync(join(tmpdir(), 'depots-'));
  try {
    const r = await runCli(
      ['--sandbox', 'report', 'geofence', '--geofence', join(ROOT, 'docs/depots.geojson'), '--all-units', '--from', '3d', '-o', 'json'],
      { HOME: home, TRACKCTL_CONFIG_DIR: join(home, 'config') },
      { timeoutMs: 110_000 },
    );
    assert.equal(r.code, 0, r.stderr);
    const visits = JSON.parse(r.stdout) as Array<{ did: number; fence: string; enter: number }>;
    assert.ok(visits.length >= 20, `${visits.length} visits`);
    assert.deepEqual(new Set(visits.map((v) => v.fence)), new Set(['North depot', 'Central depot', 'South depot']));
    assert.ok(new Set(visits.map((v) => v.did)).size >= 10, 'most units visit a depot');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
