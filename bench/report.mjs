// Benchmark: `trackctl report summary` and `report overspeed` over the sandbox's bench unit against
// `trackctl history -o ndjson` of the same reply, in the same run (each report streams the history
// through its state machine; the target is at least 0.8 of the history's throughput, memory flat). Runs are
// interleaved (history, summary, overspeed, again and again), so a busy machine slows all three alike; the
// ratios are also given per round (paired) and as their median. On a shared machine wall time follows the
// load more than the code, so the ratio of CPU time (user + system, as GNU time counts it) is printed beside.
// With --baseline DIR (a checkout with its own dist/ built, such as the commit before a change), the reports
// of that build run in the same rounds too, each paired with the round's history: before and after in one run.
// Not part of npm test.
// Needs: npm run build, GNU time (/usr/bin/time) for peak RSS and CPU time.
// Usage: node bench/report.mjs [reports] [--rounds N] [--baseline DIR]   (default 1,000,000 reports, 3 rounds)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { measure } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: flags, positionals } = parseArgs({ allowPositionals: true, options: { baseline: { type: 'string' }, rounds: { type: 'string', default: '3' } } });
const { startSandbox, BENCH_UNIT_ID } = await import(join(root, 'dist/sandbox.js'));
const N = Number(positionals[0] ?? 1_000_000);
const ROUNDS = Number(flags.rounds);
const fmt = (n, d = 1) => n.toFixed(d);

const sandbox = await startSandbox({ port: 0, benchReports: N, quiet: true });
const dir = mkdtempSync(join(tmpdir(), 'trackctl-bench-report-'));
const env = {
  PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TRACKCTL_CONFIG_DIR: join(dir, 'config'), TRACKCTL_DATA_DIR: join(dir, 'data'),
  TRACKCTL_BASE_URL: sandbox.url, TRACKCTL_CREDENTIAL_STORE: 'file', TRACKCTL_TIMEOUT: '600s', TRACKCTL_EMAIL: 'demo@example.com', TRACKCTL_PASSWORD: 'demo',
};
const cliOf = (checkout) => `"${process.execPath}" "${join(checkout, 'bin/trackctl.js')}"`;
const REPORTS = {
  summary: `report summary ${BENCH_UNIT_ID} --from 0 --tz UTC -o ndjson > /dev/null`,
  overspeed: `report overspeed ${BENCH_UNIT_ID} --from 0 --limit 50 -o ndjson > /dev/null`,
};
const builds = [['', cliOf(root)], ...(flags.baseline ? [['baseline ', cliOf(resolve(flags.baseline))]] : [])];
try {
  const runs = { history: [] };
  for (let i = 0; i < ROUNDS; i++) {
    runs.history.push(await measure(`${cliOf(root)} history ${BENCH_UNIT_ID} --from 0 -o ndjson > /dev/null`, env));
    for (const [label, cli] of builds) {
      for (const [name, args] of Object.entries(REPORTS)) (runs[`${label}${name}`] ??= []).push(await measure(`${cli} ${args}`, env));
    }
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  console.log(`\n${N.toLocaleString('en-US')} reports (median of ${ROUNDS}, interleaved)`);
  for (const [name, xs] of Object.entries(runs)) {
    const s = median(xs.map((r) => r.seconds));
    const rss = xs[0].rssMB === undefined ? 'n/a' : `${fmt(median(xs.map((r) => r.rssMB)), 0)} MB`;
    const cpu = xs[0].cpu === undefined ? '' : `  CPU ${fmt(median(xs.map((r) => r.cpu)), 2)} s`;
    console.log(`  ${name.padEnd(20)} ${fmt(s, 2).padStart(7)} s  ${Math.round(N / s).toLocaleString('en-US').padStart(10)} reports/s  peak RSS ${rss}${cpu}`);
  }
  for (const [name, xs] of Object.entries(runs)) {
    if (name === 'history') continue;
    const paired = xs.map((x, i) => runs.history[i].seconds / x.seconds);
    console.log(`  ratio (${name} throughput / history throughput): ${fmt(median(paired), 2)} paired median (rounds ${paired.map((x) => fmt(x, 2)).join(', ')}) (target ≥ 0.8)`);
    if (xs[0].cpu !== undefined) {
      const cpu = xs.map((x, i) => runs.history[i].cpu / x.cpu);
      console.log(`  ratio (${name} / history, CPU time): ${fmt(median(cpu), 2)} paired median (rounds ${cpu.map((x) => fmt(x, 2)).join(', ')})`);
    }
  }
} finally {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
}
