/**
 * history --layout hive to S3 (s3rver on 127.0.0.1): credentials from the shared files of
 * AWS_PROFILE (and the endpoint from its config), read back by pyarrow; an access key the
 * server does not know is exit 3 before the service is asked.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, type Harness } from '../helpers/cli.js';
import { FROM, readLake, startLakeHarness } from '../helpers/lake.js';
import { needPyarrow } from '../helpers/parquet.js';
import { S3_BUCKET, startS3Server, type S3Server } from '../helpers/s3rver.js';

describe('history --layout hive to S3: credentials', () => {
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

  test('wrong S3 credentials: exit 3 before the service is asked, and nothing written', async () => {
    h.sandbox.clearRequests();
    const r = await h.run(['history', '--all-units', '--out-dir', `s3://${S3_BUCKET}/denied`, '--layout', 'hive'], { env: { ...s3.env, AWS_ACCESS_KEY_ID: 'NOBODY' } });
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /SignatureDoesNotMatch|InvalidAccessKeyId|AccessDenied/);
    assert.deepEqual(h.sent(), []);
  });

  test('AWS_PROFILE and the shared credentials file', async (t) => {
    if (!needPyarrow(t)) return;
    const home = join(h.dir, 'home');
    mkdirSync(join(home, '.aws'), { recursive: true });
    writeFileSync(join(home, '.aws', 'credentials'), '[default]\naws_access_key_id = nobody\naws_secret_access_key = nothing\n\n[lake]\naws_access_key_id = S3RVER\naws_secret_access_key = S3RVER\n');
    writeFileSync(join(home, '.aws', 'config'), `[profile lake]\nregion = us-east-1\nendpoint_url = ${s3.endpoint}\n`);
    const r = await h.run(['history', '--all-units', '--from', FROM, '--out-dir', `s3://${S3_BUCKET}/profile`, '--layout', 'hive', '-o', 'ndjson'], { env: { HOME: home, AWS_PROFILE: 'lake' } });
    assert.equal(r.code, 0, r.stderr);
    const read = readLake(`s3://${S3_BUCKET}/profile`, 'ndjson', stream, s3.endpoint);
    assert.equal(read.rows, read.expected);
    assert.ok(read.equal, 'the objects hold the stream');
  });
});
