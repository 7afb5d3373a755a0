/**
 * The retry policy alone, on a fake timer (no real waits): which failures pass, how many
 * tries, the backoff with its jitter, Retry-After, waits that do not count, and an abort
 * that ends a wait.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, AuthError, NetworkError, NotFoundError } from '../../src/errors.js';
import { backoffMs, isTransient, isTransientStatus, parseRetryAfter, realTimer, retry, type Timer } from '../../src/retry.js';

/** A timer that records each wait and resolves it at once; `onSleep` may abort. */
function fakeTimer(random = 0.5, onSleep?: (ms: number) => void): Timer & { waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms, signal) => {
      waits.push(ms);
      onSleep?.(ms);
      if (signal?.aborted) throw signal.reason;
    },
    random: () => random,
    now: () => Date.parse('2026-11-19T12:00:00Z'),
  };
}

/** An operation that fails with each of `failures` in turn, then returns 'ok'. */
function flaky(...failures: unknown[]): { op: (n: number) => Promise<string>; tries: number[] } {
  const tries: number[] = [];
  return {
    tries,
    op: async (n) => {
      tries.push(n);
      const failure = failures.shift();
      if (failure !== undefined) throw failure;
      return 'ok';
    },
  };
}

test('transient: the network, 429 and 500/502/503/504; not a 4xx, a 501, credentials or a bug', () => {
  for (const status of [429, 500, 502, 503, 504]) {
    assert.equal(isTransientStatus(status), true, String(status));
    assert.equal(isTransient(new ApiError('x', status)), true, String(status));
  }
  for (const status of [200, 400, 404, 409, 501, 505]) {
    assert.equal(isTransientStatus(status), false, String(status));
    assert.equal(isTransient(new ApiError('x', status)), false, String(status));
  }
  assert.equal(isTransient(new NetworkError('reset')), true);
  assert.equal(isTransient(new AuthError('no')), false);
  assert.equal(isTransient(new NotFoundError('gone')), false);
  assert.equal(isTransient(new TypeError('a bug')), false);
});

test('backoff: from 250 ms doubling to 8 s, half of it fixed and half random', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, () => 0)), [125, 250, 500, 1000, 2000, 4000, 4000]);
  assert.deepEqual([0, 1, 5, 9].map((n) => backoffMs(n, () => 0.999999).toFixed(0)), ['250', '500', '8000', '8000']);
});

test('Retry-After: seconds or a date (on the clock given), capped at 60 s; unreadable: none', () => {
  const now = Date.parse('2026-11-19T12:00:00Z');
  assert.equal(parseRetryAfter('2', now), 2000);
  assert.equal(parseRetryAfter(['0', '9'], now), 0);
  assert.equal(parseRetryAfter('Thu, 19 Nov 2026 12:00:05 GMT', now), 5000);
  assert.equal(parseRetryAfter('Thu, 19 Nov 2026 11:00:00 GMT', now), 0, 'a date past is now');
  assert.equal(parseRetryAfter('3600', now), 60_000);
  assert.equal(parseRetryAfter('soon', now), undefined);
  assert.equal(parseRetryAfter(undefined, now), undefined);
});

test('transient failures twice: --retries 2 succeeds on the third try, after two backoffs; --retries 0 fails with the first', async () => {
  const timer = fakeTimer(0);
  const twice = flaky(new ApiError('503', 503), new NetworkError('reset'));
  assert.equal(await retry(twice.op, { retries: 2, timer }), 'ok');
  assert.deepEqual(twice.tries, [0, 1, 2]);
  assert.deepEqual(timer.waits, [125, 250]);

  const none = fakeTimer();
  const first = new ApiError('503', 503);
  const once = flaky(first, new NetworkError('reset'));
  await assert.rejects(retry(once.op, { retries: 0, timer: none }), (err) => err === first);
  assert.deepEqual(once.tries, [0]);
  assert.deepEqual(none.waits, []);

  const short = flaky(new ApiError('a', 503), new ApiError('b', 502), new ApiError('c', 504));
  await assert.rejects(retry(short.op, { retries: 2, timer: fakeTimer() }), /^ApiError: c$/);
  assert.deepEqual(short.tries, [0, 1, 2], 'three tries, then the last failure');
});

test('a failure that does not pass is not tried again; retryError decides where given', async () => {
  const timer = fakeTimer();
  const denied = flaky(new AuthError('denied'));
  await assert.rejects(retry(denied.op, { retries: 5, timer }), AuthError);
  assert.deepEqual(denied.tries, [0]);
  const bug = flaky(new TypeError('x'));
  await assert.rejects(retry(bug.op, { retries: 5, timer, retryError: () => false }), TypeError);
  const anything = flaky(new Error('socket hang up'));
  assert.equal(await retry(anything.op, { retries: 1, timer, retryError: () => true }), 'ok');
  assert.deepEqual(timer.waits.length, 1);
});

test('results judged as failures: tried again after the Retry-After asked for, discarded, and the last returned when the tries run out', async () => {
  const timer = fakeTimer();
  const replies = [503, 503, 200];
  const discarded: number[] = [];
  const judge = (status: number) => (status === 503 ? { afterMs: 1500 } : undefined);
  const got = await retry(async () => replies.shift()!, { retries: 2, timer, retryResult: judge, discard: (s) => discarded.push(s) });
  assert.equal(got, 200);
  assert.deepEqual(timer.waits, [1500, 1500]);
  assert.deepEqual(discarded, [503, 503]);

  const always = await retry(async () => 503, { retries: 1, timer: fakeTimer(), retryResult: judge });
  assert.equal(always, 503, 'the reply itself, for the caller to word');
});

test('waits that do not count (a 429 with Retry-After) leave the retries for real failures', async () => {
  const timer = fakeTimer(0);
  const replies = [429, 429, 429, 503, 200];
  let tries = 0;
  const got = await retry(
    async () => {
      tries++;
      return replies.shift()!;
    },
    { retries: 1, timer, retryResult: (s) => (s === 429 ? { afterMs: 0, counts: false } : s === 503 ? {} : undefined) },
  );
  assert.equal(got, 200);
  assert.equal(tries, 5);
  assert.deepEqual(timer.waits, [125], 'no wait for the free ones (afterMs 0), the first backoff for the 503');
});

test('an abort during a wait ends the retries at once with its reason; an aborted signal sends nothing more', async () => {
  const stop = new AbortController();
  const timer = fakeTimer(0.5, () => stop.abort(new Error('interrupted')));
  const failing = flaky(new NetworkError('a'), new NetworkError('b'), new NetworkError('c'));
  await assert.rejects(retry(failing.op, { retries: 5, timer, signal: stop.signal }), /interrupted/);
  assert.deepEqual(failing.tries, [0], 'no try after the abort');

  const before = flaky();
  await assert.rejects(retry(before.op, { retries: 5, timer: fakeTimer(), signal: stop.signal }), /interrupted/);
  assert.deepEqual(before.tries, []);
});

test('the real timer\'s wait is abort-aware: an abort rejects it without waiting out the time', async () => {
  const ctrl = new AbortController();
  const waiting = realTimer.sleep(3_600_000, ctrl.signal);
  ctrl.abort(new Error('stop'));
  await assert.rejects(waiting, /stop/);
  await assert.rejects(realTimer.sleep(3_600_000, ctrl.signal), /stop/, 'already aborted: at once');
});
