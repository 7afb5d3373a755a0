/**
 * --checkpoint FILE for watch: each unit's cursor (lastQueryTime and the de-duplication
 * keys of its last reply, as history's) and its watch state. Saved atomically after a
 * round's events were flushed, so a run stopped with Ctrl-C and started again writes every
 * event once; killed between the flush and the save, the next run repeats that round.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../atomic-file.js';
import { TrackctlError, UsageError } from '../../errors.js';
import { restoreState, type UnitWatchState } from '../../reports/watch-events.js';
import { Cursor } from '../history/cursor.js';
import { readCheckpointFile, readCheckpointText } from '../checkpoint-file.js';

const KIND = 'trackctl watch checkpoint';
const VERSION = 1;

export interface WatchEntry {
  cursor: Cursor;
  state: UnitWatchState;
}

export interface SavedEntry {
  lastQueryTime: number;
  seen: string[];
  state: UnitWatchState;
}

export class WatchCheckpoint {
  /** The service's clock at the last saved round (unix seconds). */
  serverTime: number | null = null;
  rounds = 0;

  constructor(
    readonly file: string,
    private readonly units: Map<number, SavedEntry>,
  ) {}

  /** Reads FILE, or starts afresh when it does not exist (the directory is made and the file written at once). */
  static async open(file: string): Promise<WatchCheckpoint> {
    const text = await readCheckpointFile(file);
    if (text === undefined) {
      const fresh = new WatchCheckpoint(file, new Map());
      await mkdir(dirname(file), { recursive: true }).catch(() => undefined);
      await fresh.write(new Date().toISOString()).catch((err: unknown) => {
        throw new UsageError(`cannot write checkpoint ${file}: ${(err as Error).message}`);
      });
      return fresh;
    }
    return parse(file, text);
  }

  /** A unit's saved cursor and state, if this file has them. */
  entry(did: number): WatchEntry | undefined {
    const e = this.units.get(did);
    return e && { cursor: new Cursor(e.lastQueryTime, new Set(e.seen)), state: structuredClone(e.state) };
  }

  /** Records every unit's cursor and state and writes the file atomically. */
  async save(entries: Iterable<WatchEntry>, serverTime: number, savedAt: string): Promise<void> {
    for (const { cursor, state } of entries) {
      if (cursor.lastQueryTime === undefined) continue;
      this.units.set(state.did, { lastQueryTime: cursor.lastQueryTime, seen: [...cursor.seen], state: structuredClone(state) });
    }
    this.serverTime = serverTime;
    this.rounds++;
    await this.write(savedAt);
  }

  private async write(savedAt: string): Promise<void> {
    const units: Record<string, SavedEntry> = {};
    for (const [did, e] of [...this.units].sort((a, b) => a[0] - b[0])) units[String(did)] = e;
    const data = { kind: KIND, version: VERSION, serverTime: this.serverTime, rounds: this.rounds, savedAt, units };
    try {
      await writeFileAtomic(this.file, `${JSON.stringify(data)}\n`);
    } catch (err) {
      throw new TrackctlError(`cannot save checkpoint ${this.file}: ${(err as Error).message}`);
    }
  }
}

function parse(file: string, text: string): WatchCheckpoint {
  const { data, bad } = readCheckpointText(file, text, KIND, 'the next run starts from the units as they are now');
  if (data.version !== VERSION) throw bad(`version ${String(data.version)} is not supported`);
  if (data.units === null || typeof data.units !== 'object' || Array.isArray(data.units)) throw bad('units is missing');
  const units = new Map<number, SavedEntry>();
  for (const [did, v] of Object.entries(data.units as Record<string, unknown>)) {
    if (!/^[1-9]\d*$/.test(did)) throw bad(`"${did}" is not a unit id`);
    const e = v as Partial<SavedEntry> | null;
    if (e === null || typeof e !== 'object' || typeof e.lastQueryTime !== 'number' || !Number.isInteger(e.lastQueryTime) || e.lastQueryTime < 0) {
      throw bad(`unit ${did}: lastQueryTime is missing`);
    }
    if (!Array.isArray(e.seen) || !e.seen.every((k) => typeof k === 'string')) throw bad(`unit ${did}: seen is missing`);
    const state = restoreState(e.state);
    if (state === undefined || state.did !== Number(did)) throw bad(`unit ${did}: state is missing`);
    units.set(Number(did), { lastQueryTime: e.lastQueryTime, seen: e.seen, state });
  }
  const cp = new WatchCheckpoint(file, units);
  cp.serverTime = typeof data.serverTime === 'number' ? data.serverTime : null;
  cp.rounds = typeof data.rounds === 'number' ? data.rounds : 0;
  return cp;
}
