// Benchmark: fleet-wide history. Not part of npm test.
//  1. Incremental poll of N units (default 1,000) that each received new reports since the last
//     checkpoint: `trackctl history --all-units --checkpoint F -o ndjson` against the loop a user
//     writes without it (`for id in …; do trackctl history "$id" --checkpoint "$id.ckpt" -o ndjson; done`).
//  2. Full export of M units (default 10,000) × one day into --out-dir, in ndjson and in parquet:
//     time, files, bytes, peak RSS.
// Both read the same in-process sandbox, whose clock the bench moves. Needs: npm run build,
// GNU time (/usr/bin/time) for peak RSS.
// Usage: node bench/fleet.mjs [units-for-poll] [units-for-export]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliLogin, measure } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox } = await import(join(root, 'dist/sandbox.js'));
const BIN = join(root, 'bin/trackctl.js');
const POLL_UNITS = Number(process.argv[2] ?? 1000);
const EXPORT_UNITS = Number(process.argv[3] ?? 10000); // 0: skip the export
const NODE = process.execPath;
const fmt = (n, d = 1) => n.toFixed(d);


function filesUnder(dir) {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const countLines = (file) => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').length;

async function withSandbox(units, fn) {
  let clock = Date.UTC(2026, 10, 24, 12) ; // a working day, frozen; the bench moves it
  const sandbox = await startSandbox({ port: 0, devices: units, quiet: true, sessionTtl: 30 * 86400, now: () => clock });
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-bench-fleet-'));
  const env = {
    PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1',
    TRACKCTL_CONFIG_DIR: join(dir, 'config'), TRACKCTL_DATA_DIR: join(dir, 'data'),
    TRACKCTL_BASE_URL: sandbox.url, TRACKCTL_CREDENTIAL_STORE: 'file', TRACKCTL_RETRIES: '2', TRACKCTL_TIMEOUT: '600s',
  };
  try {
    await cliLogin(BIN, env);
    await fn({ env, dir, advance: (ms) => (clock += ms), clockMs: () => clock, sandbox });
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// 1. Incremental poll
await withSandbox(POLL_UNITS, async ({ env, dir, advance, clockMs }) => {
  const all = JSON.parse(await new Promise((resolve, reject) => {
    const child = spawn(NODE, [BIN, 'api', '/all-units/'], { env });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error('all-units failed'))));
  }));
  const ids = [...Object.keys(all.devices), ...Object.keys(all.sensors)];
  writeFileSync(join(dir, 'ids'), ids.join('\n'));
  const ck = join(dir, 'fleet.ckpt');
  mkdirSync(join(dir, 'ck'));
  // One absolute window for both, so that both deliver the same reports.
  const from = `--from ${Math.floor(clockMs() / 1000) - 3600}`;
  const fleetCmd = `"${NODE}" "${BIN}" history --all-units ${from} --checkpoint ${ck} -o ndjson`;
  const loopCmd = `for id in $(cat ${join(dir, 'ids')}); do "${NODE}" "${BIN}" history "$id" ${from} --checkpoint ${join(dir, 'ck')}/$id.ckpt -o ndjson || exit 1; done`;
  console.log(`\n== incremental poll of ${ids.length.toLocaleString('en-US')} units (devices and sensors; the fleet run also has the tracked users' units)`);
  // first runs, not measured: both start from the same window
  await measure(`${fleetCmd} > /dev/null`, env);
  await measure(`${loopCmd} > /dev/null`, env);
  advance(30 * 60 * 1000); // every unit reports within 30 minutes
  const fleetOut = join(dir, 'fleet.ndjson');
  const loopOut = join(dir, 'loop.ndjson');
  const fleet = await measure(`${fleetCmd} > ${fleetOut}`, env);
  const loop = await measure(`${loopCmd} > ${loopOut}`, env);
  const [nf, nl] = [countLines(fleetOut), countLines(loopOut)];
  console.log(`  fleet run (one process): ${fmt(fleet.seconds, 2)} s, ${nf.toLocaleString('en-US')} new reports, peak RSS ${fleet.rssMB === undefined ? 'n/a' : `${fmt(fleet.rssMB, 0)} MB`}`);
  console.log(`  loop of one process per unit: ${fmt(loop.seconds, 2)} s, ${nl.toLocaleString('en-US')} new reports, peak RSS of one ${loop.rssMB === undefined ? 'n/a' : `${fmt(loop.rssMB, 0)} MB`}`);
  console.log(`  ratio (loop time / fleet time): ${fmt(loop.seconds / fleet.seconds, 1)}x (target ≥ 30x, RSS < 150 MB)`);
});

// 2. Full export into --out-dir
if (EXPORT_UNITS > 0) await withSandbox(EXPORT_UNITS, async ({ env, dir }) => {
  console.log(`\n== full export of ${EXPORT_UNITS.toLocaleString('en-US')} generated units (plus the demo fleet) × one day into --out-dir`);
  for (const format of ['ndjson', 'parquet']) {
    const out = join(dir, `out-${format}`);
    let r;
    try {
      r = await measure(`"${NODE}" "${BIN}" history --all-units --from 2026-11-23T12:00:00Z --to 2026-11-24T12:00:00Z --out-dir ${out} -o ${format} --concurrency 16`, env);
    } catch (err) {
      console.log(`  ${format}: failed: ${String(err.message).split('\n').slice(-3).join(' ')}`);
      continue;
    }
    const files = filesUnder(out);
    const bytes = files.reduce((s, f) => s + statSync(f).size, 0);
    console.log(`  ${format.padEnd(8)} ${fmt(r.seconds, 1).padStart(7)} s  ${files.length.toLocaleString('en-US').padStart(7)} files  ${fmt(bytes / 1e6).padStart(8)} MB  peak RSS ${r.rssMB === undefined ? 'n/a' : `${fmt(r.rssMB, 0)} MB`}`);
  }
});
