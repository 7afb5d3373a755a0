/**
 * Local write failures: a path option under a regular file is refused before any request
 * (exit 2, naming it); a full disk (/dev/full, a tiny tmpfs) is exit 1 with one message
 * naming what could not be written, however many units were running.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnTo, startHarness, type Harness } from '../helpers/cli.js';

const CLOCK_MS = Date.UTC(2026, 10, 26, 12, 0, 0);
const WINDOW = ['--from', String(Date.UTC(2026, 10, 24, 9, 0, 0) / 1000), '--to', String(Date.UTC(2026, 10, 26, 9, 0, 0) / 1000)];
const UNITS = ['2004', '2005', '2006', '2007', '2008'];
const errorLines = (stderr: string): string[] => stderr.split('\n').filter((line) => line.startsWith('error:'));

describe('local write failures', () => {
  let h: Harness;
  let notADir = '';
  before(async () => {
    // In-process; spawned where stdout itself is the full disk (spawnTo).
    h = await startHarness({ now: () => CLOCK_MS, sessionTtl: 30 * 86400, inProcess: true });
    notADir = h.file('notes.txt', 'a regular file\n');
  });
  after(async () => h.close());

  test('a path under a regular file, or a directory given for a file: exit 2 naming the option and the path, nothing sent', async () => {
    await h.expectUsage(['history', '2004', '--checkpoint', join(notADir, 'cp.json'), '-o', 'ndjson'], `--checkpoint ${join(notADir, 'cp.json')}: ${notADir} is a file, not a directory`);
    await h.expectUsage(['history', '2004', ...WINDOW, '--output-file', join(notADir, 'h.ndjson')], `--output-file ${join(notADir, 'h.ndjson')}`);
    await h.expectUsage(['history', ...UNITS, ...WINDOW, '--out-dir', join(notADir, 'out')], `--out-dir ${join(notADir, 'out')}`);
    await h.expectUsage(['history', ...UNITS, ...WINDOW, '--out-dir', notADir], 'is a file, not a directory');
    await h.expectUsage(['history', '2004', ...WINDOW, '--output-file', h.dir], 'is a directory, not a file');
    await h.expectUsage(['watch', '2004', '--checkpoint', join(notADir, 'w.json'), '-o', 'ndjson'], `--checkpoint ${join(notADir, 'w.json')}`);
  });

  test('stdout on a full disk: exit 1, the error printed once, naming stdout', async () => {
    for (const args of [['history', ...UNITS, ...WINDOW, '-o', 'ndjson'], ['report', 'trips', ...UNITS, ...WINDOW, '-o', 'ndjson'], ['devices', 'list', '-o', 'json']]) {
      const run = spawnTo(h, args, '/dev/full');
      assert.equal(await run.exit, 1, run.err());
      assert.deepEqual(errorLines(run.err()), ['error: cannot write stdout: no space left on device (ENOSPC)'], `${args.slice(0, 2).join(' ')}: ${run.err()}`);
    }
  });

  test('watch on a full disk: exit 1 at its first round, the error printed once, no round saved', async () => {
    const ck = join(h.dir, 'full.ckpt');
    const run = spawnTo(h, ['watch', ...UNITS, '--interval', '1s', '--checkpoint', ck, '-o', 'ndjson'], '/dev/full');
    assert.equal(await run.exit, 1, run.err());
    assert.deepEqual(errorLines(run.err()), ['error: cannot write stdout: no space left on device (ENOSPC)'], run.err());
    const saved = JSON.parse(readFileSync(ck, 'utf8')) as { rounds: number };
    assert.equal(saved.rounds, 0, 'the round that was not written is not saved');
  });

  describe('on a full file system (a 64 KB tmpfs)', () => {
    let mounted = '';
    before(() => {
      mounted = join(h.dir, 'tiny');
      mkdirSync(mounted);
      const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mounted], { encoding: 'utf8' });
      if (mount.status !== 0) mounted = '';
    });
    after(() => {
      if (mounted !== '') spawnSync('umount', [mounted]);
    });

    test('--output-file and --out-dir: exit 1, one message naming the file, nothing left behind', async (t) => {
      if (mounted === '') return t.skip('cannot mount a tmpfs here (needs root)');
      const file = join(mounted, 'all.ndjson');
      const one = await h.run(['history', '2004', ...WINDOW, '-o', 'ndjson', '--output-file', file]);
      assert.equal(one.code, 1, one.stderr);
      assert.deepEqual(errorLines(one.stderr), [`error: cannot write --output-file ${file}: no space left on device (ENOSPC)`]);
      assert.equal(existsSync(file), false, 'FILE is not created half-written');
      const dir = join(mounted, 'lake');
      const many = await h.run(['history', ...UNITS, ...WINDOW, '-o', 'ndjson', '--out-dir', dir]);
      assert.equal(many.code, 1, many.stderr);
      const lines = errorLines(many.stderr);
      assert.equal(lines.length, 1, many.stderr);
      assert.match(lines[0] as string, new RegExp(`^error: cannot write ${dir}/\\S+: no space left on device \\(ENOSPC\\)$`));
      assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith('.tmp')), [], 'no temporary file left');
      writeFileSync(join(mounted, 'probe'), ''); // the file system itself is fine once the run gave up
    });
  });
});
