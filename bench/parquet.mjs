// Benchmark: `trackctl history <bench unit> --all -o parquet > file` against `-o ndjson > file`,
// in the same run against the same live sandbox, for 100,000 and 1,000,000 reports (by default).
// Prints wall time, reports/s, output MB and peak RSS of each; with python3 + pyarrow, checks the
// Parquet file's row count and row groups. Not part of npm test.
// Needs: npm run build (dist/sandbox.js); GNU time (/usr/bin/time) for peak RSS.
// Usage: node bench/parquet.mjs [sizes...]   e.g. node bench/parquet.mjs 250000
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliLogin, measure } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox, BENCH_UNIT_ID } = await import(join(root, 'dist/sandbox.js'));
const BIN = join(root, 'bin/trackctl.js');
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const SIZES = sizes.length > 0 ? sizes : [100_000, 1_000_000];

/** Runs `sh -c cmd` (async: the sandbox lives in this process) under GNU time; wall seconds and peak RSS (MB). */

/** Row count and row groups as pyarrow reads them, when python3 and pyarrow are there. */
function pyarrowCheck(file) {
  const r = spawnSync('python3', ['-c', 'import sys, pyarrow.parquet as pq; m = pq.ParquetFile(sys.argv[1]).metadata; print(m.num_rows, m.num_row_groups)', file], { encoding: 'utf8' });
  if (r.status !== 0) return 'pyarrow: not available';
  const [rows, groups] = r.stdout.trim().split(' ').map(Number);
  return `pyarrow reads ${rows.toLocaleString('en-US')} rows in ${groups} row groups`;
}

const fmt = (n, digits = 1) => n.toFixed(digits);
for (const n of SIZES) {
  const sandbox = await startSandbox({ port: 0, benchReports: n, quiet: true });
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-bench-'));
  try {
    const env = {
      PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1',
      TRACKCTL_CONFIG_DIR: join(dir, 'config'), TRACKCTL_DATA_DIR: join(dir, 'data'),
      TRACKCTL_BASE_URL: sandbox.url, TRACKCTL_CREDENTIAL_STORE: 'file', TRACKCTL_RETRIES: '0', TRACKCTL_TIMEOUT: '600s',
    };
    await cliLogin(BIN, env);
    console.log(`\n${n.toLocaleString('en-US')} reports (bench unit ${BENCH_UNIT_ID}, --all)`);
    const run = {};
    for (const format of ['ndjson', 'parquet', 'ndjson', 'parquet']) { // each twice, interleaved: the faster run counts
      const file = join(dir, `out.${format}`);
      const r = await measure(`"${process.execPath}" "${BIN}" history ${BENCH_UNIT_ID} --all -o ${format} > "${file}"`, env);
      const best = run[format];
      if (!best || r.seconds < best.seconds) run[format] = { ...r, bytes: statSync(file).size, file };
    }
    for (const [format, r] of Object.entries(run)) {
      console.log(`  -o ${format.padEnd(8)} ${fmt(r.seconds, 2).padStart(7)} s  ${Math.round(n / r.seconds).toLocaleString('en-US').padStart(9)} reports/s  ${fmt(r.bytes / 1e6).padStart(7)} MB written  peak RSS ${r.rssMB === undefined ? 'n/a' : `${fmt(r.rssMB, 0)} MB`}`);
    }
    console.log(`  parquet/ndjson: ${fmt(run.ndjson.seconds / run.parquet.seconds, 2)}x the throughput, ${fmt((100 * run.parquet.bytes) / run.ndjson.bytes, 1)}% of the bytes; ${pyarrowCheck(run.parquet.file)}`);
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
