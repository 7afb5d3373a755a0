/**
 * A checkpoint's record of a killed run's parts, on S3 (s3rver on 127.0.0.1): an object is
 * deleted only when the record names this run's prefix (same bucket and prefix) and the key
 * is a part of the run it names; another prefix, a name that is no part, another run's part
 * are left, and a part that is not there is not counted as removed.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { recoverPending, type LakePending } from '../../src/lake/journal.js';
import { S3Client } from '../../src/lake/s3/client.js';
import { fixedCredentials } from '../../src/lake/s3/refresh.js';
import { S3Storage } from '../../src/lake/storage.js';
import { ROOT } from '../helpers/cli.js';
import { S3_BUCKET, S3_LIMITS, startS3Server, type S3Server } from '../helpers/s3rver.js';

const RUN = '20261119T000000Z-abcdef';
const OTHER_RUN = '20261118T000000Z-123456';

describe('recovering a recorded run on S3', () => {
  let s3: S3Server;
  let client: S3Client;
  before(async () => {
    s3 = await startS3Server(ROOT);
    client = new S3Client({ credentials: fixedCredentials('s3rver', { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }), region: 'us-east-1', endpoint: new URL(s3.endpoint) }, S3_BUCKET, S3_LIMITS);
  });
  after(async () => {
    await client?.close();
    await s3?.close();
  });

  const storeOf = (pending: LakePending): { pending: LakePending | undefined; saves: number; save(): Promise<void> } => ({
    pending,
    saves: 0,
    async save() {
      this.saves++;
    },
  });

  test('another prefix is left; in this prefix only the named run\'s parts go', async () => {
    const part = `day=2026-11-19/part-${RUN}-0.ndjson`;
    for (const key of [`other/${part}`, 'mine/notes.txt', `mine/day=2026-11-19/part-${OTHER_RUN}-0.ndjson`, `mine/${part}`]) await client.put(key, Buffer.from('{}\n'));
    const storage = new S3Storage(`s3://${S3_BUCKET}/mine`, client, 'mine', 'application/x-ndjson');

    const elsewhere = storeOf({ run: RUN, outDir: `s3://${S3_BUCKET}/other`, keys: [part] });
    const left = await recoverPending(elsewhere, storage);
    assert.deepEqual({ removed: left?.removed, missing: left?.missing, left: left?.left.map((l) => l.key) }, { removed: 0, missing: 0, left: [part] });
    assert.match(left?.left[0]?.why ?? '', /not in this run's --out-dir/);
    assert.equal(elsewhere.pending, undefined, 'the record is cleared');
    assert.equal(elsewhere.saves, 1);

    const here = storeOf({ run: RUN, outDir: `s3://${S3_BUCKET}/mine/`, keys: ['notes.txt', `day=2026-11-19/part-${OTHER_RUN}-0.ndjson`, part, `day=2026-11-19/part-${RUN}-1.ndjson`] });
    const done = await recoverPending(here, storage);
    assert.equal(done?.removed, 1);
    assert.equal(done?.missing, 1, 'a part that is not there is not counted as removed');
    assert.deepEqual(done?.left.map((l) => l.key), ['notes.txt', `day=2026-11-19/part-${OTHER_RUN}-0.ndjson`]);
    assert.deepEqual((await client.list('')).sort(), [`mine/day=2026-11-19/part-${OTHER_RUN}-0.ndjson`, 'mine/notes.txt', `other/${part}`]);
  });
});
