/** writeFileAtomic (credentials, checkpoints) replaces a regular file, follows a link to its file, and never replaces a FIFO or device. */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../../src/atomic-file.js';

describe('writeFileAtomic', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-atomic-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a symbolic link is followed: its file gets the data and the link stays a link', async () => {
    writeFileSync(join(dir, 'real.json'), 'old');
    symlinkSync('real.json', join(dir, 'link.json'));
    await writeFileAtomic(join(dir, 'link.json'), 'new');
    assert.ok(lstatSync(join(dir, 'link.json')).isSymbolicLink());
    assert.equal(readFileSync(join(dir, 'real.json'), 'utf8'), 'new');
  });

  test('a FIFO is refused and stays a FIFO, with no temporary left', async () => {
    const fifo = join(dir, 'cp.fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    await assert.rejects(writeFileAtomic(fifo, '{}'), /is not a regular file/);
    assert.ok(lstatSync(fifo).isFIFO());
    assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.tmp')), []);
  });
});
