/**
 * The lake's record in a checkpoint: the parts of a run that is publishing. Written before
 * the first part is published and cleared in the save that moves the run's units, so a
 * record found at start belongs to a run that was killed (or failed) in between: its parts
 * hold reports that no unit's progress counts as delivered, and are removed before this
 * run fetches those reports again.
 *
 * A record is data, not an order: a checkpoint is a file anyone may have edited. A part it
 * names is removed only when the record's out-dir is this run's (by real path, or the same
 * bucket and prefix), its key has exactly the shape partKey gives a part of the run it
 * names, and it is a file in its partition folder inside the out-dir. Anything else is left
 * where it is and reported, and the run goes on: what is left is not in this run's out-dir,
 * or is no part this layout wrote, so no report this run writes is in it twice.
 */
import { isPartKeyOf, isRunId } from './layout.js';
import type { LakeStorage } from './storage.js';

/** The checkpoint's side of exactly-once: absent without --checkpoint. */
export interface LakeJournal {
  /** Records the keys about to be published, durably, before the first is. */
  publishing(keys: readonly string[]): Promise<void>;
  /** Every part is published and every unit acked: clears the record in the save that carries the units. */
  published(): Promise<void>;
  /** The published parts were removed again after a failure: clears the record. */
  rolledBack(): Promise<void>;
}

export interface LakePending {
  run: string;
  /** The --out-dir the parts went to, as LakeStorage.home() gives it (absolute: a later run may start elsewhere). */
  outDir: string;
  keys: string[];
}

/** What the journal needs of the checkpoint: its record, and a save that waits for the disk. */
export interface PendingStore {
  pending: LakePending | undefined;
  save(): Promise<void>;
}

export function checkPending(v: unknown): LakePending | undefined {
  const p = v as Partial<LakePending> | null | undefined;
  if (p === undefined || p === null) return undefined;
  // Only the types here: what the values may name is judged where they would be acted on (recoverPending).
  if (typeof p !== 'object' || typeof p.run !== 'string' || typeof p.outDir !== 'string' || !Array.isArray(p.keys) || !p.keys.every((k) => typeof k === 'string')) {
    throw new Error('lake.pending is not a run id, an --out-dir and keys');
  }
  return { run: p.run, outDir: p.outDir, keys: p.keys };
}

/** What recovering a killed run's record did. */
export interface Recovered {
  run: string;
  /** The out-dir the record names. */
  outDir: string;
  removed: number;
  /** Parts that were not there any more (removed by hand, or by a run that failed after recording them). */
  missing: number;
  /** What was left where it is (never removed), and why. */
  left: Array<{ key: string; why: string }>;
}

/**
 * Removes a killed run's parts that lie in `here` (this run's --out-dir; undefined without
 * one), leaves anything else (see the top of this file), and clears the record.
 */
export async function recoverPending(store: PendingStore, here: LakeStorage | undefined): Promise<Recovered | undefined> {
  const pending = store.pending;
  if (pending === undefined) return undefined;
  const done: Recovered = { run: pending.run, outDir: pending.outDir, removed: 0, missing: 0, left: [] };
  let elsewhere: string | undefined;
  if (here === undefined) elsewhere = 'this run has no --out-dir';
  else if (!(await here.holds(pending.outDir))) elsewhere = `it is not in this run's --out-dir ${JSON.stringify(here.location)}`;
  else if (!isRunId(pending.run)) elsewhere = `${JSON.stringify(pending.run)} is not a run id`;
  for (const key of pending.keys) {
    const why = elsewhere ?? (isPartKeyOf(key, pending.run) ? undefined : `it is not a part of run ${pending.run} (day=…/part-${pending.run}-<n>.<ext>)`);
    if (why !== undefined || here === undefined) {
      done.left.push({ key, why: why ?? elsewhere ?? '' });
      continue;
    }
    const outcome = await here.removeRecorded(key);
    if (outcome === 'removed') done.removed++;
    else if (outcome === 'missing') done.missing++;
    else done.left.push({ key, why: outcome.left });
  }
  store.pending = undefined;
  await store.save();
  return done;
}

export function journalOf(store: PendingStore, run: string, outDir: string): LakeJournal {
  return {
    async publishing(keys) {
      store.pending = { run, outDir, keys: [...keys] };
      await store.save();
    },
    // Cleared in memory only: the save that moves the run's units (runs/delivery.ts) writes both at once.
    async published() {
      store.pending = undefined;
    },
    async rolledBack() {
      store.pending = undefined;
      await store.save();
    },
  };
}
