// Benchmark: the history map page of the sandbox's bench unit (default 1,000,000 reports): how
// large the page is and how long headless Chromium takes to draw it (from navigation until the
// page script has drawn), against a page of a tenth of the reports drawn in the same run.
// Budget for 1,000,000 reports: a page of at most 40 MB, drawn in at most 8 s on the 2-core build
// machine (before the cap on event markers: 29 MB, 22 s, with 13,000 sos and crash markers).
// Not part of npm test. Needs: npm run build, chromium (/usr/bin/chromium or TRACKCTL_CHROMIUM).
// Usage: node bench/map.mjs [reports]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { measure } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox, BENCH_UNIT_ID } = await import(join(root, 'dist/sandbox.js'));
const BIN = join(root, 'bin/trackctl.js');
const N = Number(process.argv[2] ?? 1_000_000);
const BUDGET = { mb: 40, seconds: 8 };
const fmt = (n, d = 1) => n.toFixed(d);

const dir = mkdtempSync(join(tmpdir(), 'trackctl-bench-map-'));
const cli = `"${process.execPath}" "${BIN}"`;

/** Writes the bench unit's history page for a sandbox of `n` reports; its path and the time it took. */
async function page(n) {
  const sandbox = await startSandbox({ port: 0, benchReports: n, quiet: true });
  const env = {
    PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TRACKCTL_CONFIG_DIR: join(dir, `config-${n}`), TRACKCTL_DATA_DIR: join(dir, `data-${n}`),
    TRACKCTL_BASE_URL: sandbox.url, TRACKCTL_CREDENTIAL_STORE: 'file', TRACKCTL_TIMEOUT: '600s', TRACKCTL_EMAIL: 'demo@example.com', TRACKCTL_PASSWORD: 'demo',
  };
  const file = join(dir, `history-${n}.html`);
  try {
    const written = await measure(`${cli} history ${BENCH_UNIT_ID} --from 0 -o html > "${file}"`, env);
    return { file, written };
  } finally {
    await sandbox.close();
  }
}

/** Milliseconds from navigation until the page script has drawn; what it drew. */
async function draw(browser, file) {
  const p = await browser.newPage({ viewport: { width: 1100, height: 720 } });
  await p.route('**/*', (r) => (r.request().url().startsWith('file:') ? r.continue() : r.abort()));
  const t0 = performance.now();
  await p.goto(`file://${file}`, { timeout: 300_000 });
  await p.waitForSelector('body[data-drawn]', { state: 'attached', timeout: 300_000 });
  const ms = performance.now() - t0;
  const drawn = await p.evaluate('window.trackctlMap');
  await p.close();
  return { ms, drawn };
}

try {
  const small = await page(Math.round(N / 10));
  const big = await page(N);
  const browser = await chromium.launch({ executablePath: process.env.TRACKCTL_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const times = { small: [], big: [] };
  let drawn;
  try {
    for (let i = 0; i < 3; i++) {
      times.small.push((await draw(browser, small.file)).ms);
      const d = await draw(browser, big.file);
      times.big.push(d.ms);
      drawn = d.drawn;
    }
  } finally {
    await browser.close();
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[1];
  const mb = (f) => statSync(f).size / 1e6;
  console.log(`\nhistory -o html of the bench unit (median of 3 draws, interleaved)`);
  for (const [label, p, ms] of [[`${Math.round(N / 10).toLocaleString('en-US')} reports`, small, median(times.small)], [`${N.toLocaleString('en-US')} reports`, big, median(times.big)]]) {
    console.log(`  ${label.padEnd(20)} page ${fmt(mb(p.file)).padStart(6)} MB  written in ${fmt(p.written.seconds, 2).padStart(6)} s  drawn in ${fmt(ms / 1000, 2).padStart(6)} s`);
  }
  console.log(`  drawn: ${JSON.stringify(drawn)}`);
  console.log(`  ratio (draw time, ${N.toLocaleString('en-US')} / a tenth): ${fmt(median(times.big) / median(times.small), 2)} (10 would be linear)`);
  const ok = mb(big.file) <= BUDGET.mb && median(times.big) / 1000 <= BUDGET.seconds;
  console.log(`  budget: ≤ ${BUDGET.mb} MB, ≤ ${BUDGET.seconds} s: ${ok ? 'within' : 'OVER'} (${fmt(mb(big.file))} MB, ${fmt(median(times.big) / 1000, 2)} s)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
