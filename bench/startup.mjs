// Start-up cost of trackctl against `node -e 0`, measured in the same run.
// Budgets (issue: core client): --version ≤ +15 ms, devices --help ≤ +30 ms,
// devices list -o json of 100 devices from a local sandbox ≤ +80 ms. --jq, --template and
// -o custom-columns on the same list have no budget: their cost is shown against -o json.
// Usage: npm run build && node bench/startup.mjs [runs]
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const runs = Number(process.argv[2] ?? 30);
if (!Number.isInteger(runs) || runs < 1) throw new Error('usage: node bench/startup.mjs [runs]');
const bin = join(root, 'bin/trackctl.js');
// The sandbox runs in its own process: this one blocks in spawnSync while timing.
const sandboxProcess = spawn(process.execPath, [bin, 'sandbox', 'start', '--memory', '--port', '0', '--devices', '88'], {
  stdio: ['ignore', 'pipe', 'ignore'],
}); // 12 demo devices + 88 = 100
const firstLine = await new Promise((resolve) => createInterface({ input: sandboxProcess.stdout }).once('line', resolve));
const sandbox = { url: String(firstLine).replace(/^base-url:\s*/, '') };
const dir = mkdtempSync(join(tmpdir(), 'trackctl-bench-'));
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  TRACKCTL_CONFIG_DIR: join(dir, 'config'),
  TRACKCTL_BASE_URL: sandbox.url,
  TRACKCTL_CREDENTIAL_STORE: process.env.BENCH_STORE ?? 'file',
  ...(process.env.DBUS_SESSION_BUS_ADDRESS ? { DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS } : {}),
};
const login = spawnSync(process.execPath, [bin, 'login', '--email', 'demo@example.com', '--password-stdin'], { env, input: 'demo\n' });
if (login.status !== 0) throw new Error(`login failed: ${login.stderr}`);
const check = spawnSync(process.execPath, [bin, 'devices', 'list', '-o', 'json'], { env, encoding: 'utf8' });
const count = JSON.parse(check.stdout).length;

const cases = {
  'node -e 0': ['-e', '0'],
  'trackctl --version': [bin, '--version'],
  'trackctl devices --help': [bin, 'devices', '--help'],
  [`trackctl devices list -o json (${count} devices)`]: [bin, 'devices', 'list', '-o', 'json'],
  'trackctl devices list --jq': [bin, 'devices', 'list', '--jq', '.[] | select(.isActive == 1) | .name'],
  'trackctl devices list --template': [bin, 'devices', 'list', '--template', '{{#each .}}{{tablerow did name (timeago lastGPSTimestamp)}}{{/each}}'],
  'trackctl devices list -o custom-columns': [bin, 'devices', 'list', '-o', 'custom-columns=ID:.did,NAME:.name,GROUP:.groupMember[0]'],
};
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
// Interleaved, so drift in machine load hits every case alike.
for (let i = 0; i < runs + 3; i++) {
  for (const [name, args] of Object.entries(cases)) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr}`);
    if (i >= 3) samples[name].push(ms); // the first runs warm the file cache
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(samples['node -e 0']);
const budgets = [0, 15, 30, 80];
console.log(`runs per case: ${runs}; credential store: ${env.TRACKCTL_CREDENTIAL_STORE}; node ${process.version}`);
Object.keys(cases).forEach((name, i) => {
  const m = median(samples[name]);
  const added = m - base;
  const json = median(samples[Object.keys(cases)[3]]);
  const verdict =
    i === 0 ? 'baseline' : budgets[i] === undefined ? `+${(m - json).toFixed(1)} ms over -o json` : `${added <= budgets[i] ? 'within' : 'OVER'} budget +${budgets[i]} ms`;
  console.log(`${name.padEnd(46)} median ${m.toFixed(1).padStart(6)} ms  added ${added.toFixed(1).padStart(6)} ms  ratio ${(m / base).toFixed(2)}  ${verdict}`);
});
sandboxProcess.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });
