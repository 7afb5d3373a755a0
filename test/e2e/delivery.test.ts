/**
 * Delivery before saving, against the sandbox with its clock frozen (the history is a
 * function of time): a stream run that fails part-way moves no unit's checkpoint, so the
 * next run delivers every report; with --out-dir finished units stay saved. Temporaries of
 * killed runs are removed by the next run; a lock left empty or by a dead run is taken at
 * once. (A reader that goes away: delivery-pipe.test.ts.)
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { spawnTo, startHarness, type Harness } from '../helpers/cli.js';

const HOUR = 3600;
const NOW = Math.floor(Date.now() / 1000 / 3600) * 3600;
const FROM = String(NOW - 24 * HOUR);
const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');
/** A report's identity (the de-duplication key the help documents). */
function key(line: string): string {
  const p = (JSON.parse(line) as { properties: Record<string, unknown> }).properties;
  return JSON.stringify([p.did, p.date, p.reportType, p.reportValue, p.lat, p.lng, p.message]);
}
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('delivery before saving', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ now: () => NOW * 1000, sessionTtl: 30 * 86400 });
  });
  after(async () => h.close());

  test('an exit-7 stream run moves no checkpoint: its output discarded, the next run delivers every report', async () => {
    const truth = await h.run(['history', '2004', '2005', '2016', '--from', FROM, '-o', 'ndjson']);
    assert.equal(truth.code, 0, truth.stderr);
    const ck = join(h.dir, 'seven.ckpt');
    const failed = await h.run(['history', '2004', '2005', '2016', '999999', '--from', FROM, '--checkpoint', ck, '-o', 'ndjson']);
    assert.equal(failed.code, 7, failed.stderr);
    assert.ok(lines(failed.stdout).length > 0, 'the units that worked were written');
    // As --help says: discard the failed run's output, run again.
    const next = await h.run(['history', '2004', '2005', '2016', '--checkpoint', ck, '-o', 'ndjson']);
    assert.equal(next.code, 0, next.stderr);
    assert.deepEqual(lines(next.stdout).map(key).sort(), lines(truth.stdout).map(key).sort());
  });

  test('with --out-dir an exit-7 run keeps the units that finished: the next run adds nothing for them', async () => {
    const ck = join(h.dir, 'dir.ckpt');
    const dir = join(h.dir, 'lake');
    const failed = await h.run(['history', '2004', '2005', '999999', '--from', FROM, '--checkpoint', ck, '--out-dir', dir, '-o', 'ndjson']);
    assert.equal(failed.code, 7, failed.stderr);
    const saved = JSON.parse(readFileSync(ck, 'utf8')) as { units: Record<string, unknown> };
    assert.deepEqual(Object.keys(saved.units), ['2004', '2005']);
    const before = filesUnder(dir).sort();
    const next = await h.run(['history', '2004', '2005', '--checkpoint', ck, '--out-dir', dir, '-o', 'ndjson']);
    assert.equal(next.code, 0, next.stderr);
    assert.deepEqual(filesUnder(dir).sort(), before, 'no new part: nothing new was received');
  });

  test('50 Ctrl-C or SIGKILL at random moments: the next run to the same --output-file or --out-dir leaves no temporary', async () => {
    const { BENCH_UNIT_ID } = await import('../../src/sandbox/index.js');
    const outDir = join(h.dir, 'temps');
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, 'bench.ndjson');
    const lake = join(h.dir, 'temps-lake');
    let rnd = 12345;
    const random = (): number => ((rnd = (rnd * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 50; i++) {
      const args = i % 2 === 0
        ? ['history', String(BENCH_UNIT_ID), '--all', '--output-file', file, '-o', 'ndjson']
        : ['history', '2004', '2005', '2016', '--from', FROM, '--out-dir', lake, '--partition', 'day', '-o', 'ndjson'];
      const run = spawnTo(h, args, '/dev/null');
      await sleep(100 + random() * 700);
      run.kill(random() < 0.5 ? 'SIGINT' : 'SIGKILL');
      await run.exit;
    }
    const last = await h.run(['history', '2004', '--from', FROM, '--output-file', file, '-o', 'ndjson']);
    assert.equal(last.code, 0, last.stderr);
    assert.deepEqual(readdirSync(outDir), ['bench.ndjson'], 'only the file itself');
    const lastDir = await h.run(['history', '2004', '--from', FROM, '--out-dir', lake, '--partition', 'day', '-o', 'ndjson']);
    assert.equal(lastDir.code, 0, lastDir.stderr);
    const temps = filesUnder(lake).filter((p) => p.endsWith('.tmp'));
    assert.deepEqual(temps, [], 'no temporary in --out-dir');
  });

  test('a checkpoint lock left empty, or by a dead run, is taken at once (the wait for a live one is a second)', async () => {
    const ck = join(h.dir, 'locked.ckpt');
    writeFileSync(`${ck}.lock`, '');
    const past = new Date(Date.now() - 5000);
    const { utimesSync } = await import('node:fs');
    utimesSync(`${ck}.lock`, past, past);
    const empty = await h.run(['history', '2004', '--from', FROM, '--checkpoint', ck, '-o', 'ndjson']);
    assert.equal(empty.code, 0, empty.stderr);
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => dead.once('exit', r));
    writeFileSync(`${ck}.lock`, JSON.stringify({ pid: dead.pid, host: hostname(), time: Date.now(), token: 'dead' }));
    const taken = await h.run(['history', '2004', '--checkpoint', ck, '-o', 'ndjson']);
    assert.equal(taken.code, 0, taken.stderr);
    assert.equal(existsSync(`${ck}.lock`), false);
  });
});
