/**
 * --shard: Jump Consistent Hash checked against published values (ClickHouse's
 * jumpConsistentHash reference output and the Rust crate's documented examples), then the
 * properties the workers rely on: N shards are disjoint and cover every unit, spread evenly,
 * and growing N to N+1 moves units only to the new shard. Parsing of K/N.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jumpHash, parseShard, shardOf, unitsOfShard } from '../../src/runs/shard.js';
import { UsageError } from '../../src/errors.js';

test('jumpHash gives the published buckets', () => {
  // ClickHouse tests/queries/0_stateless/00580_consistent_hashing_functions (.sql and .reference).
  assert.deepEqual(
    [jumpHash(1n, 1), jumpHash(42n, 57), jumpHash(256n, 1024), jumpHash(3735883980n, 1), jumpHash(3735883980n, 666), jumpHash(16045690984833335023n, 255)],
    [0, 43, 520, 0, 361, 237],
  );
  // The jump-consistent-hash crate's examples: hash(0, 60) = 0, hash(1, 60) = 55, hash(2, 60) = 46.
  assert.deepEqual([jumpHash(0n, 60), jumpHash(1n, 60), jumpHash(2n, 60)], [0, 55, 46]);
});

test('shards are disjoint, cover every unit, and are even', () => {
  // Messy ids: sequential, sparse, large, all even (a modulo would put these all in half the shards).
  const dids = [...Array.from({ length: 3000 }, (_, i) => 2000 + i), ...Array.from({ length: 1000 }, (_, i) => 900_000_000 + i * 2), 1, 7, 2 ** 40 + 3];
  for (const n of [1, 2, 3, 7, 16]) {
    const seen = new Map<number, number>();
    const sizes: number[] = [];
    for (let k = 0; k < n; k++) {
      const mine = unitsOfShard(dids.map((did) => ({ did })), { index: k, count: n });
      sizes.push(mine.length);
      for (const { did } of mine) {
        assert.equal(seen.has(did), false, `${did} is in one shard only`);
        seen.set(did, k);
      }
    }
    assert.equal(seen.size, dids.length, `${n} shards cover every unit`);
    const mean = dids.length / n;
    for (const size of sizes) assert.ok(Math.abs(size - mean) < mean * 0.15 + 5, `shard sizes ${sizes.join(', ')} near ${mean}`);
  }
});

test('growing N to N+1 moves units only into the new shard, about 1/(N+1) of them', () => {
  const dids = Array.from({ length: 5000 }, (_, i) => 1000 + i * 37);
  for (const n of [1, 3, 8]) {
    let moved = 0;
    for (const did of dids) {
      const before = shardOf(did, n);
      const after = shardOf(did, n + 1);
      if (after !== before) {
        assert.equal(after, n, `unit ${did} moves only to the new shard`);
        moved++;
      }
    }
    const expected = dids.length / (n + 1);
    assert.ok(Math.abs(moved - expected) < expected * 0.15, `${moved} moved, about ${expected}`);
  }
});

test('--shard K/N, TRACKCTL_SHARD, and N with JOB_COMPLETION_INDEX', () => {
  assert.deepEqual(parseShard('0/3', {}), { index: 0, count: 3 });
  assert.deepEqual(parseShard(' 2 / 4 ', {}), { index: 2, count: 4 });
  assert.deepEqual(parseShard(undefined, { TRACKCTL_SHARD: '1/2' }), { index: 1, count: 2 });
  assert.deepEqual(parseShard('5/8', { TRACKCTL_SHARD: '1/2' }), { index: 5, count: 8 }, 'the flag wins');
  assert.deepEqual(parseShard('4', { JOB_COMPLETION_INDEX: '3' }), { index: 3, count: 4 });
  assert.equal(parseShard(undefined, {}), undefined);
  assert.equal(parseShard(undefined, { TRACKCTL_SHARD: '' }), undefined);
  for (const [value, env, why] of [
    ['3/3', {}, /K must be below N/],
    ['-1/3', {}, /not a whole number/],
    ['1/0', {}, /N must be a whole number/],
    ['a/b', {}, /N must be a whole number/],
    ['1.5/3', {}, /not a whole number/],
    ['4', {}, /JOB_COMPLETION_INDEX is not set/],
    ['4', { JOB_COMPLETION_INDEX: '4' }, /K must be below N/],
    ['', {}, /N must be|use K\/N/],
    ['1/200000', {}, /from 1 to 100000/],
  ] as const) {
    assert.throws(() => parseShard(value, env), (err: unknown) => err instanceof UsageError && why.test(err.message), `${value} ${JSON.stringify(env)}`);
  }
});
