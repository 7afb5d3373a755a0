/**
 * The lake's record in a checkpoint: the parts of a run that is publishing. Written before
 * the first part is published and cleared in the save that moves the run's units, so a
 * record found at start belongs to a run that was killed (or failed) in between: its parts
 * hold reports that no unit's progress counts as delivered, and are removed before this
 * run fetches those reports again.
 */
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
  /** The --out-dir the parts went to (a later run may write elsewhere). */
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
  if (typeof p !== 'object' || typeof p.run !== 'string' || typeof p.outDir !== 'string' || !Array.isArray(p.keys) || !p.keys.every((k) => typeof k === 'string' && k !== '' && !k.split('/').includes('..'))) {
    throw new Error('lake.pending is not a run id, an --out-dir and keys');
  }
  return { run: p.run, outDir: p.outDir, keys: p.keys };
}

/** Removes a killed run's parts (if the checkpoint names any) and clears the record. */
export async function recoverPending(store: PendingStore, open: (outDir: string) => Promise<LakeStorage>): Promise<number> {
  const pending = store.pending;
  if (pending === undefined) return 0;
  const storage = await open(pending.outDir);
  try {
    for (const key of pending.keys) await storage.remove(key);
  } finally {
    await storage.close();
  }
  store.pending = undefined;
  await store.save();
  return pending.keys.length;
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
