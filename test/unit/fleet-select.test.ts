/** Unit selection and the fleet checkpoint file: parsed before anything is sent. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSelection } from '../../src/fleet/select.js';
import { FleetCheckpoint } from '../../src/commands/history/fleet-checkpoint.js';
import { Cursor } from '../../src/commands/history/cursor.js';
import { UsageError } from '../../src/errors.js';

test('one way of choosing units, each checked', () => {
  assert.deepEqual(parseSelection(['2004', '2005,2016', '2004'], {}), { kind: 'ids', ids: [2004, 2005, 2016] });
  assert.deepEqual(parseSelection([], { group: '101' }), { kind: 'group', gid: 101 });
  assert.deepEqual(parseSelection([], { category: 'trackeduser' }), { kind: 'category', category: 'trackedUser' });
  assert.deepEqual(parseSelection([], { allUnits: true }), { kind: 'all' });
  const bad: Array<[string[], Record<string, unknown>, RegExp]> = [
    [[], {}, /no units selected/],
    [['1'], { allUnits: true }, /cannot be combined/],
    [[], { group: '1', category: 'device' }, /cannot be combined/],
    [[], { category: 'dispatcher' }, /--category/],
    [['x'], {}, /unit id/],
    [[], { group: '-3' }, /group id/],
  ];
  for (const [args, flags, message] of bad) {
    assert.throws(() => parseSelection(args, flags), (e: unknown) => e instanceof UsageError && message.test(e.message), JSON.stringify([args, flags]));
  }
});

test('the fleet checkpoint: the window fixed on the first run, entries per unit, a single-unit file taken over', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-ckpt-'));
  const file = join(dir, 'fleet.ckpt');
  const now = () => 1_795_000_000_000;
  const first = await FleetCheckpoint.open(file, { from: 1000, reportTypes: ['sos'] }, ['sos'], now);
  const written = JSON.parse(readFileSync(file, 'utf8')) as { origin: unknown; units: object };
  assert.deepEqual(written.origin, { from: 1000 }, 'the window is saved before anything is fetched');
  assert.deepEqual(written.units, {});
  await first.update(7, { cursor: new Cursor(5000, new Set(['a', 'b'])), parts: 2 });
  // a later run with another window keeps the first one
  const again = await FleetCheckpoint.open(file, { from: 9999 }, ['sos'], now);
  assert.deepEqual(again.origin, { from: 1000 });
  const p = again.progress(7);
  assert.equal(p.cursor.lastQueryTime, 5000);
  assert.deepEqual([...p.cursor.seen], ['a', 'b']);
  assert.equal(p.parts, 2);
  assert.equal(again.progress(8).cursor.lastQueryTime, undefined, 'a new unit starts at the window');
  await assert.rejects(FleetCheckpoint.open(file, {}, undefined, now), /report types sos, not all/);

  const single = join(dir, 'single.ckpt');
  writeFileSync(single, JSON.stringify({ kind: 'trackctl history checkpoint', version: 1, unit: 2004, reportTypes: null, lastQueryTime: 42, seen: ['k'], savedAt: '' }));
  const taken = await FleetCheckpoint.open(single, { from: 77 }, undefined, now);
  assert.equal(taken.progress(2004).cursor.lastQueryTime, 42);
  assert.deepEqual(taken.origin, { from: 77 });

  for (const [text, message] of [
    ['nope', /not JSON/],
    ['{"kind":"other"}', /not a trackctl history checkpoint/],
    ['{"kind":"trackctl history checkpoint","version":2,"reportTypes":null,"origin":{},"units":{"x":{}}}', /not a unit id/],
    ['{"kind":"trackctl history checkpoint","version":2,"reportTypes":null,"origin":{},"units":{"5":{"lastQueryTime":-1,"seen":[]}}}', /lastQueryTime/],
    ['{"kind":"trackctl history checkpoint","version":3}', /version 3/],
  ] as const) {
    writeFileSync(file, text);
    await assert.rejects(FleetCheckpoint.open(file, {}, undefined, now), (e: unknown) => e instanceof UsageError && message.test(e.message), text);
  }
});
