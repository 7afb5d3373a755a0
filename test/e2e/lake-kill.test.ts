/**
 * history --layout hive --checkpoint into a local directory, SIGKILLed at random moments and
 * run again: every report of the window lands in exactly one part (pyarrow reads the tree
 * as the NDJSON stream of the window, no row twice), no staged file is left, and the
 * checkpoint has nothing pending.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Harness } from '../helpers/cli.js';
import { FROM, killAndRerun, readLake, startLakeHarness, tree } from '../helpers/lake.js';
import { needPyarrow } from '../helpers/parquet.js';

describe('history --layout hive, killed', () => {
  let h: Harness;
  before(async () => {
    ({ h } = await startLakeHarness());
  });
  after(async () => {
    await h?.close();
  });

  test('SIGKILL at random moments with --checkpoint, then re-runs: every report in exactly one file', async (t) => {
    if (!needPyarrow(t)) return;
    // The stream of the window, which also times a whole run of the binary here (spawned, as the killed runs are).
    const t0 = Date.now();
    const r = await h.spawn(['history', '--all-units', '--from', FROM, '-o', 'ndjson']);
    const fullMs = Date.now() - t0;
    assert.equal(r.code, 0, r.stderr);
    const stream = h.file('stream.ndjson', r.stdout);
    const dir = join(h.dir, 'lake');
    const checkpoint = join(h.dir, 'lake.ckpt');
    const outcomes = await killAndRerun(h, dir, checkpoint, {}, fullMs, 4);
    assert.equal(outcomes.at(-1), 'exit 0');
    assert.deepEqual(tree(dir).filter((f) => f.split('/').pop()!.startsWith('.')), [], 'no staged file is left');
    const read = readLake(dir, 'parquet', stream);
    assert.equal(read.rows, read.expected, `every report once (${outcomes.join(', ')}): ${read.rows} rows, ${read.distinct} distinct, ${read.expected} in the stream`);
    assert.ok(read.equal, `same rows: missing ${read.missing.join('\n')} unexpected ${read.unexpected.join('\n')}`);
    assert.equal((JSON.parse(readFileSync(checkpoint, 'utf8')) as { lake?: unknown }).lake, undefined, 'nothing is left pending');
  });
});
