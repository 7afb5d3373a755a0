// Bulk import throughput: `trackctl devices import` of N devices (one process, one
// keep-alive dispatcher, a pool of creates) against the same N creates made by
// `xargs -P16 curl` (one curl process per request, bearer token from `trackctl token print`).
// Each side gets a fresh sandbox (started here from dist/sandbox.js) so neither
// pays for the other's records. Target: the CLI at least 10× faster.
// Usage: npm run build && node bench/import.mjs [count] [concurrency]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../dist/sandbox.js';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'bin/trackctl.js');
const count = Number(process.argv[2] ?? 10_000);
const concurrency = Number(process.argv[3] ?? 16);
const dir = mkdtempSync(join(tmpdir(), 'trackctl-bench-import-'));

/** Runs a child asynchronously (the sandbox lives in this process and must keep serving). */
function run(cmd, args, { env, input } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

async function signedIn(name) {
  const sandbox = await startSandbox({ port: 0, quiet: true });
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TRACKCTL_CONFIG_DIR: join(dir, name, 'config'),
    TRACKCTL_DATA_DIR: join(dir, name, 'data'),
    TRACKCTL_BASE_URL: sandbox.url,
    TRACKCTL_CREDENTIAL_STORE: 'file',
    NO_COLOR: '1',
  };
  const login = await run(process.execPath, [bin, 'login', '--email', 'demo@example.com', '--password-stdin', '--method', 'token'], { env, input: 'demo\n' });
  if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
  sandbox.clearRequests();
  return { sandbox, env };
}

const body = (prefix, i) => ({ name: `Bench unit ${i}`, trackerID: `${prefix}${String(i).padStart(6, '0')}`, deviceType: 'TT8850', simPhoneNumber: '+15550000000' });
const created = (sandbox) => sandbox.requests.filter((r) => r.method === 'POST' && r.status >= 200 && r.status < 300).length;

// trackctl: one process.
const cli = await signedIn('cli');
const csv = join(dir, 'devices.csv');
writeFileSync(csv, `name,tracker-id,type,sim-phone\n${Array.from({ length: count }, (_, i) => {
  const b = body('CLI', i);
  return `${b.name},${b.trackerID},${b.deviceType},${b.simPhoneNumber}`;
}).join('\n')}\n`);
let t0 = performance.now();
const imp = await run(process.execPath, [bin, 'devices', 'import', csv, '--concurrency', String(concurrency), '--report', join(dir, 'report.ndjson'), '-q'], { env: cli.env });
const cliSeconds = (performance.now() - t0) / 1000;
if (imp.code !== 0) throw new Error(`import exited ${imp.code}: ${imp.stderr.slice(-1000)}`);
const cliCreated = created(cli.sandbox);
await cli.sandbox.close();

// xargs -P16 curl: one process per create.
const raw = await signedIn('curl');
const token = (await run(process.execPath, [bin, 'token', 'print'], { env: raw.env })).stdout.trim();
if (!token) throw new Error('trackctl token print gave no token');
const bodies = join(dir, 'bodies.ndjson');
writeFileSync(bodies, `${Array.from({ length: count }, (_, i) => JSON.stringify(body('CURL', i))).join('\n')}\n`);
const script = `xargs -d '\\n' -P16 -I{} curl -sS -o /dev/null -X POST -H 'Authorization: Bearer ${token}' -H 'Content-Type: application/json' --data-raw {} ${raw.sandbox.url}/v2/devices/ < '${bodies}'`;
t0 = performance.now();
const xr = await run('sh', ['-c', script], { env: { PATH: process.env.PATH } });
const curlSeconds = (performance.now() - t0) / 1000;
if (xr.code !== 0) throw new Error(`xargs curl exited ${xr.code}: ${xr.stderr.slice(-1000)}`);
const curlCreated = created(raw.sandbox);
await raw.sandbox.close();
rmSync(dir, { recursive: true, force: true });

const cliRate = cliCreated / cliSeconds;
const curlRate = curlCreated / curlSeconds;
const ratio = cliRate / curlRate;
console.log(`trackctl devices import (--concurrency ${concurrency}): ${cliCreated} creates in ${cliSeconds.toFixed(2)} s = ${Math.round(cliRate)} creates/s (process start included)`);
console.log(`xargs -P16 curl:                    ${curlCreated} creates in ${curlSeconds.toFixed(2)} s = ${Math.round(curlRate)} creates/s`);
console.log(`ratio: ${ratio.toFixed(1)}× (target ≥ 10×) ${ratio >= 10 ? 'PASS' : 'FAIL'}`);
if (cliCreated !== count || curlCreated !== count) {
  console.log(`expected ${count} creates on each side`);
  process.exitCode = 1;
}
if (ratio < 10) process.exitCode = 1;
