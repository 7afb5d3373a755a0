/**
 * A lock carries its owner from the moment it exists: killed at any moment, a holder
 * leaves no lock, or one that names it (and is then taken at once); an empty lock (an
 * earlier version's) is taken within a second, not after the 30 s stale time.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { withCheckpointLock, withFileLock } from '../../src/lock.js';

const role = process.env['LOCK_HOLDER'];
if (role !== undefined) {
  // A process that takes and releases the lock again and again until it is killed.
  for (;;) await withFileLock(role, () => new Promise((r) => setTimeout(r, Math.random() * 3)), { timeoutMs: 60_000 });
} else {
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-lock-owner-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

  test('an empty lock file is taken by the checkpoint lock (which waits at most a second)', async () => {
    const file = join(dir, 'empty.ckpt');
    writeFileSync(`${file}.lock`, '');
    const past = (Date.now() - 2000) / 1000; // an earlier version's creator is not between its open and write for this long
    utimesSync(`${file}.lock`, past, past);
    assert.equal(await withCheckpointLock(file, async () => 'ran'), 'ran');
    assert.equal(existsSync(`${file}.lock`), false);
  });

  test('a lock naming this very pid with another token (a killed run, its pid reused) is taken at once', async () => {
    const file = join(dir, 'reused.ckpt');
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), time: Date.now(), token: 'an-earlier-run' }));
    assert.equal(await withCheckpointLock(file, async () => 'ran'), 'ran');
  });

  test('SIGKILL at random moments of taking and releasing: every lock left names its owner, and is taken at once', async () => {
    const lockPath = join(dir, 'killed', 'x.lock');
    for (let i = 0; i < 25; i++) {
      const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], { env: { ...process.env, LOCK_HOLDER: lockPath }, stdio: 'ignore' });
      const exit = new Promise((r) => child.once('exit', r));
      await sleep(150 + Math.random() * 150);
      child.kill('SIGKILL');
      await exit;
      if (existsSync(lockPath)) {
        const owner = JSON.parse(readFileSync(lockPath, 'utf8')) as { pid: number };
        assert.equal(owner.pid, child.pid, 'the lock names the killed process');
      }
      assert.equal(await withCheckpointLock(lockPath.replace(/\.lock$/, ''), async () => 'ran'), 'ran');
    }
    assert.deepEqual(readdirSync(join(dir, 'killed')), [], 'no owner file or lock left behind');
  });
}
