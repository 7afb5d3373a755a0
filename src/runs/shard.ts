/**
 * --shard K/N: N workers split a unit selection with no unit twice and none missing.
 *
 * A unit's shard is Jump Consistent Hash (Lamping and Veach, 2014) of its did: stable for
 * a given N whatever else is in the selection, spread evenly, and when N grows to N+1 only
 * the units that move to the new shard change (about 1/(N+1) of them), so the other
 * shards' checkpoints stay right. K counts from 0. `--shard N` alone takes K from
 * JOB_COMPLETION_INDEX, which a Kubernetes Indexed Job gives each of its pods.
 */
import { UsageError } from '../errors.js';

export interface Shard {
  index: number;
  count: number;
}

/** At most this many shards (a bound that only catches typos). */
export const MAX_SHARDS = 100_000;

const MASK = (1n << 64n) - 1n;
const MULTIPLIER = 2862933555777941757n;

/** Jump Consistent Hash: the bucket in [0, buckets) of a 64-bit key. */
export function jumpHash(key: bigint, buckets: number): number {
  let k = key & MASK;
  let b = -1;
  let j = 0;
  while (j < buckets) {
    b = j;
    k = (k * MULTIPLIER + 1n) & MASK;
    j = Math.floor((b + 1) * (2 ** 31 / (Number(k >> 33n) + 1))); // as the paper: (b+1) * (2^31 / ((k>>33)+1)) in doubles
  }
  return b;
}

/** The shard (0 … count-1) that a unit belongs to. */
export function shardOf(did: number, count: number): number {
  return jumpHash(BigInt(did), count);
}

/** The units of one shard, in the order given. */
export function unitsOfShard<T extends { did: number }>(units: readonly T[], shard: Shard): T[] {
  return units.filter((u) => shardOf(u.did, shard.count) === shard.index);
}

const whole = (text: string): number | undefined => (/^\d{1,9}$/.test(text) ? Number(text) : undefined);

/**
 * `--shard K/N` (or TRACKCTL_SHARD when the flag is absent) → the shard; undefined when
 * neither is given. `N` alone takes K from JOB_COMPLETION_INDEX.
 */
export function parseShard(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): Shard | undefined {
  const source = flag !== undefined ? '--shard' : 'TRACKCTL_SHARD';
  const value = (flag ?? env.TRACKCTL_SHARD)?.trim();
  if (value === undefined || (flag === undefined && value === '')) return undefined;
  const bad = (why: string): UsageError => new UsageError(`invalid ${source} "${value}": ${why}`, { hint: 'Use K/N, K from 0 (e.g. 0/4 … 3/4), or N with JOB_COMPLETION_INDEX set.' });
  const m = /^(?:(\S+)\s*\/\s*)?(\S+)$/.exec(value);
  if (!m) throw bad('use K/N');
  const count = whole(m[2]!);
  if (count === undefined || count < 1 || count > MAX_SHARDS) throw bad(`N must be a whole number from 1 to ${MAX_SHARDS}`);
  let indexText: string | undefined = m[1];
  if (indexText === undefined) {
    indexText = env.JOB_COMPLETION_INDEX?.trim();
    if (indexText === undefined || indexText === '') throw bad('K is missing and JOB_COMPLETION_INDEX is not set');
  }
  const index = whole(indexText);
  if (index === undefined) throw bad(`K "${indexText}" is not a whole number`);
  if (index >= count) throw bad(`K must be below N (shards are numbered 0 to ${count - 1})`);
  return { index, count };
}
