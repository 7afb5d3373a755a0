/**
 * history --layout hive into a local directory: the real binary against the real sandbox,
 * read back by a real reader (pyarrow's dataset with hive partitioning) as one table with a
 * `day` column whose rows are exactly the NDJSON stream of the same window; parts sorted by
 * did then date, zstd by default, with their key-value metadata.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Harness } from '../helpers/cli.js';
import { FROM, readLake, startLakeHarness, tree } from '../helpers/lake.js';
import { needPyarrow } from '../helpers/parquet.js';

describe('history --layout hive', () => {
  let h: Harness;
  let stream: string;
  before(async () => {
    ({ h, stream } = await startLakeHarness({ stream: true }));
  });
  after(async () => {
    await h?.close();
  });

  test('a local tree is one table with a day column, equal to the NDJSON stream; parts sorted, zstd, with metadata', async (t) => {
    if (!needPyarrow(t)) return;
    const dir = join(h.dir, 'lake-local');
    const r = await h.run(['history', '--all-units', '--from', FROM, '--out-dir', dir, '--layout', 'hive', '-o', 'parquet']);
    assert.equal(r.code, 0, r.stderr);
    const files = tree(dir);
    assert.ok(files.length >= 3, `a part per day: ${files.join(', ')}`);
    for (const f of files) assert.match(f, /^day=\d{4}-\d{2}-\d{2}\/part-\d{8}T\d{6}Z-[0-9a-f]{6}-0\.parquet$/);
    const read = readLake(dir, 'parquet', stream);
    assert.ok(read.columns?.includes('day'), 'pyarrow adds the day column from the folders');
    assert.equal(read.rows, read.expected, 'as many rows as the stream has reports');
    assert.ok(read.equal, `same rows: missing ${read.missing.join('\n')} unexpected ${read.unexpected.join('\n')}`);
    for (const f of read.files) {
      assert.ok(f.sorted, `${f.path} is sorted by did then date`);
      assert.equal(f.codec, 'ZSTD');
      assert.equal(f.meta?.['trackctl.schema_version'], '1');
      assert.equal(f.meta?.['trackctl.speed_unit'], 'km/h');
      assert.equal(f.meta?.['trackctl.window_from'], new Date(Number(FROM) * 1000).toISOString());
      assert.match(f.meta?.['trackctl.version'] ?? '', /^\d+\.\d+\.\d+/);
    }
  });
});
