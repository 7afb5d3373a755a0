/** When a unit's progress may be saved: a pipe's unread bytes are not delivered. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunCheckpoint } from '../../src/runs/checkpoint.js';
import { Cursor } from '../../src/runs/cursor.js';
import { Ledger } from '../../src/runs/delivery.js';

const now = (): number => 1_795_000_000_000;
const KIB = 1024;

async function open(): Promise<{ cp: RunCheckpoint; saved: () => Record<string, number> }> {
  const file = join(mkdtempSync(join(tmpdir(), 'trackctl-ledger-')), 'run.ckpt');
  const cp = await RunCheckpoint.open(file, { kind: 'history', window: {}, reportTypes: undefined }, now);
  const saved = (): Record<string, number> => {
    const units = (JSON.parse(readFileSync(file, 'utf8')) as { units: Record<string, { lastQueryTime: number }> }).units;
    return Object.fromEntries(Object.entries(units).map(([did, u]) => [did, u.lastQueryTime]));
  };
  return { cp, saved };
}

const at = (t: number) => ({ cursor: new Cursor(t), parts: 0 });

test('on a pipe, a round is saved only once more than the pipe can hold was accepted after it', async () => {
  const { cp, saved } = await open();
  let accepted = 0;
  const ledger = new Ledger(cp, 'per-round', { bound: 64 * KIB, accepted: () => accepted });
  // Round 1: 40 KiB written, taken by the pipe; its reader may not have read a byte of it.
  ledger.unitDone(7, at(100));
  accepted += 40 * KIB;
  await ledger.roundDone();
  assert.deepEqual(saved(), {}, 'round 1 may still sit in the pipe');
  // Round 2: a few bytes more (a state event): the reader may still leave with both rounds unread.
  ledger.unitDone(7, at(200));
  ledger.unitDone(9, at(200));
  accepted += 2 * KIB;
  await ledger.roundDone();
  assert.deepEqual(saved(), {}, 'a later write that fits in the pipe proves nothing');
  // Round 3: 70 KiB more: whatever the pipe holds now, rounds 1 and 2 were read.
  ledger.unitDone(7, at(300));
  accepted += 70 * KIB;
  await ledger.roundDone();
  assert.deepEqual(saved(), { 7: 200, 9: 200 }, 'rounds followed by more than the pipe holds are saved, the last one not');
  // The run stops (Ctrl-C, EPIPE): the unconfirmed round stays unsaved; the next run delivers it again.
  await ledger.end(false);
  assert.deepEqual(saved(), { 7: 200, 9: 200 });
});

test('on a pipe, a held round is saved with the progress it had, not what the unit reached since', async () => {
  const { cp, saved } = await open();
  let accepted = 0;
  const ledger = new Ledger(cp, 'per-round', { bound: 64 * KIB, accepted: () => accepted });
  // One unit, one cursor object that each round moves on, as the runs hand it over.
  const cursor = new Cursor(100);
  ledger.unitDone(7, { cursor, parts: 0 });
  accepted += 40 * KIB;
  await ledger.roundDone();
  cursor.lastQueryTime = 200;
  cursor.seen = new Set(['r2']);
  ledger.unitDone(7, { cursor, parts: 0 });
  accepted += 60 * KIB;
  await ledger.roundDone();
  cursor.lastQueryTime = 300;
  ledger.unitDone(7, { cursor, parts: 0 });
  accepted += 30 * KIB;
  await ledger.roundDone();
  // Round 1 was followed by 90 KiB, round 2 by 30: only round 1 is surely read.
  assert.deepEqual(saved(), { 7: 100 }, 'saving 200 or 300 would skip reports still in the pipe if the reader leaves now');
});

test('on a pipe, rounds that write nothing wait behind the unread round before them', async () => {
  const { cp, saved } = await open();
  let accepted = 0;
  const ledger = new Ledger(cp, 'per-round', { bound: 64 * KIB, accepted: () => accepted });
  ledger.unitDone(7, at(100));
  accepted += 10 * KIB;
  await ledger.roundDone();
  for (let t = 200; t < 1000; t += 100) {
    ledger.unitDone(7, at(t)); // quiet rounds: the cursor moves, nothing is written
    await ledger.roundDone();
  }
  assert.deepEqual(saved(), {}, 'a quiet round saved now would carry the cursor past the unread reports');
  accepted += 100 * KIB;
  ledger.unitDone(7, at(1000));
  await ledger.roundDone();
  assert.deepEqual(saved(), { 7: 900 });
});

test('to a regular file or a terminal, each acknowledged round is saved at once', async () => {
  const { cp, saved } = await open();
  const ledger = new Ledger(cp, 'per-round');
  ledger.unitDone(7, at(100));
  await ledger.roundDone();
  assert.deepEqual(saved(), { 7: 100 });
});

test('a stream run is saved at its end only when it ended well', async () => {
  const failed = await open();
  const a = new Ledger(failed.cp, 'at-end');
  a.unitDone(7, at(100));
  await a.end(false);
  assert.deepEqual(failed.saved(), {}, 'a failed stream run moves no unit: its output may be discarded');
  const good = await open();
  const b = new Ledger(good.cp, 'at-end');
  b.unitDone(7, at(100));
  await b.end(true);
  assert.deepEqual(good.saved(), { 7: 100 });
});
