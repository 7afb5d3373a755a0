/**
 * Delivery before saving: when the progress of a unit may be written to the checkpoint.
 *
 * A unit's progress is recorded only after its output was acknowledged by its target:
 * - a target where each unit lands on its own (--out-dir: a file renamed into place) saves
 *   a unit as soon as it landed, so a run that fails keeps what finished;
 * - a lake (--layout hive) publishes every unit's parts at the end: the units in them are
 *   saved then, in the save that clears the record of the parts being published;
 * - a stream (stdout, --output-file, one document) is acknowledged whole: a run that does not
 *   end well (a unit failed, the reader went away, Ctrl-C twice) moves no unit's checkpoint,
 *   so its output may be discarded and the next run delivers all of it again;
 * - following (history --follow, watch), a round's progress is saved once the round's output
 *   was acknowledged. When the stream is a pipe or socket, acknowledged bytes may still wait
 *   there for a reader that then leaves without reading them (`| head`): so a round is saved
 *   only once more bytes than the pipe can hold were accepted after it (its reader has read
 *   the round; io/delivery/streams Unread). The checkpoint then trails the output by at most that
 *   much (1 MiB on a pipe, a socket's buffers on a socket); a run that stops keeps those
 *   rounds unsaved, and the next run delivers them again (at least once).
 */
import type { Unread } from '../io/delivery/streams.js';
import type { RunCheckpoint, UnitProgress } from './checkpoint.js';
import { Cursor } from './cursor.js';

export type SavePolicy = 'per-unit' | 'at-end' | 'per-round';

export class Ledger<S = unknown> {
  /** Progress delivered but not yet recorded (at-end: the whole run; per-round: this round). */
  private pending = new Map<number, UnitProgress<S>>();
  /** Pipes, oldest first: rounds' progress, each with the bytes accepted when it was written. */
  private held: Array<{ at: number; progress: Map<number, UnitProgress<S>> }> = [];

  constructor(
    private readonly checkpoint: RunCheckpoint<S> | undefined,
    private readonly policy: SavePolicy,
    /** The stream is a pipe or socket (see above). */
    private readonly unread?: Unread,
  ) {}

  /** A unit's output was committed to the target (landed in place, or written to the stream). */
  unitDone(did: number, progress: UnitProgress<S>): void {
    if (this.checkpoint === undefined) return;
    if (this.policy === 'per-unit') {
      this.checkpoint.record(did, progress);
      this.checkpoint.saveSoon();
    } else {
      // Held as it is now: the unit's cursor and state move on with the next rounds, and a
      // round saved once read must not carry the progress of rounds still unread.
      this.pending.set(did, snapshot(progress));
    }
  }

  /** A round ended and its output was acknowledged (the caller awaited the target's acknowledgement first). */
  async roundDone(): Promise<void> {
    const cp = this.checkpoint;
    if (cp === undefined || this.policy !== 'per-round') return;
    if (this.unread === undefined) {
      for (const [did, p] of this.pending) cp.record(did, p);
    } else {
      const { bound } = this.unread;
      const now = this.unread.accepted();
      // Read for sure: rounds with more than the pipe can hold accepted after them.
      while (this.held.length > 0 && now - this.held[0].at >= bound) {
        for (const [did, p] of (this.held.shift() as (typeof this.held)[number]).progress) cp.record(did, p);
      }
      // A round close behind the last held one joins it (saved when both are read): the list stays short.
      const last = this.held.at(-1);
      if (last !== undefined && now - last.at < bound / 64) {
        for (const [did, p] of this.pending) last.progress.set(did, p);
        last.at = now;
      } else if (this.pending.size > 0) {
        this.held.push({ at: now, progress: this.pending });
      }
    }
    this.pending = new Map();
    await cp.save();
  }

  /** The run ended; `ok`: well, with its output acknowledged whole (the caller awaited it). */
  async end(ok: boolean): Promise<void> {
    const cp = this.checkpoint;
    if (cp === undefined) return;
    if (this.policy === 'per-unit') return cp.save();
    cp.abandon();
    if (this.policy === 'at-end' && ok) {
      for (const [did, p] of this.pending) cp.record(did, p);
      await cp.save();
    }
  }
}

function snapshot<S>(p: UnitProgress<S>): UnitProgress<S> {
  const state = p.state === undefined ? undefined : structuredClone(p.state);
  return { cursor: new Cursor(p.cursor.lastQueryTime, new Set(p.cursor.seen)), parts: p.parts, state };
}
