/**
 * What a run leaves when it is stopped, and what the next run makes of it:
 * - SIGKILLed while its parent has not reaped it (a zombie: the binary started by a shell
 *   that then became `sleep`, which reaps nothing), the checkpoint's lock names a process
 *   that kill(pid, 0) still calls alive: the next run takes it at once, not "in use";
 * - SIGINT or SIGTERM during a lake run: no lock file and no spool folder remain;
 * - SIGKILL: the spool folder remains, and the next run that spools removes it.
 * The run is held where it has a spool and the lock: a gate between it and the sandbox
 * answers the second unit's history only when the test ends.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, runCli, startHarness, DEMO, type Harness } from '../helpers/cli.js';
import { FROM, T0 } from '../helpers/lake.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it holds (the machine may be slow: a minute at most). */
async function until(check: () => boolean, what: string, detail: () => string = () => ''): Promise<void> {
  const end = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what} did not happen: ${detail()}`);
    await sleep(20);
  }
}

const procState = (pid: number): string | undefined => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
};

const spools = (tmp: string): string[] => readdirSync(tmp).filter((n) => n.startsWith('trackctl-'));

describe('a run stopped by a signal', () => {
  let h: Harness;
  let gate: Server;
  let gateEnv: Record<string, string>;
  const held: ServerResponse[] = [];
  const units: number[] = [];

  before(async () => {
    h = await startHarness({ now: () => T0 * 1000, sessionTtl: 30 * 86400 });
    await h.login();
    const upstream = new URL(h.sandbox.url);
    // The second unit's history is held (never answered while the test runs); the rest pass through.
    gate = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (units.length > 1 && req.url?.startsWith(`/reports/history/${units[1]}/`)) {
        held.push(res);
        return;
      }
      const up = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      });
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
    const address = gate.address();
    assert.ok(address && typeof address === 'object');
    gateEnv = { ...h.env, TRACKCTL_BASE_URL: `http://127.0.0.1:${address.port}` };
    const login = await runCli(['login', '--email', DEMO.email, '--password-stdin'], gateEnv, { input: `${DEMO.password}\n` });
    assert.equal(login.code, 0, login.stderr);
    // Two units with reports in the window, the first fetched first (--concurrency 1).
    const stream = await h.run(['history', '--all-units', '--from', FROM, '-o', 'ndjson']);
    assert.equal(stream.code, 0, stream.stderr);
    for (const line of stream.stdout.split('\n')) {
      if (line === '') continue;
      const did = (JSON.parse(line) as { properties: { did: number } }).properties.did;
      if (!units.includes(did)) units.push(did);
      if (units.length === 2) break;
    }
    assert.equal(units.length, 2);
  });
  after(async () => {
    for (const res of held) res.destroy();
    gate?.closeAllConnections();
    await new Promise((resolve) => gate?.close(resolve));
    await h?.close();
  });

  /** A lake run through the gate, with its own TMPDIR, held at the second unit once its spool and lock exist. */
  async function heldRun(name: string): Promise<{ child: ReturnType<typeof spawn>; exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>; err: () => string; tmp: string; lock: string; args: string[] }> {
    const tmp = join(h.dir, name, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const heldBefore = held.length; // the runs before this one left theirs held
    const checkpoint = join(h.dir, name, 'ck.json');
    const args = ['history', ...units.map(String), '--from', FROM, '--checkpoint', checkpoint, '--out-dir', join(h.dir, name, 'lake'), '--layout', 'hive', '-o', 'ndjson', '--concurrency', '1'];
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...gateEnv, TMPDIR: tmp }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    const lock = `${checkpoint}.lock`;
    await until(() => existsSync(lock) && spools(tmp).length > 0 && held.length > heldBefore, 'the run holding its lock and spool', () => err);
    return { child, exit, err: () => err, tmp, lock, args };
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    test(`${signal} leaves no lock file and no spool folder`, async () => {
      const run = await heldRun(signal);
      run.child.kill(signal);
      const { code, signal: by } = await run.exit;
      assert.ok(by === signal || code === (signal === 'SIGINT' ? 130 : 143), `ended by ${signal}: ${code} ${by} ${run.err()}`);
      assert.equal(existsSync(run.lock), false, 'no lock file');
      assert.deepEqual(spools(run.tmp), [], 'no spool folder');
    });
  }

  test('after a SIGKILL, the next run removes the orphan spool', async () => {
    const run = await heldRun('killed');
    const orphans = spools(run.tmp);
    run.child.kill('SIGKILL');
    await run.exit;
    assert.deepEqual(spools(run.tmp), orphans, 'the killed run left its spool');
    // The next run spools too (straight to the sandbox, nothing held): the orphan goes, then its own at its end.
    const again = await h.run(run.args, { env: { TMPDIR: run.tmp } });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(spools(run.tmp), [], 'no spool folder is left');
  });

  test('a zombie owner (SIGKILLed, not reaped) does not hold the checkpoint: the next run goes at once', async () => {
    const checkpoint = join(h.dir, 'zombie', 'ck.json');
    mkdirSync(join(h.dir, 'zombie'), { recursive: true });
    const args = ['history', String(units[0]), '--from', FROM, '--checkpoint', checkpoint, '-o', 'ndjson'];
    // sh starts the binary, says its pid, and becomes sleep, which reaps no child.
    const sh = spawn('sh', ['-c', '"$0" "$@" >/dev/null 2>&1 & echo $!; exec sleep 300', process.execPath, BIN, ...args, '--follow', '--interval', '1h'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...h.env },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      let out = '';
      sh.stdout?.on('data', (d: Buffer) => (out += d.toString()));
      await until(() => /^\d+\n/.test(out), 'the pid of the run');
      const pid = Number(out.trim());
      const lock = `${checkpoint}.lock`;
      const owner = (): number | undefined => {
        try {
          return (JSON.parse(readFileSync(lock, 'utf8')) as { pid: number }).pid;
        } catch {
          return undefined;
        }
      };
      await until(() => owner() === pid, 'the run holding the lock');
      process.kill(pid, 'SIGKILL');
      await until(() => procState(pid) === 'Z', 'the run becoming a zombie', () => String(procState(pid)));
      const again = await h.run(args);
      assert.equal(again.code, 0, again.stderr);
      assert.doesNotMatch(again.stderr, /in use/);
      assert.equal(procState(pid), 'Z', 'the owner was still a zombie when the next run took its lock');
    } finally {
      sh.kill('SIGKILL');
    }
  });
});
