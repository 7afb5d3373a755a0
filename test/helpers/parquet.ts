/**
 * Parquet files read back by an independent reader: pyarrow, in a python3 subprocess.
 * Locally a test skips when python3 or pyarrow is missing; in CI (CI=true) it fails,
 * since .ci/run installs both.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { TestContext } from 'node:test';
import { inCI, needTool } from './tools.js';

/** Whether pyarrow imported, asked once a test file (an import costs a third of a second of CPU). */
let importable: { ok: boolean; stderr: string } | undefined;

/** Returns true when pyarrow can be used; skips (locally) or throws (CI) otherwise. */
export function needPyarrow(t: TestContext): boolean {
  if (!needTool(t, 'python3')) return false;
  if (importable === undefined) {
    const r = spawnSync('python3', ['-c', 'import pyarrow.parquet'], { encoding: 'utf8' });
    importable = { ok: r.status === 0, stderr: r.stderr };
  }
  if (importable.ok) return true;
  if (inCI()) throw new Error(`pyarrow is required in CI but cannot be imported (see .ci/run): ${importable.stderr}`);
  t.skip('pyarrow is not installed');
  return false;
}

export interface ParquetRead {
  /** Column name → pyarrow type, e.g. `timestamp[ms, tz=UTC]`. */
  schema: Array<[string, string]>;
  numRows: number;
  rowGroups: number[];
  createdBy: string;
  /** Column → [min, max] (as text) of the first row group, null when it has none. */
  statistics: Record<string, [string, string] | null>;
  /** Rows, dates as epoch milliseconds (only with `rows: true`). */
  rows?: Array<Record<string, unknown>>;
  /** With `ndjson`: rows compared with the features of that file. */
  compared?: number;
  mismatches?: string[];
}

const SCRIPT = String.raw`
import json, sys
import pyarrow as pa, pyarrow.parquet as pq
path, want_rows, ndjson = sys.argv[1], sys.argv[2] == '1', sys.argv[3]
f = pq.ParquetFile(path)
table = f.read()
md = f.metadata
out = {
  'schema': [[field.name, str(field.type)] for field in table.schema],
  'numRows': md.num_rows,
  'rowGroups': [md.row_group(i).num_rows for i in range(md.num_row_groups)],
  'createdBy': md.created_by,
  'statistics': {},
}
if md.num_row_groups > 0:
  group = md.row_group(0)
  for i in range(group.num_columns):
    c = group.column(i)
    st = c.statistics
    out['statistics'][c.path_in_schema] = [str(st.min), str(st.max)] if st is not None and st.has_min_max else None
if 'date' in table.column_names:
  table = table.set_column(table.column_names.index('date'), 'date', table['date'].cast(pa.int64()))
if want_rows:
  out['rows'] = table.to_pylist()
if ndjson:
  KNOWN = ['aid','did','name','availability','lat','lng','alt','speed','heading','source','address','date',
           'battery','odometer','precision','satellites','temperature','reportType','reportValue','message']
  INTS = {'aid','did','satellites','date'}
  STRS = {'name','availability','source','address','reportType','reportValue','message','extra'}
  mismatches = []
  # Types once a column (a column's values all come out of it as one Python type): then a row
  # is compared whole, and member by member only where it differs (1 == 1.0 in Python, so the
  # types are what tells an integer column from a double one).
  for k in KNOWN + ['extra']:
    if k not in table.column_names:
      mismatches.append('no column %s' % k); continue
    kind = table.schema.field(k).type
    ok = pa.types.is_integer(kind) if k in INTS else pa.types.is_string(kind) if k in STRS else pa.types.is_floating(kind)
    if not ok: mismatches.append('column %s is %s' % (k, kind))
  n = 0
  rows = iter(table.to_pylist())
  with open(ndjson) as lines:
    for line in lines:
      if not line.strip(): continue
      feature = json.loads(line)
      props = feature['properties']
      row = next(rows, None)
      if row is None:
        mismatches.append('parquet has fewer rows than the ndjson'); break
      lng, lat = feature['geometry']['coordinates']
      want = {k: props.get(k) for k in KNOWN}
      want['lat'], want['lng'] = lat, lng
      want['date'] = props['date'] * 1000
      extra = {k: v for k, v in props.items() if k not in KNOWN}
      want['extra'] = extra or None
      got = {k: row.get(k) for k in want}
      if got['extra'] is not None: got['extra'] = json.loads(got['extra'])
      if got != want:
        for k, v in want.items():
          if got[k] != v or (v is None) != (got[k] is None):
            mismatches.append('row %d %s: parquet %r, ndjson %r' % (n, k, got[k], v))
      if len(mismatches) > 20: break
      n += 1
  if next(rows, None) is not None: mismatches.append('parquet has more rows than the ndjson')
  out['compared'] = n
  out['mismatches'] = mismatches
json.dump(out, sys.stdout)
`;

/** Reads `path` with pyarrow: schema, row groups and (optionally) rows, or a comparison with an NDJSON file of features. */
export function readParquet(path: string, opts: { rows?: boolean; ndjson?: string } = {}): ParquetRead {
  const r = spawnSync('python3', ['-c', SCRIPT, path, opts.rows ? '1' : '0', opts.ndjson ?? ''], { encoding: 'utf8', maxBuffer: 256 << 20 });
  assert.equal(r.status, 0, `pyarrow could not read ${path}: ${r.stderr}`);
  return JSON.parse(r.stdout) as ParquetRead;
}
