// Benchmark: `trackctl report summary` and `report overspeed` over the sandbox's bench unit against
// `trackctl history -o ndjson` of the same reply, in the same run (each report streams the history
// through its state machine; the target is at least 0.8 of the history's throughput, memory flat). Runs are
// interleaved (history, summary, overspeed, again and again), so a busy machine slows all three alike; the
// ratios are also given per round (paired) and as their median. Not part of npm test.
// Needs: npm run build, GNU time (/usr/bin/time) for peak RSS.
// Usage: node bench/report.mjs [reports]   (default 1,000,000)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox, BENCH_UNIT_ID } = await import(join(root, 'dist/sandbox.js'));
const BIN = join(root, 'bin/trackctl.js');
const N = Number(process.argv[2] ?? 1_000_000);
const fmt = (n, d = 1) => n.toFixed(d);

const sandbox = await startSandbox({ port: 0, benchReports: N, quiet: true });
const dir = mkdtempSync(join(tmpdir(), 'trackctl-bench-report-'));
const env = {
  PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TRACKCTL_CONFIG_DIR: join(dir, 'config'), TRACKCTL_DATA_DIR: join(dir, 'data'),
  TRACKCTL_BASE_URL: sandbox.url, TRACKCTL_CREDENTIAL_STORE: 'file', TRACKCTL_TIMEOUT: '600s', TRACKCTL_EMAIL: 'demo@example.com', TRACKCTL_PASSWORD: 'demo',
};
try {
  const cli = `"${process.execPath}" "${BIN}"`;
  const history = [];
  const summary = [];
  const overspeed = [];
  for (let i = 0; i < 3; i++) {
    history.push(await measure(`${cli} history ${BENCH_UNIT_ID} --from 0 -o ndjson > /dev/null`, env));
    summary.push(await measure(`${cli} report summary ${BENCH_UNIT_ID} --from 0 --tz UTC -o ndjson > /dev/null`, env));
    overspeed.push(await measure(`${cli} report overspeed ${BENCH_UNIT_ID} --from 0 --limit 50 -o ndjson > /dev/null`, env));
  }
  const median = (xs) => [...xs].sort((a, b) => a.seconds - b.seconds)[1];
  const [h, s, o] = [median(history), median(summary), median(overspeed)];
  console.log(`\n${N.toLocaleString('en-US')} reports (median of 3, interleaved)`);
  for (const [name, r] of [['history -o ndjson', h], ['report summary', s], ['report overspeed', o]]) {
    console.log(`  ${name.padEnd(20)} ${fmt(r.seconds, 2).padStart(7)} s  ${Math.round(N / r.seconds).toLocaleString('en-US').padStart(10)} reports/s  peak RSS ${r.rssMB === undefined ? 'n/a' : `${fmt(r.rssMB, 0)} MB`}`);
  }
  const paired = (xs) => xs.map((x, i) => history[i].seconds / x.seconds).sort((a, b) => a - b);
  for (const [name, xs] of [['summary', summary], ['overspeed', overspeed]]) {
    const r = paired(xs);
    console.log(`  ratio (${name} throughput / history throughput): ${fmt(r[1], 2)} paired median (rounds ${r.map((x) => fmt(x, 2)).join(', ')}; medians ${fmt(h.seconds / median(xs).seconds, 2)}) (target ≥ 0.8)`);
  }
} finally {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
}
