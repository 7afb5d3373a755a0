/**
 * A spool folder is removed when SIGINT or SIGTERM ends its run from the moment the folder
 * exists: also when the signal comes after mkdtemp made it and before its path came back to
 * the run (the folder is on disk, and a `kill` that waits for it, as a supervisor's or a
 * test's may, lands there). The child process below stands in the signal at that moment: its
 * mkdtemp is the real one, which then signals its own process and returns later.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import fsPromises from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { makeSpoolDir } from '../../src/io/delivery/spool.js';

const signal = process.env['SPOOL_SIGNAL'] as NodeJS.Signals | undefined;
if (signal !== undefined) {
  const real = fsPromises.mkdtemp;
  fsPromises.mkdtemp = (async (prefix: string) => {
    const path = await real(prefix);
    process.kill(process.pid, signal);
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    return path;
  }) as typeof fsPromises.mkdtemp;
  syncBuiltinESMExports();
  await makeSpoolDir('lake-spool');
  process.exitCode = 3; // the signal was not heard
} else {
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-test-spool-signal-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    test(`${sig} right after mkdtemp made the spool folder, before the run knows its path: no folder is left`, async () => {
      const tmp = join(dir, sig);
      mkdirSync(tmp);
      const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], { env: { ...process.env, SPOOL_SIGNAL: sig, TMPDIR: tmp }, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
      const [code, by] = (await new Promise((resolve) => child.once('close', (c, s) => resolve([c, s])))) as [number | null, NodeJS.Signals | null];
      assert.equal(by, sig, `ended by ${sig}, not ${code} ${by}: ${err}`);
      assert.deepEqual(readdirSync(tmp), [], 'no spool folder is left');
    });
  }
}
