/**
 * The lake tests' reader and runners: pyarrow's dataset with hive partitioning reads a tree
 * (local, or s3://… through pyarrow's S3 filesystem) and compares it, row for row, with an
 * NDJSON stream of the same window; a run of the binary that is SIGKILLed at a given moment; the
 * harness they share.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, startHarness, type Harness } from './cli.js';

export const T0 = 1_795_000_000; // a frozen clock (seconds): 2026-11-19T…Z
export const FROM = String(T0 - 2 * 86400);

export interface LakeHarness {
  h: Harness;
  /** A file holding the NDJSON stream of the window (FROM to the clock), with `stream: true`. */
  stream: string;
}

/**
 * The lake files' set-up: the demo fleet's sandbox at the frozen clock T0, signed in, its runs
 * in-process (a test that kills a run spawns it: runKilled, h.spawn); with `stream`, the
 * window's NDJSON stream that every tree is read back against.
 */
export async function startLakeHarness(opts: { stream?: boolean } = {}): Promise<LakeHarness> {
  const h = await startHarness({ now: () => T0 * 1000, sessionTtl: 30 * 86400, inProcess: true });
  if (!opts.stream) return { h, stream: '' };
  const r = await h.run(['history', '--all-units', '--from', FROM, '-o', 'ndjson']);
  if (r.code !== 0) {
    await h.close();
    throw new Error(`the window's stream: exit ${r.code}: ${r.stderr}`);
  }
  return { h, stream: h.file('stream.ndjson', r.stdout) };
}

/** pyarrow reads a hive tree (local, or s3://… through its S3 filesystem) and compares it with an NDJSON stream. */
const READER = String.raw`
import json, sys, datetime
import pyarrow as pa, pyarrow.dataset as ds, pyarrow.parquet as pq, pyarrow.fs as pafs
where, fmt, ndjson, endpoint = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
fs = None
if where.startswith('s3://'):
  fs = pafs.S3FileSystem(access_key='S3RVER', secret_key='S3RVER', endpoint_override=endpoint, scheme='http', region='us-east-1')
  where = where[5:]
KNOWN = ['aid','did','name','availability','lat','lng','alt','speed','heading','source','address','date',
         'battery','odometer','precision','satellites','temperature','reportType','reportValue','message']
def norm(row):
  # JSON has one kind of number; the columns have two: compare as numbers.
  return json.dumps({k: (float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v) for k, v in row.items()}, sort_keys=True)
def want(feature):
  props = feature['properties']
  row = {k: props.get(k) for k in KNOWN}
  row['lng'], row['lat'] = feature['geometry']['coordinates']
  row['date'] = props['date'] * 1000
  extra = {k: v for k, v in props.items() if k not in KNOWN}
  row['extra'] = json.dumps(extra, sort_keys=True) if extra else None
  row['day'] = datetime.datetime.fromtimestamp(props['date'], datetime.timezone.utc).strftime('%Y-%m-%d')
  return norm(row)
out = {'files': []}
dataset = ds.dataset(where, filesystem=fs, format=fmt if fmt == 'parquet' else 'json', partitioning='hive')
if fmt == 'parquet':
  table = dataset.to_table()
  out['columns'] = table.column_names
  table = table.set_column(table.column_names.index('date'), 'date', table['date'].cast(pa.int64()))
  got = []
  for row in table.to_pylist():
    if row['extra'] is not None: row['extra'] = json.dumps(json.loads(row['extra']), sort_keys=True)
    row['day'] = str(row['day'])
    got.append(norm(row))
  for f in dataset.files:
    pf = pq.ParquetFile(f, filesystem=fs) if fs else pq.ParquetFile(f)
    t = pf.read(columns=['did', 'date'])
    keys = list(zip(t['did'].to_pylist(), t['date'].cast(pa.int64()).to_pylist()))
    md = pf.metadata
    out['files'].append({'path': f, 'rows': md.num_rows, 'sorted': keys == sorted(keys),
      'codec': md.row_group(0).column(0).compression if md.num_row_groups else None,
      'meta': {k.decode(): v.decode() for k, v in (md.metadata or {}).items()}})
else:
  got = []
  for f in dataset.files:
    with (fs.open_input_stream(f) if fs else open(f, 'rb')) as stream:
      lines = [json.loads(l) for l in stream.read().decode().splitlines() if l.strip()]
    keys = [(l['properties']['did'], l['properties']['date']) for l in lines]
    out['files'].append({'path': f, 'rows': len(lines), 'sorted': keys == sorted(keys)})
    day = f.split('day=')[1].split('/')[0] if 'day=' in f else None
    for l in lines:
      w = json.loads(want(l))
      w['day'] = day
      got.append(norm(w))
expected = []
with open(ndjson) as lines:
  for line in lines:
    if line.strip(): expected.append(want(json.loads(line)))
out['rows'] = len(got)
out['expected'] = len(expected)
out['distinct'] = len(set(got))
g, e = sorted(got), sorted(expected)
out['equal'] = g == e
out['missing'] = [x for x in set(e) - set(g)][:3]
out['unexpected'] = [x for x in set(g) - set(e)][:3]
json.dump(out, sys.stdout)
`;

export interface LakeRead {
  files: Array<{ path: string; rows: number; sorted: boolean; codec?: string | null; meta?: Record<string, string> }>;
  columns?: string[];
  rows: number;
  expected: number;
  distinct: number;
  equal: boolean;
  missing: string[];
  unexpected: string[];
}

export function readLake(where: string, format: 'parquet' | 'ndjson', ndjson: string, endpoint = ''): LakeRead {
  const r = spawnSync('python3', ['-c', READER, where, format, ndjson, endpoint.replace(/^http:\/\//, '')], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    // pyarrow's S3 client must not look for an EC2 instance's metadata service: loopback only.
    env: { ...process.env, AWS_EC2_METADATA_DISABLED: 'true' },
  });
  if (r.status !== 0) throw new Error(`pyarrow failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as LakeRead;
}

/** Every file below `dir`, relative, sorted. */
export function tree(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((p) => statSync(join(dir, p)).isFile()).sort();
}

/** Spawns the binary and SIGKILLs it after `ms` (or lets it finish); resolves with its exit code or signal. */
export function runKilled(h: Harness, args: string[], ms: number, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...h.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal === null && code !== 0) reject(new Error(`exit ${code}: ${stderr}`));
      else resolve(signal ?? `exit ${code}`);
    });
  });
}


/**
 * Runs `history --checkpoint … --layout hive` and SIGKILLs it at random moments spread over
 * `fullMs` (how long a whole run takes here: the kills land before, in and after the
 * publishing), then lets it finish twice. Returns the outcomes, for messages.
 */
export async function killAndRerun(h: Harness, dir: string, checkpoint: string, env: Record<string, string>, fullMs: number, kills: number): Promise<string[]> {
  const args = ['history', '--all-units', '--from', FROM, '--checkpoint', checkpoint, '--out-dir', dir, '--layout', 'hive', '-o', 'parquet', '--concurrency', '2'];
  const outcomes: string[] = [];
  for (let i = 0; i < kills; i++) outcomes.push(await runKilled(h, args, Math.floor(Math.random() * fullMs * 1.2), env));
  // Then to completion (no process to kill: h.run, in-process in the lake harness): the last run finds nothing new (the sandbox clock stands still).
  for (let i = 0; i < 2; i++) {
    const r = await h.run(args, { env });
    if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}`);
    outcomes.push(`exit ${r.code}`);
  }
  return outcomes;
}
