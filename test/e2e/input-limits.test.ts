/**
 * Size limits are read as limits: an input with no end (/dev/zero, an endless pipe) is read up
 * to its limit and refused there with exit 2 naming the limit, before any request; it is not
 * read until memory or V8's longest string gives out (~600 MB, seconds).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, startHarness, type Harness } from '../helpers/cli.js';

describe('file inputs with a size limit', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h.close());

  test('/dev/zero as an import, a fleet file, a request body or a columns file: exit 2 naming the limit, nothing sent', async () => {
    await h.expectUsage(['devices', 'import', '/dev/zero', '--dry-run'], 'the import /dev/zero is over the limit of 256 MB');
    await h.expectUsage(['apply', '-f', '/dev/zero', '--dry-run'], 'fleet file /dev/zero is over the limit of 64 MB');
    await h.expectUsage(['api', '/v2/devices/', '-X', 'POST', '-d', '@/dev/zero'], '--data @/dev/zero is over the limit of 64 MB');
    await h.expectUsage(['devices', 'list', '-o', 'custom-columns-file=/dev/zero'], '-o custom-columns-file /dev/zero is over the limit of 1 MB');
  });

  test('an endless pipe on stdin is read no further than the limit: the writer is cut off just past 64 MB', async () => {
    h.sandbox.clearRequests();
    const child = spawn(process.execPath, [BIN, 'apply', '-f', '-', '--dry-run'], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...h.env }, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.on('error', () => undefined); // EPIPE: each write's callback reports it
    const chunk = Buffer.alloc(1 << 20, 0x20);
    let accepted = 0;
    // 192 MB, three times the limit, one chunk at a time: once the reader has gone, a write fails (EPIPE).
    for (let i = 0; i < 192; i++) {
      const ok = await new Promise<boolean>((resolve) => child.stdin.write(chunk, (err) => resolve(!err)));
      if (!ok) break;
      accepted += chunk.length;
    }
    child.stdin.end();
    assert.equal(await exit, 2, stderr);
    assert.match(stderr, /fleet file \(stdin\) is over the limit of 64 MB/);
    assert.deepEqual(h.sent(), []);
    assert.ok(accepted <= 68 * 1048576, `took ${(accepted / 1048576).toFixed(1)} MB, not far past the 64 MB limit`);
  });
});
