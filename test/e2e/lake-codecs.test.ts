/**
 * history --layout hive -o parquet --compression: each codec is what the files say (pyarrow
 * reads the column chunks' codec) and the tree reads back as the NDJSON stream of the window.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Harness } from '../helpers/cli.js';
import { FROM, readLake, startLakeHarness } from '../helpers/lake.js';
import { needPyarrow } from '../helpers/parquet.js';

describe('history --layout hive --compression', () => {
  let h: Harness;
  let stream: string;
  before(async () => {
    ({ h, stream } = await startLakeHarness({ stream: true }));
  });
  after(async () => {
    await h?.close();
  });

  test('--compression snappy, gzip and none are what the file says, and read back the same', async (t) => {
    if (!needPyarrow(t)) return;
    for (const [codec, named] of [['snappy', 'SNAPPY'], ['gzip', 'GZIP'], ['none', 'UNCOMPRESSED']] as const) {
      const dir = join(h.dir, `lake-${codec}`);
      const r = await h.run(['history', '--all-units', '--from', FROM, '--out-dir', dir, '--layout', 'hive', '-o', 'parquet', '--compression', codec]);
      assert.equal(r.code, 0, r.stderr);
      const read = readLake(dir, 'parquet', stream);
      assert.ok(read.equal, `${codec}: same rows`);
      assert.ok(read.files.every((f) => f.codec === named), `${codec}: ${read.files.map((f) => f.codec).join(',')}`);
    }
  });
});
