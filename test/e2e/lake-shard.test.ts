/**
 * --shard on report and watch: the same split as history. Three `report summary --shard K/3`
 * runs together are the `--all-units` report, with no unit in two shards; watch takes the
 * flag (and TRACKCTL_SHARD) and refuses a bad one with exit 2 before any request.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Harness } from '../helpers/cli.js';
import { FROM, startLakeHarness } from '../helpers/lake.js';

describe('--shard on report and watch', () => {
  let h: Harness;
  before(async () => {
    ({ h } = await startLakeHarness());
  });
  after(async () => {
    await h?.close();
  });

  test('report summary: 3 shards together are --all-units, pairwise disjoint', async () => {
    const args = ['report', 'summary', '--all-units', '--from', FROM, '--tz', 'UTC', '-o', 'ndjson'];
    const all = await h.run(args);
    assert.equal(all.code, 0, all.stderr);
    const rows: string[] = [];
    const units: number[][] = [];
    for (let k = 0; k < 3; k++) {
      const r = await h.run([...args, '--shard', `${k}/3`]);
      assert.equal(r.code, 0, r.stderr);
      const mine = r.stdout.trim() === '' ? [] : r.stdout.trim().split('\n');
      rows.push(...mine);
      units.push([...new Set(mine.map((l) => (JSON.parse(l) as { did: number }).did))]);
    }
    const flat = units.flat();
    assert.equal(new Set(flat).size, flat.length, `no unit in two shards: ${JSON.stringify(units)}`);
    assert.ok(units.filter((u) => u.length > 0).length >= 2, 'the units spread over the shards');
    assert.deepEqual(rows.sort(), all.stdout.trim().split('\n').sort());
  });

  test('watch and report refuse a bad shard before any request', async () => {
    await h.expectUsage(['watch', '--all-units', '--shard', '2/2'], 'K must be below N');
    await h.expectUsage(['report', 'trips', '--all-units', '--shard', 'x'], 'invalid --shard');
    h.sandbox.clearRequests();
    const r = await h.run(['watch', '--all-units'], { env: { TRACKCTL_SHARD: '1/0' } });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /invalid TRACKCTL_SHARD "1\/0"/);
    assert.deepEqual(h.sent(), []);
  });
});
