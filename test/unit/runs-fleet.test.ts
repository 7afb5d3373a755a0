/**
 * runFleet's rules, over a fake target of a few units (ids need no request to select):
 * one pass, rounds stopped, a unit failing, every unit failing (no end()), a fatal error
 * stopping the rest, wait's policy, and what the checkpoint saves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Api } from '../../src/api/client.js';
import { shardOf } from '../../src/runs/shard.js';
import { ApiError, AuthError, exitCodeFor, NetworkError, NotFoundError, PartialFailure, Reported, UsageError } from '../../src/errors.js';
import { Cursor } from '../../src/runs/cursor.js';
import { runFleet, type FleetPlan, type FleetTarget } from '../../src/runs/fleet.js';
import type { SelectedUnit } from '../../src/runs/select.js';

/** The engine asks the client only how many 429s it saw. */
const api = { http: { throttled: 0 } } as unknown as Api;
const io = { err() {}, stderrIsTTY: false } as unknown as FleetPlan['io'];

interface Fake extends SelectedUnit {
  turns: number;
}

/** A plan over units `ids`; messages said and warned are collected. */
function planOf(ids: number[], more: Partial<FleetPlan> = {}): FleetPlan & { said: string[] } {
  const said: string[] = [];
  return {
    selection: { kind: 'ids', ids },
    concurrency: 2,
    api: async () => api,
    io,
    env: {},
    now: () => Date.now(),
    say: (m) => said.push(`say: ${m}`),
    warn: (m) => said.push(m),
    said,
    ...more,
  };
}

/** A target whose turn is `turn`, recording what runFleet asked of it. */
function fake(turn: (u: Fake, round: number) => Promise<void> | void, more: Partial<FleetTarget<Fake>> = {}) {
  const log = { rounds: [] as number[][], ended: 0, cleaned: 0, turns: [] as string[] };
  let round = 0;
  const target: FleetTarget<Fake> = {
    unit: (u) => ({ ...u, turns: 0 }),
    async turn(u) {
      u.turns++;
      log.turns.push(`${round}:${u.did}`);
      await turn(u, round);
    },
    async afterRound(done) {
      log.rounds.push(done.map((u) => u.did).sort());
      round++;
    },
    async end() {
      log.ended++;
    },
    async cleanup() {
      log.cleaned++;
    },
    ...more,
  };
  return { target, log };
}

test('one pass: every unit has one turn, one round follows, the end is written', async () => {
  const { target, log } = fake(() => undefined);
  await runFleet(planOf([1, 2, 3]), target);
  assert.deepEqual(log.turns.sort(), ['0:1', '0:2', '0:3']);
  assert.deepEqual(log.rounds, [[1, 2, 3]]);
  assert.equal(log.ended, 1);
  assert.equal(log.cleaned, 1);
});

test('rounds go on until the target stops them; the end follows', async () => {
  const { target, log } = fake(() => undefined, {});
  const after = target.afterRound!;
  target.afterRound = async (done) => {
    await after(done);
    return log.rounds.length < 3;
  };
  await runFleet(planOf([1, 2], { rounds: { intervalMs: 1, signals: 'end' } }), target);
  assert.equal(log.rounds.length, 3);
  assert.deepEqual(log.turns.sort(), ['0:1', '0:2', '1:1', '1:2', '2:1', '2:2']);
  assert.equal(log.ended, 1);
});

test('a unit that fails is named once, the others go on, and the run is a partial failure (7)', async () => {
  const { target, log } = fake((u) => {
    if (u.did === 2) throw new NotFoundError('unit 2 not found');
  });
  const plan = planOf([1, 2, 3]);
  const err = await runFleet(plan, target).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof PartialFailure, String(err));
  assert.equal(exitCodeFor(err), 7);
  assert.deepEqual(log.rounds, [[1, 3]]);
  assert.deepEqual(plan.said, ['error: unit 2 not found']);
  assert.equal(log.ended, 1, 'what the others wrote is ended');
});

test('every unit failed alike: no end (nothing is started for nothing) and that failure\'s code', async () => {
  const { target, log } = fake((u) => {
    throw new NotFoundError(`unit ${u.did} not found`);
  });
  const err = await runFleet(planOf([1, 2]), target).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof Reported, String(err));
  assert.equal(exitCodeFor(err), 4);
  assert.equal(log.ended, 0);
  assert.equal(log.cleaned, 1, 'cleaned up all the same');
});

test('a fatal failure (credentials refused) stops the rest: no unit starts after it, and the run fails with it', async () => {
  const { target, log } = fake((u) => {
    if (u.did === 1) throw new AuthError('credentials refused');
  });
  const err = await runFleet(planOf([1, 2, 3, 4], { concurrency: 1 }), target).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof AuthError, String(err));
  assert.deepEqual(log.turns, ['0:1']);
  assert.equal(log.ended, 0);
  assert.equal(log.cleaned, 1);
});

test('an empty selection (here: this shard holds none of it) is said, or refused', async () => {
  const shard = { index: 1 - shardOf(5, 2), count: 2 };
  const plan = planOf([5], { empty: 'say', shard });
  const { target, log } = fake(() => undefined);
  await runFleet(plan, target);
  assert.deepEqual(plan.said, [`say: No units in unit 5 for shard ${shard.index}/2.`]);
  assert.deepEqual(log.turns, []);
  await assert.rejects(runFleet(planOf([5], { empty: 'fail', shard }), fake(() => undefined).target), UsageError);
});

test("wait's policy: a transient failure is tried again each round, a unit finished has no more turns, any other failure ends the run", async () => {
  const retried: number[] = [];
  const finished = new Set<number>();
  const { target, log } = fake(
    (u, round) => {
      if (u.did === 1) finished.add(1);
      if (u.did === 2 && round < 7) throw new ApiError('Bad Gateway', 502); // more rounds than a follower would try
      if (u.did === 2) finished.add(2);
    },
    { finished: (u) => finished.has(u.did), retrying: (u) => void retried.push(u.did) },
  );
  const after = target.afterRound!;
  target.afterRound = async (done) => {
    await after(done);
    if (finished.size === 2) return false;
  };
  const plan = planOf([1, 2], { rounds: { intervalMs: 1, signals: 'end', failures: 'until-stopped' } });
  await runFleet(plan, target);
  assert.equal(retried.length, 7);
  assert.ok(log.turns.filter((t) => t.endsWith(':1')).length === 1, 'unit 1, met at once, was not polled again');
  assert.equal(plan.said.filter((m) => m === 'warning: unit 2: Bad Gateway; trying again next round').length, 7);

  const fatal = fake((u) => {
    if (u.did === 2) throw new NotFoundError('gone');
  });
  const err = await runFleet(planOf([1, 2], { rounds: { intervalMs: 1, signals: 'end', failures: 'until-stopped' } }), fatal.target).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof NotFoundError, String(err));
  assert.equal(fatal.log.ended, 0);
});

test('following, a unit failing transiently round after round is given up; the others go on', async () => {
  const { target, log } = fake((u) => {
    if (u.did === 2) throw new NetworkError('connection reset');
  });
  const after = target.afterRound!;
  target.afterRound = async (done) => {
    await after(done);
    return log.rounds.length < 8;
  };
  const plan = planOf([1, 2], { rounds: { intervalMs: 1, signals: 'end', givenUp: 'no longer followed' } });
  const err = await runFleet(plan, target).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof PartialFailure, String(err));
  assert.equal(log.turns.filter((t) => t.endsWith(':2')).length, 5);
  assert.equal(plan.said.at(-1), 'error: unit 2: connection reset; no longer followed');
});

test('--checkpoint: the units delivered are saved (per unit), a failed one is not', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'trackctl-fleet-')), 'run.ckpt');
  const { target } = fake(
    (u) => {
      if (u.did === 2) throw new NotFoundError('gone');
    },
    { open: async () => ({ save: 'per-unit' }), progressOf: (u) => ({ cursor: new Cursor(1000 + u.did), parts: 1 }) },
  );
  const plan = planOf([1, 2, 3], { checkpoint: { file, spec: { kind: 'history', window: {}, reportTypes: undefined } } });
  await assert.rejects(runFleet(plan, target), PartialFailure);
  const units = (JSON.parse(readFileSync(file, 'utf8')) as { units: Record<string, { lastQueryTime: number }> }).units;
  assert.deepEqual(Object.fromEntries(Object.entries(units).map(([did, u]) => [did, u.lastQueryTime])), { 1: 1001, 3: 1003 });
});
