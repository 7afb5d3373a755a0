import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { UsageError } from '../../src/errors.js';
import type { IO } from '../../src/io/delivery/streams.js';
import { parseStartOptions, runStart } from '../../src/commands/sandbox/start.js';
import { runReset } from '../../src/commands/sandbox/reset.js';
import { runInProcess } from '../helpers/in-process.js';

function fakeCtx(dataDir: string): { io: IO; paths(): { dataDir: string }; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const io: IO = {
    stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(),
    stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false, columns: () => 80,
    out: async (t) => void out.push(t),
    err: (t) => void err.push(t),
    flush: async () => undefined,
  };
  return { io, paths: () => ({ dataDir }), out, err };
}

describe('trackctl sandbox', () => {
  test('start refuses a bad value with exit 2 naming it, before serving anything', async () => {
    for (const [argv, message] of [
      [['--port', '99999'], 'invalid --port "99999": expected a whole number from 0 to 65535'],
      [['--port', 'abc'], 'invalid --port "abc"'],
      [['--seed', '-1'], 'invalid --seed "-1"'],
      [['--devices', 'many'], 'invalid --devices "many"'],
      [['--faults', 'error=9'], '--faults "error=9"'],
      [['--access-ttl', '0'], 'invalid --access-ttl "0": expected a whole number from 1 to'],
      [['--memory', '--state', 'x'], '--memory and --state'],
    ] as const) {
      const r = await runInProcess(['sandbox', 'start', ...argv]);
      assert.equal(r.code, 2, argv.join(' '));
      assert.equal(r.stdout, '');
      assert.ok(r.stderr.includes(message), `${argv.join(' ')}: ${r.stderr}`);
    }
  });

  test('start reads its numbers as declared (the fallbacks too)', async () => {
    const ctx = fakeCtx('/tmp');
    const ok = await parseStartOptions({ port: 0, seed: 3, accessTtl: 60 }, ctx);
    assert.equal(ok.stateFile, '/tmp/sandbox-state.json');
    assert.equal(ok.seed, 3);
    assert.equal(ok.accessTtl, 60);
  });

  test('start prints base-url first, serves until stopped, then persists; reset removes the state', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-cmd-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const ctx = fakeCtx(dir);
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const running = runStart({ port: 0 }, ctx, stopped);
    while (ctx.out.length === 0) await new Promise((r) => setTimeout(r, 10));
    const first = ctx.out.join('').split('\n')[0] as string;
    const m = /^base-url: (http:\/\/127\.0\.0\.1:\d+)$/.exec(first);
    assert.ok(m, first);
    assert.match(ctx.out.join(''), /demo@example.com/);
    const r = await fetch(`${m[1]}/api/login/`, { method: 'POST', body: JSON.stringify({ email: 'demo@example.com', password: 'demo' }) });
    assert.equal(r.status, 200);
    stop();
    await running;
    const file = join(dir, 'sandbox-state.json');
    assert.ok(existsSync(file));
    await runReset({}, ctx);
    assert.equal(existsSync(file), false);
    assert.match(ctx.err.join('\n'), /Removed sandbox state/);
    await runReset({}, ctx);
    assert.match(ctx.err.join('\n'), /nothing to do/);
  });

  test('start reports a port in use as a usage error', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-cmd-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const ctx = fakeCtx(dir);
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const running = runStart({ memory: true }, ctx, stopped);
    while (ctx.out.length === 0) await new Promise((r) => setTimeout(r, 10));
    const port = /:(\d+)\n/.exec(ctx.out.join(''))?.[1] as string;
    await assert.rejects(runStart({ memory: true, port: Number(port) }, fakeCtx(dir), Promise.resolve()), (e: unknown) => e instanceof UsageError && e.message.includes(port));
    stop();
    await running;
  });
});
