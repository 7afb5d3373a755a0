/** The fleet-run checkpoint: one format, two kinds, every earlier file still read. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../src/errors.js';
import { observe } from '../../src/reports/watch-events.js';
import { initialState } from '../../src/reports/watch-start.js';
import { DEFAULT_WATCH_PARAMS, restoreState, type UnitWatchState } from '../../src/reports/watch-state.js';
import { nextSaveAt, RunCheckpoint, SAVE_INTERVAL_MS } from '../../src/runs/checkpoint.js';
import { Cursor } from '../../src/runs/cursor.js';

const now = (): number => 1_795_000_000_000;
const T = 1_800_000_000;
const P = { ...DEFAULT_WATCH_PARAMS, fences: [] };
const watchSpec = { kind: 'watch' as const, restore: (saved: unknown, did: number) => {
  const s = restoreState(saved);
  return s !== undefined && s.did === did ? s : undefined;
} };

test('history: the window fixed on the first run, entries per unit, a single-unit (version 1) file taken over', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-ckpt-'));
  const file = join(dir, 'fleet.ckpt');
  const first = await RunCheckpoint.open(file, { kind: 'history', window: { from: 1000, reportTypes: ['sos'] }, reportTypes: ['sos'] }, now);
  const written = JSON.parse(readFileSync(file, 'utf8')) as { origin: unknown; units: object; version: number };
  assert.deepEqual(written.origin, { from: 1000 }, 'the window is saved before anything is fetched');
  assert.deepEqual(written.units, {});
  assert.equal(written.version, 2);
  first.record(7, { cursor: new Cursor(5000, new Set(['a', 'b'])), parts: 2 });
  first.record(9, { cursor: new Cursor(undefined), parts: 0 });
  await first.save();
  const again = await RunCheckpoint.open(file, { kind: 'history', window: { from: 9999 }, reportTypes: ['sos'] }, now);
  assert.deepEqual(again.origin, { from: 1000 }, 'a later run with another window keeps the first one');
  const p = again.progress(7);
  assert.equal(p.cursor.lastQueryTime, 5000);
  assert.deepEqual([...p.cursor.seen], ['a', 'b']);
  assert.equal(p.parts, 2);
  assert.equal(again.has(9), false, 'a unit without a cursor is not saved');
  assert.equal(again.progress(8).cursor.lastQueryTime, undefined, 'a new unit starts at the window');
  await assert.rejects(RunCheckpoint.open(file, { kind: 'history', window: {}, reportTypes: undefined }, now), /report types sos, not all/);
  await assert.rejects(RunCheckpoint.open(file, watchSpec, now), /not a trackctl watch checkpoint/, 'a history file is not taken by watch');

  const single = join(dir, 'single.ckpt');
  writeFileSync(single, JSON.stringify({ kind: 'trackctl history checkpoint', version: 1, unit: 2004, reportTypes: null, lastQueryTime: 42, seen: ['k'], savedAt: '' }));
  const taken = await RunCheckpoint.open(single, { kind: 'history', window: { from: 77 }, reportTypes: undefined }, now);
  assert.equal(taken.progress(2004).cursor.lastQueryTime, 42);
  assert.deepEqual([...taken.progress(2004).cursor.seen], ['k']);
  assert.deepEqual(taken.origin, { from: 77 });
  taken.record(2005, { cursor: new Cursor(50), parts: 0 });
  await taken.save();
  const upgraded = JSON.parse(readFileSync(single, 'utf8')) as { version: number; units: Record<string, { lastQueryTime: number }> };
  assert.equal(upgraded.version, 2, 'saved again in the one format');
  assert.deepEqual(Object.keys(upgraded.units), ['2004', '2005']);

  for (const [text, message] of [
    ['nope', /not JSON/],
    ['{"kind":"other"}', /not a trackctl history checkpoint/],
    ['{"kind":"trackctl history checkpoint","version":2,"reportTypes":null,"origin":{},"units":{"x":{}}}', /not a unit id/],
    ['{"kind":"trackctl history checkpoint","version":2,"reportTypes":null,"origin":{},"units":{"5":{"lastQueryTime":-1,"seen":[]}}}', /lastQueryTime/],
    ['{"kind":"trackctl history checkpoint","version":1,"reportTypes":null,"lastQueryTime":3,"seen":[]}', /unit is missing/],
    ['{"kind":"trackctl history checkpoint","version":3}', /version 3/],
  ] as const) {
    writeFileSync(file, text);
    await assert.rejects(RunCheckpoint.open(file, { kind: 'history', window: {}, reportTypes: undefined }, now), (e: unknown) => e instanceof UsageError && message.test(e.message), text);
  }
});

function unit(did: number, name: string): UnitWatchState {
  return initialState({ did, name, lastReport: T - 120, battery: 80, lat: 33.7, lng: -84.3, address: `${did} Main St` }, P).state;
}

test('watch: cursors and states kept, rounds and clock recorded, a file of watch version 1 read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'watch-ckpt-'));
  const file = join(dir, 'sub', 'w.ckpt');
  const cp = await RunCheckpoint.open<UnitWatchState>(file, watchSpec, now);
  assert.equal(cp.has(5), false);
  const state = unit(5, 'Van 5');
  observe(state, { date: T, lat: 1, lng: 2, speed: 30, battery: 15, reportType: 'report' }, P);
  cp.record(5, { cursor: new Cursor(T - 300, new Set(['k1', 'k2'])), parts: 0, state });
  cp.serverTime = T;
  cp.rounds = 1;
  await cp.save();
  const again = await RunCheckpoint.open<UnitWatchState>(file, watchSpec, now);
  const e = again.progress(5);
  assert.equal(e.cursor.lastQueryTime, T - 300);
  assert.deepEqual([...e.cursor.seen], ['k1', 'k2']);
  assert.deepEqual(e.state, state);
  assert.equal(again.rounds, 1);
  assert.equal(again.serverTime, T);
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { kind: string; version: number };
  assert.deepEqual([saved.kind, saved.version], ['trackctl watch checkpoint', 1], 'the file earlier versions wrote');

  for (const [text, why] of [
    ['nope', /not JSON/],
    ['{"kind":"trackctl history checkpoint","version":2}', /not a trackctl watch checkpoint/],
    ['{"kind":"trackctl watch checkpoint","version":1,"units":{"5":{"lastQueryTime":1,"seen":[],"state":{"did":6}}}}', /unit 5: state/],
    ['{"kind":"trackctl watch checkpoint","version":1,"units":{"x":{}}}', /not a unit id/],
    ['{"kind":"trackctl watch checkpoint","version":2,"units":{}}', /version 2/],
  ] as const) {
    const bad = join(dir, 'bad.ckpt');
    writeFileSync(bad, text);
    await assert.rejects(RunCheckpoint.open(bad, watchSpec, now), (err: unknown) => err instanceof UsageError && why.test(err.message), text);
  }
});

test('coalesced saves: a write that takes long (a checkpoint of 10,000 units) spaces the next one, so writing stays a twentieth of the run', () => {
  assert.equal(nextSaveAt(1000, 5), 1000 + SAVE_INTERVAL_MS, 'a quick write: the least interval');
  assert.equal(nextSaveAt(1000, 100), 1000 + 2000, 'a write of 100 ms: the next starts 2 s after it began');
  const writing = 300;
  assert.ok(writing / (nextSaveAt(0, writing) - 0) <= 1 / 20, 'at most a twentieth of the time is spent writing');
});
