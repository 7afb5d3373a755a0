/**
 * A checkpoint's record of a killed lake run (`lake.pending`) is data, not an order: what it
 * names is removed only when it is a part of the run it names, in this run's --out-dir. A
 * forged record naming a file outside (a decoy here), a name that is no part, another run's
 * part or a partition folder that links outside leaves them as they are, says so on stderr,
 * and the run goes on. A run killed after publishing (a preload SIGKILLs it at the save that
 * would move its units) with a relative --out-dir, re-run from another directory with the
 * absolute path: its parts are removed (no row twice) and the message counts what was removed.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, type Harness, type RunResult } from '../helpers/cli.js';
import { FROM, startLakeHarness, tree } from '../helpers/lake.js';

/** Loaded into the binary: SIGKILLs it at the first rename after a part was published (the save that moves the units). */
const KILL_AFTER_PUBLISHING = String.raw`
const fsp = require('node:fs/promises');
const rename = fsp.rename;
let published = false;
fsp.rename = async (from, to) => {
  const part = /(^|\/)part-[^/]*$/.test(String(to));
  if (published && !part) process.kill(process.pid, 'SIGKILL');
  await rename(from, to);
  if (part) published = true;
};
`;

const RUN = '20261119T000000Z-abcdef';
const OTHER_RUN = '20261118T000000Z-123456';

interface Killed extends RunResult {
  signal: NodeJS.Signals | null;
}

describe('a checkpoint that names parts', () => {
  let h: Harness;
  before(async () => {
    ({ h } = await startLakeHarness());
  });
  after(async () => {
    await h?.close();
  });

  /** The binary run in `cwd` (with a preload when given): the working directory and the preload are a process's. */
  const runIn = (cwd: string, args: string[], preload?: string): Promise<Killed> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [...(preload ? ['--require', preload] : []), BIN, ...args], {
        cwd,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...h.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code: code ?? 128, signal, stdout, stderr }));
    });

  /** A real checkpoint of a finished run into `lake`, then given a forged record. */
  async function forged(name: string, pending: { run: string; outDir: string; keys: string[] }): Promise<{ lake: string; checkpoint: string; args: string[] }> {
    const lake = join(h.dir, name, 'lake');
    const checkpoint = join(h.dir, name, 'ck.json');
    const args = ['history', '2004', '--from', FROM, '--checkpoint', checkpoint, '--out-dir', lake, '--layout', 'hive', '-o', 'ndjson'];
    const first = await h.run(args);
    assert.equal(first.code, 0, first.stderr);
    const data = JSON.parse(readFileSync(checkpoint, 'utf8')) as Record<string, unknown>;
    writeFileSync(checkpoint, JSON.stringify({ ...data, lake: { pending } }));
    return { lake, checkpoint, args };
  }

  const pendingOf = (checkpoint: string): unknown => (JSON.parse(readFileSync(checkpoint, 'utf8')) as { lake?: unknown }).lake;

  test('a record naming a file outside --out-dir leaves it (a decoy), says so, and the run goes on', async () => {
    const outside = join(h.dir, 'outside');
    mkdirSync(join(outside, 'day=2026-11-19'), { recursive: true });
    writeFileSync(join(outside, 'decoy.txt'), 'not a part\n');
    // Even a name of a part's shape is not removed from another folder than this run's --out-dir.
    writeFileSync(join(outside, 'day=2026-11-19', `part-${RUN}-0.ndjson`), '{}\n');
    const { checkpoint, args } = await forged('outside', { run: RUN, outDir: outside, keys: ['decoy.txt', `day=2026-11-19/part-${RUN}-0.ndjson`] });
    const r = await h.run(args);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(join(outside, 'decoy.txt')), 'the decoy is still there');
    assert.ok(existsSync(join(outside, 'day=2026-11-19', `part-${RUN}-0.ndjson`)), 'the part-shaped file outside is still there');
    assert.match(r.stderr, /warning: left ".*\/outside\/decoy\.txt" as it is: it is not in this run's --out-dir/);
    assert.doesNotMatch(r.stderr, /Removed/);
    assert.equal(pendingOf(checkpoint), undefined, 'the record is cleared');
  });

  test('inside --out-dir, what is not a part of the named run is left; its own part is removed', async () => {
    const name = 'inside';
    const lake = join(h.dir, name, 'lake');
    mkdirSync(join(lake, 'day=2026-11-19'), { recursive: true });
    const elsewhere = join(h.dir, name, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    symlinkSync(elsewhere, join(lake, 'day=2026-01-01'));
    const keep = {
      'notes.txt': 'notes\n',
      [`day=2026-11-19/part-${OTHER_RUN}-0.ndjson`]: '{}\n', // another run's part
      [`day=2026-11-19/part-${RUN}-0.ndjson.bak`]: '{}\n', // not a part's name
      [`day=2026-01-01/part-${RUN}-0.ndjson`]: '{}\n', // a part's name, through a folder linking outside
    };
    for (const [key, text] of Object.entries(keep)) writeFileSync(join(lake, key), text);
    const own = `day=2026-11-19/part-${RUN}-7.ndjson`;
    writeFileSync(join(lake, own), '{}\n');
    const gone = `day=2026-11-19/part-${RUN}-8.ndjson`;
    const { checkpoint, args } = await forged(name, { run: RUN, outDir: realpathSync(lake), keys: [...Object.keys(keep), own, gone] });
    const r = await h.run(args);
    assert.equal(r.code, 0, r.stderr);
    for (const key of Object.keys(keep)) {
      assert.ok(existsSync(join(lake, key)), `${key} is still there`);
      assert.ok(r.stderr.includes(`left "${realpathSync(lake)}/${key}" as it is`), `${key} is named as left: ${r.stderr}`);
    }
    assert.match(r.stderr, /left ".*day=2026-01-01\/part-.*" as it is: its folder leads outside the --out-dir/);
    assert.equal(existsSync(join(lake, own)), false, 'the run\'s own part is removed');
    assert.match(r.stderr, new RegExp(`Removed 1 part of interrupted run ${RUN}`));
    assert.match(r.stderr, /1 part of interrupted run .* was no longer there/);
    assert.equal(pendingOf(checkpoint), undefined, 'the record is cleared');
  });

  test('a key that climbs out of --out-dir (..) is left like any name that is no part: the run goes on', async () => {
    const name = 'climbing';
    mkdirSync(join(h.dir, name), { recursive: true });
    writeFileSync(join(h.dir, name, 'decoy.txt'), 'not a part\n');
    const lake = join(h.dir, name, 'lake');
    mkdirSync(lake, { recursive: true });
    const { checkpoint, args } = await forged(name, { run: RUN, outDir: realpathSync(lake), keys: ['../decoy.txt'] });
    const r = await h.run(args);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(join(h.dir, name, 'decoy.txt')), 'the decoy is still there');
    assert.match(r.stderr, /left ".*\/lake\/\.\.\/decoy\.txt" as it is: it is not a part of run/);
    assert.equal(pendingOf(checkpoint), undefined, 'the record is cleared');
  });

  test('killed after publishing with a relative --out-dir, re-run from elsewhere with the absolute path: no row twice, the removal told truly', async () => {
    const stream = await h.run(['history', '--all-units', '--from', FROM, '-o', 'ndjson']);
    assert.equal(stream.code, 0, stream.stderr);
    const expected = stream.stdout.split('\n').filter((l) => l !== '').length;
    const a = join(h.dir, 'relative', 'a');
    const b = join(h.dir, 'relative', 'b');
    mkdirSync(a, { recursive: true });
    mkdirSync(b, { recursive: true });
    const checkpoint = join(h.dir, 'relative', 'ck.json');
    const preload = h.file('kill-after-publishing.cjs', KILL_AFTER_PUBLISHING);
    const args = (outDir: string): string[] => ['history', '--all-units', '--from', FROM, '--checkpoint', checkpoint, '--out-dir', outDir, '--layout', 'hive', '-o', 'ndjson'];

    const killed = await runIn(a, args('lake'), preload);
    assert.equal(killed.signal, 'SIGKILL', `killed at the save after publishing: ${killed.stderr}`);
    const lake = join(a, 'lake');
    const published = tree(lake).filter((f) => !f.split('/').pop()!.startsWith('.'));
    assert.ok(published.length >= 2, `the killed run published its parts: ${published.join(', ')}`);
    assert.ok(pendingOf(checkpoint) !== undefined, 'the killed run left its record');

    const again = await runIn(b, args(lake));
    assert.equal(again.code, 0, again.stderr);
    const rows = tree(lake)
      .filter((f) => !f.split('/').pop()!.startsWith('.'))
      .flatMap((f) => readFileSync(join(lake, f), 'utf8').split('\n').filter((l) => l !== ''));
    assert.equal(new Set(rows).size, rows.length, `no row twice: ${rows.length} rows, ${new Set(rows).size} distinct`);
    assert.equal(rows.length, expected, 'every report of the window once');
    for (const f of published) assert.equal(existsSync(join(lake, f)), false, `${f} of the killed run is removed`);
    assert.match(again.stderr, new RegExp(`Removed ${published.length} parts of interrupted run`));
  });
});
