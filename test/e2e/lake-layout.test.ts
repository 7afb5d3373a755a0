/**
 * history --layout hive, the rest of the layout: --partition unit folders, parts rolled over
 * at --max-file-size (read back whole by pyarrow), shards that split the fleet, and bad input
 * that is exit 2 before any request.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Harness } from '../helpers/cli.js';
import { FROM, readLake, startLakeHarness, tree } from '../helpers/lake.js';
import { needPyarrow } from '../helpers/parquet.js';

describe('history --layout hive: partitions, sizes, shards', () => {
  let h: Harness;
  let stream: string;
  let dids: number[];
  before(async () => {
    ({ h, stream } = await startLakeHarness({ stream: true }));
    dids = [...new Set(readFileSync(stream, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { properties: { did: number } }).properties.did))].sort((a, b) => a - b);
    assert.ok(dids.length >= 5, 'the demo fleet has units with history');
  });
  after(async () => {
    await h?.close();
  });

  test('--partition unit: did=<did>/ folders, one per unit with reports', async (t) => {
    if (!needPyarrow(t)) return;
    const dir = join(h.dir, 'lake-units');
    const r = await h.run(['history', '--all-units', '--from', FROM, '--out-dir', dir, '--layout', 'hive', '--partition', 'unit', '-o', 'ndjson']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual([...new Set(tree(dir).map((f) => f.split('/')[0]))].sort(), dids.map((d) => `did=${d}`).sort());
    const lines = tree(dir).flatMap((f) => readFileSync(join(dir, f), 'utf8').trim().split('\n'));
    assert.equal(lines.length, readFileSync(stream, 'utf8').trim().split('\n').length);
  });

  test('--partition unit with Parquet: pyarrow reads the tree as one table, did from the folders', async (t) => {
    if (!needPyarrow(t)) return;
    const dir = join(h.dir, 'lake-units-parquet');
    const r = await h.run(['history', '--all-units', '--from', FROM, '--out-dir', dir, '--layout', 'hive', '--partition', 'unit', '-o', 'parquet']);
    assert.equal(r.code, 0, r.stderr);
    // Both of pyarrow's ways to read a folder tree; each row's did is its folder's, and the parts leave did out.
    const script = String.raw`
import json, sys, collections
import pyarrow.parquet as pq, pyarrow.dataset as ds
where = sys.argv[1]
table = pq.read_table(where)
dataset = ds.dataset(where, format='parquet', partitioning='hive').to_table()
files = ds.dataset(where, format='parquet').files
print(json.dumps({
  'read_table': dict(collections.Counter(int(d) for d in table['did'].to_pylist())),
  'dataset': dict(collections.Counter(int(d) for d in dataset['did'].to_pylist())),
  'in_parts': sorted({c for f in files for c in pq.ParquetFile(f).schema_arrow.names if c == 'did'}),
}))
`;
    const py = spawnSync('python3', ['-c', script, dir], { encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.equal(py.status, 0, py.stderr);
    const got = JSON.parse(py.stdout) as { read_table: Record<string, number>; dataset: Record<string, number>; in_parts: string[] };
    const want: Record<string, number> = {};
    for (const line of readFileSync(stream, 'utf8').trim().split('\n')) {
      const did = String((JSON.parse(line) as { properties: { did: number } }).properties.did);
      want[did] = (want[did] ?? 0) + 1;
    }
    assert.deepEqual(got.read_table, want);
    assert.deepEqual(got.dataset, want);
    assert.deepEqual(got.in_parts, []);
  });

  test('--max-file-size rolls parts over; together they hold every report once', async (t) => {
    if (!needPyarrow(t)) return;
    const dir = join(h.dir, 'lake-small');
    const r = await h.run(['history', '--all-units', '--from', FROM, '--out-dir', dir, '--layout', 'hive', '-o', 'ndjson', '--max-file-size', '40KB']);
    assert.equal(r.code, 0, r.stderr);
    const files = tree(dir);
    const perDay = new Map<string, number>();
    for (const f of files) perDay.set(f.split('/')[0]!, (perDay.get(f.split('/')[0]!) ?? 0) + 1);
    assert.ok([...perDay.values()].some((n) => n >= 3), `several parts a day: ${JSON.stringify([...perDay])}`);
    for (const f of files) {
      const size = statSync(join(dir, f)).size;
      const lines = readFileSync(join(dir, f), 'utf8').trim().split('\n');
      // A part ends with the batch that reaches the size: at most one batch (2,000 reports) over it.
      assert.ok(size < 40_000 + Math.max(...lines.map((l) => l.length + 1)) * 2000, `${f}: ${size} bytes`);
    }
    const read = readLake(dir, 'ndjson', stream);
    assert.equal(read.rows, read.expected);
    assert.ok(read.equal, `same rows: missing ${read.missing.join('\n')}`);
  });

  test('3 shards together are --all-units, pairwise disjoint (flag, TRACKCTL_SHARD, JOB_COMPLETION_INDEX)', async () => {
    const shardDids: number[][] = [];
    const lines: string[] = [];
    for (const [args, env] of [
      [['--shard', '0/3'], {}],
      [[], { TRACKCTL_SHARD: '1/3' }],
      [['--shard', '3'], { JOB_COMPLETION_INDEX: '2' }],
    ] as const) {
      const r = await h.run(['history', '--all-units', '--from', FROM, '-o', 'ndjson', ...args], { env });
      assert.equal(r.code, 0, r.stderr);
      const mine = r.stdout.trim() === '' ? [] : r.stdout.trim().split('\n');
      lines.push(...mine);
      shardDids.push([...new Set(mine.map((l) => (JSON.parse(l) as { properties: { did: number } }).properties.did))]);
    }
    for (let i = 0; i < 3; i++) for (let j = i + 1; j < 3; j++) assert.deepEqual(shardDids[i]!.filter((d) => shardDids[j]!.includes(d)), [], `shards ${i} and ${j} share no unit`);
    assert.ok(shardDids.filter((s) => s.length > 0).length >= 2, `the units spread over the shards: ${JSON.stringify(shardDids)}`);
    assert.deepEqual(shardDids.flat().sort((a, b) => a - b), dids);
    assert.deepEqual(lines.sort(), readFileSync(stream, 'utf8').trim().split('\n').sort(), 'the shards\' reports are the whole stream');
  });

  test('bad input is exit 2 before any request', async () => {
    const out = join(h.dir, 'never');
    await h.expectUsage(['history', '--all-units', '--out-dir', 'gs://bucket/x', '--layout', 'hive'], 'gs:// locations are not supported');
    await h.expectUsage(['history', '--all-units', '--out-dir', 'http://127.0.0.1:9/x'], 'http:// locations are not supported');
    await h.expectUsage(['history', '--all-units', '--out-dir', 's3://lake/x'], 'needs --layout hive');
    await h.expectUsage(['history', '--all-units', '--layout', 'hive'], '--layout needs --out-dir');
    await h.expectUsage(['history', '--all-units', '--out-dir', out, '--layout', 'delta'], 'invalid --layout');
    await h.expectUsage(['history', '--all-units', '--out-dir', out, '--max-file-size', '1MB'], 'needs --layout hive');
    await h.expectUsage(['history', '--all-units', '--out-dir', out, '--layout', 'hive', '--max-file-size', '12 parsecs'], 'invalid --max-file-size');
    await h.expectUsage(['history', '--all-units', '--out-dir', out, '--layout', 'hive', '-o', 'parquet', '--compression', 'lz4'], 'invalid --compression');
    await h.expectUsage(['history', '--all-units', '--out-dir', out, '--layout', 'hive', '-o', 'ndjson', '--compression', 'gzip'], '--compression sets the codec of -o parquet');
    await h.expectUsage(['history', '--all-units', '--shard', '3/3'], 'K must be below N');
    await h.expectUsage(['history', '--all-units', '--shard', '3'], 'JOB_COMPLETION_INDEX is not set');
    h.sandbox.clearRequests();
    const r = await h.run(['history', '--all-units', '--out-dir', 's3://lake/x', '--layout', 'hive'], { env: { HOME: h.dir, AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9', AWS_EC2_METADATA_SERVICE_ENDPOINT: 'http://127.0.0.1:9' } });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /no AWS credentials/);
    assert.deepEqual(h.sent(), []);
  });
});
