/**
 * The lock under real contention: this file re-runs itself as N worker
 * processes (LOCK_WORKER set), each incrementing a counter file under the lock
 * with a deliberate gap between read and write. Without mutual exclusion the
 * final count falls short.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { withFileLock } from '../../src/lock.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function increment(counter: string): Promise<void> {
  const n = Number(await readFile(counter, 'utf8'));
  await sleep(2);
  await writeFile(counter, String(n + 1));
}

async function worker(lockPath: string, counter: string, rounds: number): Promise<void> {
  for (let i = 0; i < rounds; i++) await withFileLock(lockPath, () => increment(counter), { timeoutMs: 60_000 });
}

const role = process.env['LOCK_WORKER'];
if (role !== undefined) {
  const [lockPath = '', counter = '', rounds = '1'] = role.split('|');
  await worker(lockPath, counter, Number(rounds));
} else {
  const dirs: string[] = [];
  const tempDir = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'trackctl-lock-'));
    dirs.push(d);
    return d;
  };
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const runWorker = (lockPath: string, counter: string, rounds: number): Promise<number> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
        env: { ...process.env, LOCK_WORKER: `${lockPath}|${counter}|${rounds}` },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child.once('error', reject);
      child.once('exit', (code) => resolve(code ?? -1));
    });

  describe('withFileLock', () => {
    test('20 processes x 5 increments under the lock count exactly 100', async () => {
      const dir = tempDir();
      const counter = join(dir, 'counter');
      const lockPath = join(dir, 'locks', 'default.lock');
      writeFileSync(counter, '0');
      const codes = await Promise.all(Array.from({ length: 20 }, () => runWorker(lockPath, counter, 5)));
      assert.deepEqual(codes, Array(20).fill(0));
      assert.equal(readFileSync(counter, 'utf8'), '100');
      assert.equal(existsSync(lockPath), false, 'lock released');
      assert.deepEqual(readdirSync(join(dir, 'locks')), []);
    });

    test('in-process callers are serialized too', async () => {
      const dir = tempDir();
      const counter = join(dir, 'counter');
      writeFileSync(counter, '0');
      await Promise.all(Array.from({ length: 10 }, () => withFileLock(join(dir, 'l'), () => increment(counter))));
      assert.equal(readFileSync(counter, 'utf8'), '10');
    });

    test('a lock older than staleMs is broken', async () => {
      const dir = tempDir();
      const lockPath = join(dir, 'x.lock');
      const old = Date.now() - 60_000;
      writeFileSync(lockPath, JSON.stringify({ pid: process.pid, host: hostname(), time: old, token: 'old' }));
      const { utimesSync } = await import('node:fs');
      utimesSync(lockPath, old / 1000, old / 1000);
      const started = Date.now();
      assert.equal(await withFileLock(lockPath, async () => 'ran', { staleMs: 1000, timeoutMs: 5000 }), 'ran');
      assert.ok(Date.now() - started < 2000);
      assert.equal(existsSync(lockPath), false);
    });

    test('a lock whose process is dead is broken at once', async () => {
      const dir = tempDir();
      const lockPath = join(dir, 'x.lock');
      const dead = spawn(process.execPath, ['-e', '0']);
      const pid = dead.pid ?? 0;
      await new Promise((r) => dead.once('exit', r));
      writeFileSync(lockPath, JSON.stringify({ pid, host: hostname(), time: Date.now(), token: 'dead' }));
      assert.equal(await withFileLock(lockPath, async () => 'ran', { timeoutMs: 2000 }), 'ran');
    });

    test('a live holder is waited for, then the wait times out', async () => {
      const dir = tempDir();
      const lockPath = join(dir, 'x.lock');
      writeFileSync(lockPath, JSON.stringify({ pid: process.ppid, host: hostname(), time: Date.now(), token: 'live' }));
      await assert.rejects(withFileLock(lockPath, async () => 'ran', { timeoutMs: 300 }), /timed out after 300 ms waiting for lock/);
      assert.equal(existsSync(lockPath), true, 'a live lock is left alone');
    });

    test('released when fn throws', async () => {
      const dir = tempDir();
      const lockPath = join(dir, 'x.lock');
      await assert.rejects(withFileLock(lockPath, async () => Promise.reject(new Error('boom'))), /boom/);
      assert.equal(existsSync(lockPath), false);
    });
  });
}
