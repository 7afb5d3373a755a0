/**
 * The one retry policy of every client (the service's HTTP client, S3 and the AWS credential
 * services) and of the layers above them (import's reconciled creates, the fleet engine's
 * rounds, wait): which failures pass, how many tries, how long between them. Pure: no I/O
 * besides the timer, which callers (and tests) pass in.
 *
 * - Transient: a dropped or refused connection or a timeout (NetworkError), and the replies
 *   429, 500, 502, 503, 504. A 501 or 505 says the request will never work; a 4xx is ours.
 * - Tries: 1 + `retries` (--retries, TRACKCTL_RETRIES, the profile's `retries`).
 * - Waits: exponential from 250 ms up to 8 s, "equal jitter" (half fixed, half random) so
 *   parallel clients spread out; a Retry-After the server sent replaces the backoff, up to 60 s.
 * - An abort signal ends a wait at once, with the signal's reason.
 */
import { ApiError, NetworkError } from './errors.js';

/** Reply statuses that pass: asking again later may succeed. */
const TRANSIENT_STATUSES = new Set([429, 500, 502, 503, 504]);
const BASE_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 8000;
const MAX_RETRY_AFTER_MS = 60_000;

/** The clock, the wait and the dice a retry loop uses: real ones by default, fakes in tests. */
export interface Timer {
  /** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** In [0, 1). */
  random(): number;
  /** Wall-clock milliseconds, for a Retry-After given as a date. */
  now(): number;
}

export const realTimer: Timer = {
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  random: Math.random,
  now: Date.now,
};

/** A reply status worth asking again. */
export function isTransientStatus(status: number): boolean {
  return TRANSIENT_STATUSES.has(status);
}

/** A failure that may pass: the network's, or a transient status from the service or the store. */
export function isTransient(err: unknown): boolean {
  return err instanceof NetworkError || (err instanceof ApiError && isTransientStatus(err.status));
}

/** The wait before try `retry + 2` (retry 0 is the first repeat): exponential, with equal jitter. */
export function backoffMs(retry: number, random: () => number): number {
  const exp = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** retry);
  return exp / 2 + random() * (exp / 2);
}

/** A Retry-After header (seconds, or an HTTP date) in ms from `nowMs`, capped; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - nowMs), MAX_RETRY_AFTER_MS);
}

/** Another try: after `afterMs` (else the backoff), and whether it uses up one of the retries. */
export interface Again {
  afterMs?: number;
  /** false: a wait the server asked for (429 with Retry-After) that does not count; the caller bounds those. */
  counts?: boolean;
}

export interface RetryOptions<T> {
  /** Tries after the first. */
  retries: number;
  /** Whether a thrown failure is worth another try (default: isTransient). */
  retryError?: (err: unknown) => boolean | Again;
  /** Whether a result is a failure worth another try (a reply of 503); it is returned as it is once the tries run out. */
  retryResult?: (result: T) => Again | undefined;
  /** Lets a result that is tried again go (an unread reply body). */
  discard?: (result: T) => void;
  /** Before each wait: the -v trace. */
  onRetry?: (waitMs: number) => void;
  signal?: AbortSignal;
  timer?: Timer;
}

/**
 * Runs `attempt` (given the try's number, from 0) until it succeeds or fails for good: a
 * failure not worth another try, or the retries used up, ends it with that failure (or, for
 * a result judged by `retryResult`, that result).
 */
export async function retry<T>(attempt: (n: number) => Promise<T>, opts: RetryOptions<T>): Promise<T> {
  const timer = opts.timer ?? realTimer;
  let counted = 0;
  const spent = (again: Again): boolean => again.counts !== false && counted >= opts.retries;
  for (let n = 0; ; n++) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    const outcome = await attempt(n).then(
      (result) => ({ result }),
      (err: unknown) => ({ err }),
    );
    let again: Again | undefined;
    if ('err' in outcome) {
      const verdict = (opts.retryError ?? isTransient)(outcome.err);
      if (verdict === false) throw outcome.err;
      again = verdict === true ? {} : verdict;
      if (spent(again)) throw outcome.err;
    } else {
      again = opts.retryResult?.(outcome.result);
      if (again === undefined || spent(again)) return outcome.result;
      opts.discard?.(outcome.result);
    }
    const waitMs = again.afterMs ?? backoffMs(counted, timer.random);
    if (again.counts !== false) counted++;
    opts.onRetry?.(waitMs);
    if (waitMs > 0) await timer.sleep(waitMs, opts.signal);
  }
}
