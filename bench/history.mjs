// Benchmark: `trackctl history <bench unit> --all -o ndjson` against `curl | jq -c '.features[]'`,
// both reading the same live sandbox reply, for 100,000 and 1,000,000 reports.
// Prints throughput (MB/s, reports/s) and peak RSS of each, and the ratio. Not part of npm test.
// Needs: npm run build (dist/sandbox.js), curl, jq, and GNU time (/usr/bin/time; apt-get install time).
// Usage: node bench/history.mjs [sizes...]   e.g. node bench/history.mjs 100000
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox, BENCH_UNIT_ID } = await import(join(root, 'dist/sandbox.js'));
const BIN = join(root, 'bin/trackctl.js');
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const SIZES = sizes.length > 0 ? sizes : [100_000, 1_000_000];
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
if (!TIME) console.error('note: /usr/bin/time is missing (apt-get install time): peak RSS will not be reported');

/** Runs `sh -c cmd` (async: the sandbox lives in this process) under GNU time; wall seconds and peak RSS (MB). */
function measure(cmd, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const args = TIME ? [TIME, '-v', 'sh', '-c', cmd] : ['sh', '-c', cmd];
    const child = spawn(args[0], args.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) return reject(new Error(`${cmd} exited ${code}: ${err.slice(-2000)}`));
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(err);
      resolve({ seconds, rssMB: rss ? Number(rss[1]) / 1024 : undefined });
    });
  });
}

async function login(url) {
  const res = await fetch(`${url}/api/login/`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'demo@example.com', password: 'demo' }),
  });
  const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
  if (!res.ok || !cookie) throw new Error(`sandbox login failed: ${res.status}`);
  return cookie;
}

function cliLogin(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'login', '--email', 'demo@example.com', '--password-stdin', '--method', 'session'], { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`trackctl login failed: ${err}`))));
    child.stdin.end('demo\n');
  });
}

const fmt = (n, digits = 1) => n.toFixed(digits);
const rows = [];
for (const n of SIZES) {
  const sandbox = await startSandbox({ port: 0, benchReports: n, quiet: true });
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-bench-'));
  try {
    const env = {
      PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1',
      TRACKCTL_CONFIG_DIR: join(dir, 'config'), TRACKCTL_DATA_DIR: join(dir, 'data'),
      TRACKCTL_BASE_URL: sandbox.url, TRACKCTL_CREDENTIAL_STORE: 'file', TRACKCTL_RETRIES: '0', TRACKCTL_TIMEOUT: '600s',
    };
    await cliLogin(env);
    const cookie = await login(sandbox.url);
    const url = `${sandbox.url}/reports/history/${BENCH_UNIT_ID}/`;
    const saved = join(dir, 'reply.json');
    writeFileSync(join(dir, 'cookie'), cookie);
    const curl = `curl -sf -H "Cookie: $(cat ${join(dir, 'cookie')})" ${url}`;
    await measure(`${curl} -o ${saved}`, env); // saved once: its size is the bytes every run reads
    const bytes = statSync(saved).size;
    const serve = await measure(`${curl} -o /dev/null`, env);
    const jq = await measure(`${curl} | jq -c '.features[]' > /dev/null`, env);
    const cli = await measure(`"${process.execPath}" "${BIN}" history ${BENCH_UNIT_ID} --all -o ndjson > /dev/null`, env);
    rows.push({ n, bytes, serve, jq, cli });
    const mb = bytes / 1e6;
    console.log(`\n${n.toLocaleString('en-US')} reports, ${fmt(mb)} MB reply`);
    console.log(`  sandbox alone (curl > /dev/null): ${fmt(serve.seconds, 2)} s, ${fmt(mb / serve.seconds)} MB/s`);
    for (const [name, r] of [['curl | jq -c .features[]', jq], ['trackctl history -o ndjson', cli]]) {
      console.log(`  ${name.padEnd(28)} ${fmt(r.seconds, 2).padStart(7)} s  ${fmt(mb / r.seconds).padStart(6)} MB/s  ${Math.round(n / r.seconds).toLocaleString('en-US').padStart(9)} reports/s  peak RSS ${r.rssMB === undefined ? 'n/a' : `${fmt(r.rssMB, 0)} MB`}`);
    }
    console.log(`  ratio (trackctl throughput / jq): ${fmt(jq.seconds / cli.seconds, 2)}x`);
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
if (rows.length > 1) {
  const [a, b] = [rows[0], rows[rows.length - 1]];
  if (a.cli.rssMB && b.cli.rssMB) console.log(`\ntrackctl peak RSS ${fmt(a.cli.rssMB, 0)} MB at ${a.n.toLocaleString('en-US')} → ${fmt(b.cli.rssMB, 0)} MB at ${b.n.toLocaleString('en-US')} reports (target < 150 MB, flat)`);
}
