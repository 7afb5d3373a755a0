// Benchmark: the lake. `trackctl history --all-units --out-dir DIR --layout hive` of N generated
// units (default 1,000) × 7 days, -o parquet against -o ndjson into the same layout, measured
// alternately in the same run against the same in-process sandbox: wall time, CPU seconds, files,
// bytes, peak RSS, reports a second, and Parquet's throughput as a ratio of NDJSON's (median of
// each pair's ratio, which rides out the machine's load; by wall time and by the CLI's CPU time).
// Also the other Parquet codecs.
// Not part of npm test. Needs: npm run build, GNU time (/usr/bin/time) for peak RSS.
// Usage: node bench/lake.mjs [units] [--runs N] [--codecs]
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cliLogin, measure } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: flags, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string', default: '3' }, codecs: { type: 'boolean', default: false } } });
const UNITS = Number(positionals[0] ?? 1000);
const RUNS = Number(flags.runs);
const { startSandbox } = await import(join(root, 'dist/sandbox.js'));
const BIN = join(root, 'bin/trackctl.js');
const fmt = (n, d = 1) => n.toFixed(d);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function filesUnder(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const clock = Date.UTC(2026, 10, 24, 12);
const sandbox = await startSandbox({ port: 0, devices: UNITS, quiet: true, sessionTtl: 30 * 86400, now: () => clock });
const work = mkdtempSync(join(tmpdir(), 'trackctl-bench-lake-'));
const env = {
  PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1',
  TRACKCTL_CONFIG_DIR: join(work, 'config'), TRACKCTL_DATA_DIR: join(work, 'data'),
  TRACKCTL_BASE_URL: sandbox.url, TRACKCTL_CREDENTIAL_STORE: 'file', TRACKCTL_RETRIES: '2', TRACKCTL_TIMEOUT: '600s',
};
const window = `--from ${new Date(clock - 7 * 86400_000).toISOString()} --to ${new Date(clock).toISOString()}`;
let n = 0;
async function run(format, extra = '') {
  const out = join(work, `out-${n++}`);
  const r = await measure(`"${process.execPath}" "${BIN}" history --all-units ${window} --out-dir ${out} --layout hive -o ${format} --concurrency 16 ${extra}`, env);
  const files = filesUnder(out);
  const bytes = files.reduce((s, f) => s + statSync(f).size, 0);
  rmSync(out, { recursive: true, force: true });
  return { ...r, files: files.length, bytes };
}

try {
  await cliLogin(BIN, env);
  // The report count, from one NDJSON export (one line a report).
  const probe = join(work, 'probe');
  await measure(`"${process.execPath}" "${BIN}" history --all-units ${window} --out-dir ${probe} --layout hive -o ndjson --concurrency 16`, env);
  const reports = filesUnder(probe).reduce((s, f) => s + readFileSync(f, 'utf8').split('\n').filter((l) => l !== '').length, 0);
  rmSync(probe, { recursive: true, force: true });
  console.log(`== ${UNITS.toLocaleString('en-US')} generated units (plus the demo fleet) × 7 days, --layout hive: ${reports.toLocaleString('en-US')} reports; ${RUNS} runs each, alternating`);
  const results = { ndjson: [], parquet: [] };
  const ratios = [];
  for (let i = 0; i < RUNS; i++) {
    const nd = await run('ndjson');
    const pq = await run('parquet');
    results.ndjson.push(nd);
    results.parquet.push(pq);
    ratios.push(nd.seconds / pq.seconds);
  }
  const line = (name, rs) => {
    const s = median(rs.map((r) => r.seconds));
    const cpu = median(rs.map((r) => r.cpu ?? NaN));
    const rss = Math.max(...rs.map((r) => r.rssMB ?? NaN));
    console.log(`${name.padEnd(22)} ${fmt(s, 2).padStart(7)} s  cpu ${fmt(cpu, 2).padStart(6)} s  ${String(rs[0].files).padStart(4)} files  ${fmt(rs[0].bytes / 1e6).padStart(7)} MB  peak RSS ${fmt(rss, 0)} MB  ${Math.round(reports / s).toLocaleString('en-US')} reports/s`);
  };
  line('ndjson', results.ndjson);
  line('parquet (zstd)', results.parquet);
  console.log(`parquet throughput / ndjson throughput: ${fmt(median(ratios), 2)} (median of ${RUNS} pairs: ${ratios.map((r) => fmt(r, 2)).join(', ')})`);
  // The CLI's own CPU seconds, which the machine's load (and the sandbox serving history in this process) does not stretch.
  const cpuRatios = results.ndjson.map((nd, i) => nd.cpu / results.parquet[i].cpu);
  console.log(`by the CLI's CPU seconds: ${fmt(median(cpuRatios), 2)} (pairs: ${cpuRatios.map((r) => fmt(r, 2)).join(', ')})`);
  if (flags.codecs) {
    for (const codec of ['snappy', 'gzip', 'none']) line(`parquet (${codec})`, [await run('parquet', `--compression ${codec}`)]);
  }
} finally {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
}
