/**
 * history --layout hive to S3: a real S3 API server (s3rver on 127.0.0.1; it checks the access key,
 * test/unit/lake-s3 the signatures)
 * takes the parts; pyarrow's S3 filesystem reads s3://bucket/prefix back as the same
 * table as the NDJSON stream.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, type Harness } from '../helpers/cli.js';
import { FROM, readLake, startLakeHarness } from '../helpers/lake.js';
import { needPyarrow } from '../helpers/parquet.js';
import { S3_BUCKET, startS3Server, type S3Server } from '../helpers/s3rver.js';

describe('history --layout hive to S3', () => {
  let h: Harness;
  let s3: S3Server;
  let stream: string;
  before(async () => {
    ({ h, stream } = await startLakeHarness({ stream: true }));
    s3 = await startS3Server(ROOT);
  });
  after(async () => {
    await s3?.close();
    await h?.close();
  });

  test('to S3: pyarrow reads s3://bucket/prefix as the same table; objects listed under day= prefixes', async (t) => {
    if (!needPyarrow(t)) return;
    const r = await h.run(['history', '--all-units', '--from', FROM, '--out-dir', `s3://${S3_BUCKET}/fleet/history`, '--layout', 'hive', '-o', 'parquet'], { env: s3.env });
    assert.equal(r.code, 0, r.stderr);
    const read = readLake(`s3://${S3_BUCKET}/fleet/history`, 'parquet', stream, s3.endpoint);
    assert.ok(read.files.length >= 3 && read.files.every((f) => /fleet\/history\/day=\d{4}-\d{2}-\d{2}\/part-.+-0\.parquet$/.test(f.path)), read.files.map((f) => f.path).join(', '));
    assert.equal(read.rows, read.expected);
    assert.ok(read.equal, `same rows: missing ${read.missing.join('\n')} unexpected ${read.unexpected.join('\n')}`);
    assert.ok(read.files.every((f) => f.sorted));
  });
});
