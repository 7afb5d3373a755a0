/**
 * `trackctl … | head`: when the reader leaves early a listing ends quietly, exit 0; a run
 * that delivers reports (history, report, watch) fails, exit 1, with one line that says so
 * (what it wrote may not have been read, so nothing of it counts as delivered). No stack trace.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, startHarness, type Harness } from '../helpers/cli.js';

let h: Harness;
before(async () => {
  h = await startHarness({ devices: 3000 });
});
after(async () => h.close());

for (const [args, exit] of [[['devices', 'list', '-o', 'json'], 0], [['devices', 'list'], 0], [['history', '2004', '--all', '-o', 'ndjson'], 1], [['--help'], 0]] as const) {
  test(`trackctl ${args.join(' ')} | head -1`, async () => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...h.env } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy(); // the reader goes away, as `head` does
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    assert.equal(code, exit, stderr);
    if (exit === 0) assert.doesNotMatch(stderr, /EPIPE|Error:|at /);
    else assert.match(stderr, /^error: the output did not take everything written: its reader went away \(EPIPE\)\n$/);
  });
}
