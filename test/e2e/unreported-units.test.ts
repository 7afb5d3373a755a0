/**
 * A unit that never reported has no battery level. The service sends `lastBatteryLevel: 0`
 * (and `lastGPSTimestamp: 0`) for a device just created; trackctl shows no battery (null in
 * JSON, an empty cell in tables), never counts it as low, and watch tells it stale, never
 * battery_low. The reporting units of the demo fleet keep their levels, low ones still low.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnTo, startHarness, type Harness } from '../helpers/cli.js';
import { runPty } from '../helpers/pty.js';
import { needTool } from '../helpers/tools.js';
import { unitsPageData } from '../../src/io/pages/map/units.js';

interface UnitRec {
  category: string;
  did?: number;
  name: string;
  lastBatteryLevel?: number | null;
  lastGPSTimestamp?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('a unit that never reported', () => {
  let h: Harness;
  let did = 0;
  before(async () => {
    h = await startHarness({ inProcess: true });
    const created = await h.json<{ did: number }>(['devices', 'create', '--name', 'Van 7', '--tracker-id', '356938035643809', '--type', 'TT8850']);
    did = created.did;
  });
  after(async () => {
    await h.close();
  });

  test('the service sends battery 0 for it (what this is about)', async () => {
    const raw = JSON.parse((await h.run(['units', '--raw'])).stdout) as { devices: Record<string, { lastBatteryLevel: number; lastGPSTimestamp: number }> };
    assert.deepEqual([raw.devices[String(did)]?.lastBatteryLevel, raw.devices[String(did)]?.lastGPSTimestamp], [0, 0]);
  });

  test('units: null battery in JSON, an empty cell in the table, not listed or counted by --low-battery', async () => {
    const units = await h.json<UnitRec[]>(['units']);
    const mine = units.find((u) => u.did === did);
    assert.ok(mine);
    assert.equal(mine.lastBatteryLevel, null);
    // Reporting units keep their level; some are low.
    const reporting = units.filter((u) => u.did !== undefined && (u.lastGPSTimestamp ?? 0) > 0);
    assert.ok(reporting.every((u) => typeof u.lastBatteryLevel === 'number'));
    const lowOnes = reporting.filter((u) => (u.lastBatteryLevel as number) < 20).map((u) => u.did);
    assert.ok(lowOnes.length > 0, 'the demo fleet has units low on battery');

    const low = await h.json<UnitRec[]>(['units', '--low-battery', '20']);
    assert.deepEqual(low.map((u) => u.did).sort(), [...lowOnes].sort(), 'exactly the reporting units below 20%');

    const table = await h.run(['units', '--category', 'device', '--fields', 'id,name,lastBatteryLevel']);
    assert.equal(table.code, 0, table.stderr);
    const row = table.stdout.split('\n').find((l) => l.startsWith(`${did}\t`));
    assert.equal(row, `${did}\tVan 7\t`, 'an empty battery cell');
    // Piped, its last report is no time either (the terminal says "never"), not the service's 0.
    const last = await h.run(['units', '--category', 'device', '--fields', 'id,lastGPSTimestamp']);
    assert.equal(last.stdout.split('\n').find((l) => l.startsWith(`${did}\t`)), `${did}\t`);

    const csv = await h.run(['units', '--category', 'device', '-o', 'csv', '--fields', 'id,lastBatteryLevel']);
    assert.ok(csv.stdout.split(/\r?\n/).includes(`${did},`), csv.stdout);
  });

  test('devices create, get and list: null battery in JSON, an empty cell in the table', async () => {
    const created = await h.json<UnitRec>(['devices', 'create', '--name', 'Van 8', '--tracker-id', '356938035643810', '--type', 'TT8850']);
    assert.equal(created.lastBatteryLevel, null, 'the new device as printed by create');
    assert.equal((await h.json<UnitRec>(['devices', 'get', String(did)])).lastBatteryLevel, null);
    const listed = await h.json<UnitRec[]>(['devices', 'list']);
    assert.equal(listed.find((u) => u.did === did)?.lastBatteryLevel, null);
    assert.ok(listed.some((u) => (u.lastGPSTimestamp ?? 0) > 0 && typeof u.lastBatteryLevel === 'number'), 'reporting devices keep their level');
    const table = await h.run(['devices', 'list', '--fields', 'did,name,lastBatteryLevel']);
    assert.equal(table.code, 0, table.stderr);
    assert.equal(table.stdout.split('\n').find((l) => l.startsWith(`${did}\t`)), `${did}\tVan 7\t`, 'an empty battery cell');
    const raw = JSON.parse((await h.run(['devices', 'get', String(did), '--raw'])).stdout) as { result: Record<string, { lastBatteryLevel: number }> };
    assert.equal(raw.result[String(did)]?.lastBatteryLevel, 0, '--raw still prints what the service sent');
    assert.equal((await h.run(['devices', 'delete', String(created.did), '--yes'])).code, 0);
  });

  test('the units summary on a terminal does not count it as low', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const r = await runPty(['units', '--category', 'device', '--low-battery', '20'], h.env, { cols: 120, rows: 40 });
    assert.equal(r.code, 0, r.stderr);
    const lows = (await h.json<UnitRec[]>(['units', '--category', 'device', '--low-battery', '20'])).length;
    assert.match(r.screen, new RegExp(`${lows} low on battery`));
    assert.doesNotMatch(r.screen, new RegExp(`^\\s*${did}\\s`, 'm'), 'not listed');
  });

  test('watch: stale (never reported), never battery_low', async () => {
    const ck = join(h.dir, 'watch.ckpt');
    const out = join(h.dir, 'watch.ndjson');
    const run = spawnTo(h, ['watch', String(did), '--interval', '1s', '--low-battery', '50', '--checkpoint', ck, '-o', 'ndjson'], out);
    try {
      const end = Date.now() + 60_000;
      const rounds = (): number => {
        try {
          return (JSON.parse(readFileSync(ck, 'utf8')) as { rounds: number }).rounds;
        } catch {
          return 0;
        }
      };
      while (rounds() < 2) {
        assert.ok(Date.now() < end, `no second round: ${run.err()}`);
        await sleep(50);
      }
      run.kill('SIGINT');
      assert.equal(await run.exit, 0, run.err());
    } finally {
      run.kill('SIGKILL');
    }
    const events = readFileSync(out, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { event: string; lastReport?: number | null });
    assert.deepEqual(events.map((e) => [e.event, e.lastReport]), [['stale', null]]);
  });

  test('maps: a unit with a position but no report shows no battery (and is stale)', () => {
    const now = 1_795_600_000_000;
    const data = unitsPageData(
      [
        { category: 'device', did: 1, name: 'Never', lastValidLatitude: 33.7, lastValidLongitude: -84.4, lastGPSTimestamp: 0, lastBatteryLevel: 0 },
        { category: 'device', did: 2, name: 'Low', lastValidLatitude: 33.8, lastValidLongitude: -84.3, lastGPSTimestamp: now / 1000 - 60, lastBatteryLevel: 7 },
      ],
      { nowMs: now, staleS: 86400, zone: 'UTC' },
    );
    assert.deepEqual(data.units.map((u) => [u.name, u.battery, u.state]), [['Never', null, 'stale'], ['Low', 7, 'moving']]);
  });

  test('units -o html: the new device is left off the map as "without a position"', async () => {
    const r = await h.run(['units', '--category', 'device', '-o', 'html']);
    assert.equal(r.code, 0, r.stderr);
    const json = /<script type="application\/json" id="map-data">(.*?)<\/script>/s.exec(r.stdout)?.[1];
    const data = JSON.parse(json ?? 'null') as { subtitle: string; units: Array<{ id: number; battery: number | null }> };
    assert.ok(!data.units.some((u) => u.id === did));
    assert.match(data.subtitle, /1 without a position/);
    assert.ok(data.units.every((u) => typeof u.battery === 'number'), 'reporting units keep their battery');
  });
});
