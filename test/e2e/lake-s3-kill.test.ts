/**
 * history --layout hive --checkpoint to S3 (s3rver on 127.0.0.1), SIGKILLed at random
 * moments, uploads included, and run again: no object of a killed upload is visible, and
 * every report of the window is in exactly one object (pyarrow's S3 filesystem reads the
 * prefix as the NDJSON stream of the window, no row twice).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, type Harness } from '../helpers/cli.js';
import { FROM, killAndRerun, readLake, startLakeHarness } from '../helpers/lake.js';
import { needPyarrow } from '../helpers/parquet.js';
import { S3_BUCKET, startS3Server, type S3Server } from '../helpers/s3rver.js';

describe('history --layout hive to S3, killed', () => {
  let h: Harness;
  let s3: S3Server;
  before(async () => {
    ({ h } = await startLakeHarness());
    s3 = await startS3Server(ROOT);
  });
  after(async () => {
    await s3?.close();
    await h?.close();
  });

  test('SIGKILL at random moments with --checkpoint, then re-runs: every report in exactly one object', async (t) => {
    if (!needPyarrow(t)) return;
    // The stream of the window, which also times a whole run of the binary here (spawned, as the killed runs are).
    const t0 = Date.now();
    const r = await h.spawn(['history', '--all-units', '--from', FROM, '-o', 'ndjson']);
    const fullMs = Date.now() - t0;
    assert.equal(r.code, 0, r.stderr);
    const stream = h.file('stream.ndjson', r.stdout);
    const checkpoint = join(h.dir, 'lake.ckpt');
    const outcomes = await killAndRerun(h, `s3://${S3_BUCKET}/killed`, checkpoint, s3.env, fullMs, 3);
    assert.equal(outcomes.at(-1), 'exit 0');
    const read = readLake(`s3://${S3_BUCKET}/killed`, 'parquet', stream, s3.endpoint);
    assert.equal(read.rows, read.expected, `every report once (${outcomes.join(', ')}): ${read.rows} rows, ${read.distinct} distinct, ${read.expected} in the stream`);
    assert.ok(read.equal, `same rows: missing ${read.missing.join('\n')} unexpected ${read.unexpected.join('\n')}`);
    assert.equal((JSON.parse(readFileSync(checkpoint, 'utf8')) as { lake?: unknown }).lake, undefined, 'nothing is left pending');
  });
});
