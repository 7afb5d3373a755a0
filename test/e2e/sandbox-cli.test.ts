/**
 * `trackctl sandbox start|reset` as a user runs them: a separate process, stopped with a signal.
 * The clients of it run in-process; so does reset. Bad options stay spawned: one accepted by
 * mistake would start a server inside the test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BIN, runCli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

async function startServer(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve) => lines.once('line', resolve));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { url: first.replace(/^base-url:\s*/, ''), first, child, exited };
}

test('sandbox start prints its base URL first, serves the interface, persists to --state and stops cleanly on SIGINT/SIGTERM', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-sbcli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = { TRACKCTL_CONFIG_DIR: join(dir, 'config') };
  const state = join(dir, 'state.json');

  const one = await startServer(['--state', state, '--seed', '7'], env);
  assert.match(one.first, /^base-url: http:\/\/127\.0\.0\.1:\d+$/);
  const login = await runInProcess(['login', '--email', 'demo@example.com', '--password-stdin'], { env: { ...env, TRACKCTL_BASE_URL: one.url }, input: 'demo\n' });
  assert.equal(login.code, 0, login.stderr);
  const created = await runInProcess(['groups', 'create', '--name', 'Survives restarts', '-o', 'json'], { env: { ...env, TRACKCTL_BASE_URL: one.url } });
  assert.equal(created.code, 0, created.stderr);
  const gid = (JSON.parse(created.stdout) as { gid: number }).gid;
  one.child.kill('SIGINT');
  assert.equal(await one.exited, 0, 'exit 0 after SIGINT');
  assert.ok(existsSync(state));

  const two = await startServer(['--state', state], env);
  const again = await runInProcess(['groups', 'get', String(gid), '-o', 'json'], { env: { ...env, TRACKCTL_BASE_URL: two.url } });
  assert.equal(again.code, 0, again.stderr);
  assert.equal((JSON.parse(again.stdout) as { name: string }).name, 'Survives restarts');
  two.child.kill('SIGTERM');
  assert.equal(await two.exited, 0, 'exit 0 after SIGTERM');

  const reset = await runInProcess(['sandbox', 'reset', '--state', state], { env });
  assert.equal(reset.code, 0, reset.stderr);
  assert.equal(existsSync(state), false);
});

test('sandbox start rejects bad options with exit 2', async () => {
  for (const args of [['--port', 'x'], ['--port', '70000'], ['--seed', 'abc'], ['--faults', 'bogus=1'], ['--access-ttl', '-5']]) {
    const r = await runCli(['sandbox', 'start', '--memory', ...args], {});
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /error/);
  }
});
