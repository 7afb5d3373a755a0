// Benchmark: `trackctl history <bench unit> --all -o parquet > file` against `-o ndjson > file`,
// in the same run against the same live sandbox, for 100,000 and 1,000,000 reports (by default).
// Runs them in pairs, the order alternating from pair to pair, and prints each pair's ratio
// (parquet's throughput over ndjson's) and their median against the goal (0.8x), with the best
// wall time, reports/s, output MB and the highest peak RSS of each; with python3 + pyarrow,
// checks the Parquet file's row count and row groups. Not part of npm test.
// With --baseline GIT-REF, a build of that ref runs both formats in every pair too (before this
// tree's runs in one pair, after them in the next), and each format's CPU seconds of this tree over
// the baseline's are printed (median of the pairs): on a loaded machine, the figure to compare builds by.
// GIT-REF may also be a directory: a checkout with its own dist/ built (as bench/report.mjs takes it).
// Needs: npm run build (dist/sandbox.js); GNU time (/usr/bin/time) for peak RSS.
// Usage: node bench/parquet.mjs [--pairs N] [--baseline GIT-REF|DIR] [sizes...]   e.g. node bench/parquet.mjs --pairs 5 1000000
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRef, cliLogin, measure } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox, BENCH_UNIT_ID } = await import(join(root, 'dist/sandbox.js'));
const BIN = join(root, 'bin/trackctl.js');
const argv = process.argv.slice(2);
const pairsAt = argv.indexOf('--pairs');
const PAIRS = pairsAt >= 0 ? Number(argv.splice(pairsAt, 2)[1]) : 3;
if (!(Number.isInteger(PAIRS) && PAIRS > 0)) throw new Error('--pairs takes a positive whole number');
const baselineAt = argv.indexOf('--baseline');
const BASELINE = baselineAt >= 0 ? argv.splice(baselineAt, 2)[1] : undefined;
const sizes = argv.map(Number).filter((n) => n > 0);
const SIZES = sizes.length > 0 ? sizes : [100_000, 1_000_000];
/** Parquet's throughput over NDJSON's, the issue's goal (issue 32). */
const GOAL = 0.8;

/** Row count and row groups as pyarrow reads them, when python3 and pyarrow are there. */
function pyarrowCheck(file) {
  const r = spawnSync('python3', ['-c', 'import sys, pyarrow.parquet as pq; m = pq.ParquetFile(sys.argv[1]).metadata; print(m.num_rows, m.num_row_groups)', file], { encoding: 'utf8' });
  if (r.status !== 0) return 'pyarrow: not available';
  const [rows, groups] = r.stdout.trim().split(' ').map(Number);
  return `pyarrow reads ${rows.toLocaleString('en-US')} rows in ${groups} row groups`;
}

const fmt = (n, digits = 1) => n.toFixed(digits);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const work = mkdtempSync(join(tmpdir(), 'trackctl-bench-build-'));
const builtBaseline = (dir) => ({ name: `baseline ${dir}`, bin: join(resolve(dir), 'bin/trackctl.js') });
const baseline = BASELINE === undefined ? undefined : existsSync(join(BASELINE, 'dist')) ? builtBaseline(BASELINE) : buildRef(root, BASELINE, join(work, 'baseline'));
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
    const ratios = [];
    const cpuRatios = [];
    const againstBaseline = { ndjson: [], parquet: [] };
    /** The baseline's two runs in this pair: CPU seconds by format. */
    const runBaseline = async () => {
      const cpu = {};
      for (const format of ['ndjson', 'parquet']) cpu[format] = (await measure(`"${process.execPath}" "${baseline.bin}" history ${BENCH_UNIT_ID} --all -o ${format} > "${join(dir, `base.${format}`)}"`, env)).cpu;
      return cpu;
    };
    for (let pair = 0; pair < PAIRS; pair++) {
      // The baseline runs before this tree's runs in one pair and after them in the next.
      const baseFirst = baseline && pair % 2 === 0 ? await runBaseline() : undefined;
      // The order alternates, so that neither format always runs on a machine the other warmed (or loaded).
      const order = pair % 2 === 0 ? ['ndjson', 'parquet'] : ['parquet', 'ndjson'];
      const seconds = {};
      const cpu = {};
      for (const format of order) {
        const file = join(dir, `out.${format}`);
        const r = await measure(`"${process.execPath}" "${BIN}" history ${BENCH_UNIT_ID} --all -o ${format} > "${file}"`, env);
        seconds[format] = r.seconds;
        cpu[format] = r.cpu;
        const best = run[format];
        run[format] = {
          ...(best && best.seconds <= r.seconds ? best : { ...r, bytes: statSync(file).size, file }),
          rssMB: Math.max(best?.rssMB ?? 0, r.rssMB ?? 0) || undefined,
        };
      }
      const baseCpu = baseFirst ?? (baseline ? await runBaseline() : undefined);
      for (const format of ['ndjson', 'parquet']) if (baseCpu?.[format] !== undefined && cpu[format] !== undefined) againstBaseline[format].push(cpu[format] / baseCpu[format]);
      ratios.push(seconds.ndjson / seconds.parquet);
      if (cpu.ndjson !== undefined && cpu.parquet !== undefined) cpuRatios.push(cpu.ndjson / cpu.parquet);
      const cpuText = cpu.ndjson === undefined ? '' : ` (CPU ${fmt(cpu.ndjson, 2)} s, ${fmt(cpu.parquet, 2)} s)`;
      console.log(`  pair ${pair + 1} (${order.join(', ')}): ndjson ${fmt(seconds.ndjson, 2)} s, parquet ${fmt(seconds.parquet, 2)} s${cpuText}, parquet/ndjson ${fmt(seconds.ndjson / seconds.parquet, 2)}x`);
    }
    for (const [format, r] of Object.entries(run)) {
      console.log(`  -o ${format.padEnd(8)} best ${fmt(r.seconds, 2).padStart(7)} s  ${Math.round(n / r.seconds).toLocaleString('en-US').padStart(9)} reports/s  ${fmt(r.bytes / 1e6).padStart(7)} MB written  peak RSS ${r.rssMB === undefined ? 'n/a' : `${fmt(r.rssMB, 0)} MB`} (highest)`);
    }
    const ratio = median(ratios);
    // On a loaded machine the CPU each run took says more than its wall time (the sandbox, in this process, serves both alike).
    if (cpuRatios.length > 0) console.log(`  parquet/ndjson by CPU time: ${fmt(median(cpuRatios), 2)}x (median of ${cpuRatios.length})`);
    for (const [format, rs] of Object.entries(againstBaseline)) if (rs.length > 0) console.log(`  -o ${format}: this tree's CPU over baseline ${BASELINE}'s: ${fmt(median(rs), 2)}x (median of ${rs.length} pairs)`);
    console.log(`  parquet/ndjson: ${fmt(ratio, 2)}x the throughput (median of ${PAIRS} paired runs; goal >= ${GOAL}x: ${ratio >= GOAL ? 'met' : 'NOT met'}), ${fmt((100 * run.parquet.bytes) / run.ndjson.bytes, 1)}% of the bytes; ${pyarrowCheck(run.parquet.file)}`);
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
rmSync(work, { recursive: true, force: true });
