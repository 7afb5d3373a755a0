import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, NetworkError } from '../../src/errors.js';
import { runImport, type EngineOptions } from '../../src/import/engine.js';
import type { ImportRow } from '../../src/import/schema.js';
import type { Existing, ImportTarget } from '../../src/import/targets.js';

type Body = { key: string };
type Fault = 'drop-after' | 'drop' | '500' | '429' | '409';

/** An in-memory service whose next creates fail as scripted. */
function fakeTarget(faults: Fault[] = []) {
  const db = new Map<string, Existing>();
  const calls: string[] = [];
  let nextId = 1;
  const target: ImportTarget<Body> = {
    idName: 'did',
    async listExisting() {
      return new Map(db);
    },
    async lookup(match) {
      calls.push(`lookup ${match}`);
      return db.get(match);
    },
    async create(body) {
      calls.push(`create ${body.key}`);
      const fault = faults.shift();
      const apply = () => {
        if (db.has(body.key)) throw new ApiError(`POST /v2/devices/ failed (409): ${body.key} is taken`, 409);
        const rec = { id: nextId++, groups: [], viewerGroups: [] };
        db.set(body.key, rec);
        return rec;
      };
      if (fault === 'drop') throw new NetworkError('connection reset');
      if (fault === '500') throw new ApiError('injected', 500);
      if (fault === '429') throw new ApiError('slow down', 429);
      if (fault === 'drop-after') {
        apply();
        throw new NetworkError('connection reset after the write');
      }
      return apply();
    },
    async addGroups(id, gids) {
      calls.push(`groups ${id} ${gids.join(',')}`);
      for (const rec of db.values()) if (rec.id === id) rec.groups.push(...gids);
    },
  };
  return { db, calls, target };
}

const rows = (...keys: string[]): ImportRow<Body>[] => keys.map((key, i) => ({ line: i + 2, key, match: key, body: { key }, groups: [], viewerGroups: [] }));
const opts = (o: Partial<EngineOptions> = {}): EngineOptions => ({ concurrency: 4, dryRun: false, skipExisting: false, continueOnError: true, timer: { sleep: async () => {}, random: () => 0, now: () => 0 }, ...o });

test('a create whose reply was lost is looked up, not repeated: one record, reported created', async () => {
  const f = fakeTarget(['drop-after']);
  const { records } = await runImport(rows('A'), f.target, undefined, opts());
  assert.deepEqual(f.calls, ['create A', 'lookup A']);
  assert.equal(records[0]?.outcome, 'created');
  assert.equal(records[0]?.id, 1);
  assert.equal(f.db.size, 1);
});

test('a 5xx or a drop before the write: looked up, not there, created again', async () => {
  const f = fakeTarget(['500', 'drop']);
  const { records } = await runImport(rows('A'), f.target, undefined, opts());
  assert.deepEqual(f.calls, ['create A', 'lookup A', 'create A', 'lookup A', 'create A']);
  assert.equal(records[0]?.outcome, 'created');
});

test('429 is retried without a lookup; attempts are bounded', async () => {
  const f = fakeTarget(['429']);
  assert.equal((await runImport(rows('A'), f.target, undefined, opts())).records[0]?.outcome, 'created');
  assert.deepEqual(f.calls, ['create A', 'create A']);
  const g = fakeTarget(['500', '500', '500']);
  const { records } = await runImport(rows('B'), g.target, undefined, opts({ attempts: 3 }));
  assert.equal(records[0]?.outcome, 'failed');
  assert.equal(g.db.size, 0);
});

test('409: failed, or skipped with --skip-existing (the record found by its key)', async () => {
  const f = fakeTarget();
  await runImport(rows('A'), f.target, undefined, opts());
  const again = await runImport(rows('A'), f.target, undefined, opts());
  assert.equal(again.records[0]?.outcome, 'failed');
  assert.match(again.records[0]?.error ?? '', /already exists \(409\) A is taken/);
  const skip = await runImport(rows('A'), f.target, undefined, opts({ skipExisting: true }));
  assert.deepEqual([skip.records[0]?.outcome, skip.records[0]?.id], ['skipped', 1]);
});

test('without --continue-on-error no new create starts after a failure', async () => {
  const f = fakeTarget();
  await runImport(rows('B'), f.target, undefined, opts());
  const { records } = await runImport(rows('A', 'B', 'C', 'D'), f.target, undefined, opts({ concurrency: 1, continueOnError: false }));
  assert.deepEqual(records.map((r) => r.outcome), ['created', 'failed', 'not-attempted', 'not-attempted']);
});

test('existing records: dry run and --skip-existing add only the missing groups', async () => {
  const f = fakeTarget();
  const existing = new Map([['A', { id: 9, groups: [101], viewerGroups: [] }]]);
  const r = [{ ...rows('A')[0]!, groups: [101, 102] }, ...rows('N')];
  const dry = await runImport(r, f.target, existing, opts({ dryRun: true, skipExisting: true }));
  assert.deepEqual(dry.records.map((x) => [x.outcome, x.groups]), [['skipped', [102]], ['would-create', undefined]]);
  assert.deepEqual(f.calls, []);
  const noSkip = await runImport(r, f.target, existing, opts({ dryRun: true }));
  assert.equal(noSkip.records[0]?.outcome, 'would-fail');
  await runImport(r, f.target, existing, opts({ skipExisting: true }));
  assert.deepEqual(f.calls, ['groups 9 102', 'create N']);
});
