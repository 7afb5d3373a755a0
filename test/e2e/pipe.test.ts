/**
 * `trackctl … | head`: when the reader leaves early the command ends quietly with exit 141,
 * what a shell reports for a program killed by SIGPIPE (as gh and kubectl do), in every
 * command and format. Nothing on stderr.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, startHarness, type Harness } from '../helpers/cli.js';

let h: Harness;
before(async () => {
  h = await startHarness({ devices: 3000 });
});
after(async () => h.close());

// A real `| head -1` in bash: head leaves after its first line, with the rest still to come
// (each output is several times what a pipe holds); PIPESTATUS gives trackctl's own exit.
for (const args of [['devices', 'list', '-o', 'json'], ['devices', 'list'], ['devices', 'list', '-o', 'csv', '-q'], ['history', '2004', '--all', '-o', 'ndjson'], ['history', '2004', '--all']]) {
  test(`trackctl ${args.join(' ')} | head -1: quiet, exit 141`, async () => {
    const line = `"$@" 2>"$ERR" | head -1 >/dev/null; echo "\${PIPESTATUS[0]}"`;
    const err = join(h.dir, 'pipe-stderr');
    const child = spawn('bash', ['-c', line, 'bash', process.execPath, BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...h.env, ERR: err },
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    await new Promise<void>((resolve) => child.on('close', () => resolve()));
    const stderr = readFileSync(err, 'utf8');
    assert.equal(stdout.trim(), '141', stderr);
    assert.equal(stderr, '', 'nothing said');
  });
}

