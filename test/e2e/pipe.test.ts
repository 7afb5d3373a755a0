/** `trackctl … | head`: when the reader leaves early the command ends quietly, exit 0, no stack trace. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, startHarness, type Harness } from '../helpers/cli.js';

let h: Harness;
before(async () => {
  h = await startHarness({ devices: 3000 });
});
after(async () => h.close());

for (const args of [['devices', 'list', '-o', 'json'], ['devices', 'list'], ['history', '2004', '--all', '-o', 'ndjson'], ['--help']]) {
  test(`trackctl ${args.join(' ')} | head -1`, async () => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...h.env } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy(); // the reader goes away, as `head` does
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /EPIPE|Error:|at /);
  });
}
