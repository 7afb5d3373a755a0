/**
 * --checkpoint FILE for many units: one file with every unit's cursor (the lastQueryTime
 * and de-duplication keys of the single-unit checkpoint) and, for --out-dir, how many
 * parts of that unit are in place. Saved atomically; a save holds only units whose output
 * was flushed (stream) or renamed into place (--out-dir). Saves are coalesced: at most
 * one in flight and one every SAVE_INTERVAL_MS, each carrying every unit finished since
 * (a whole file of many units per finished unit would cost more than the units), and the
 * last one when the run ends.
 *
 * The first run fixes the window (`origin`) in the file before anything is fetched, so a
 * re-run after a kill asks the same first question, and units that appear later start
 * from the same origin. Units that are not in a run's selection keep their entries.
 * A single-unit checkpoint file (version 1) is read as the entry of its unit.
 * With --layout hive, `lake.pending` names the parts of a run that is publishing (lake/journal.ts).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { HistoryQuery } from '../../api/history.js';
import { writeFileAtomic } from '../../atomic-file.js';
import { TrackctlError, UsageError } from '../../errors.js';
import { checkPending, type LakePending } from '../../lake/journal.js';
import { readCheckpointFile, readCheckpointText } from '../checkpoint-file.js';
import { Cursor } from './cursor.js';

const KIND = 'trackctl history checkpoint';
const VERSION = 2;

interface UnitEntry {
  lastQueryTime: number;
  seen: string[];
  /** Parts of this unit written to --out-dir so far. */
  parts: number;
}

interface FleetCheckpointFile {
  kind: string;
  version: number;
  reportTypes: string[] | null;
  origin: HistoryQuery;
  units: Record<string, UnitEntry>;
  lake?: { pending: LakePending };
  savedAt: string;
}

const typesText = (types: readonly string[] | null | undefined): string => (types && types.length > 0 ? [...types].sort().join(',') : 'all');

export interface UnitProgress {
  cursor: Cursor;
  parts: number;
}

/** The least time between two saves while units are finishing. */
export const SAVE_INTERVAL_MS = 500;

export class FleetCheckpoint {
  private saving: Promise<void> | undefined;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private lastSave = 0;
  /** A save in the background failed: the run fails with it at the last save. */
  private failure: unknown;
  private lakePending: LakePending | undefined;

  constructor(
    readonly file: string,
    private readonly reportTypes: readonly string[] | undefined,
    /** The first window, fixed by the first run. */
    readonly origin: HistoryQuery,
    private readonly units: Map<number, UnitEntry>,
    private readonly now: () => number,
  ) {}

  /**
   * Reads FILE (or starts afresh when it does not exist) and, on a first run, writes the
   * window into it at once. Nothing is sent before this succeeds.
   */
  static async open(file: string, window: HistoryQuery, reportTypes: readonly string[] | undefined, now: () => number): Promise<FleetCheckpoint> {
    const text = await readCheckpointFile(file);
    if (text === undefined) {
      const fresh = new FleetCheckpoint(file, reportTypes, stripTypes(window), new Map(), now);
      await mkdir(dirname(file), { recursive: true }).catch(() => undefined);
      await fresh.write().catch((err: unknown) => {
        throw new UsageError(`cannot write checkpoint ${file}: ${(err as Error).message}`);
      });
      return fresh;
    }
    return parse(file, text, window, reportTypes, now);
  }

  /** The parts of a --layout hive run being published (saved with the next save). */
  get pending(): LakePending | undefined {
    return this.lakePending;
  }

  set pending(p: LakePending | undefined) {
    this.lakePending = p;
    this.dirty = true;
  }

  /** Where a unit continues from; a unit not seen before starts at the origin window. */
  progress(did: number): UnitProgress {
    const e = this.units.get(did);
    return e ? { cursor: new Cursor(e.lastQueryTime, new Set(e.seen)), parts: e.parts } : { cursor: new Cursor(undefined), parts: 0 };
  }

  /** Records a unit whose output is flushed (or renamed into place); it is saved soon. */
  update(did: number, p: UnitProgress): void {
    if (p.cursor.lastQueryTime === undefined) return;
    this.units.set(did, { lastQueryTime: p.cursor.lastQueryTime, seen: [...p.cursor.seen], parts: p.parts });
    this.dirty = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined || this.failure !== undefined) return;
    const wait = Math.max(0, this.lastSave + SAVE_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((err: unknown) => {
        this.failure ??= err;
      });
    }, wait);
  }

  /** Writes what is recorded, after the save in flight if there is one. */
  private async flush(): Promise<void> {
    while (this.saving) await this.saving;
    if (!this.dirty) return;
    this.dirty = false;
    this.lastSave = Date.now();
    this.saving = this.write().finally(() => {
      this.saving = undefined;
    });
    await this.saving;
    if (this.dirty) this.schedule();
  }

  /** The last save of a run: everything recorded is on disk when it resolves (or the run fails). */
  async save(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.failure !== undefined) throw this.failure;
    await this.flush();
    while (this.saving || this.dirty) await this.flush();
    clearTimeout(this.timer); // one scheduled by a save that was in flight
    this.timer = undefined;
    if (this.failure !== undefined) throw this.failure;
  }

  private async write(): Promise<void> {
    const units: Record<string, UnitEntry> = {};
    for (const [did, e] of [...this.units].sort((a, b) => a[0] - b[0])) units[String(did)] = e;
    const data: FleetCheckpointFile = {
      kind: KIND,
      version: VERSION,
      reportTypes: this.reportTypes && this.reportTypes.length > 0 ? [...this.reportTypes] : null,
      origin: this.origin,
      units,
      ...(this.lakePending ? { lake: { pending: this.lakePending } } : {}),
      savedAt: new Date(this.now()).toISOString(),
    };
    try {
      await writeFileAtomic(this.file, `${JSON.stringify(data)}\n`);
    } catch (err) {
      throw new TrackctlError(`cannot save checkpoint ${this.file}: ${(err as Error).message}`);
    }
  }
}

function stripTypes(q: HistoryQuery): HistoryQuery {
  const { reportTypes: _, ...rest } = q;
  return rest;
}

/** True when FILE holds a checkpoint of many units (so a single-id run reads it the fleet way). */
export async function isFleetCheckpoint(file: string): Promise<boolean> {
  try {
    const data = JSON.parse(await readFile(file, 'utf8')) as { kind?: unknown; version?: unknown };
    return data.kind === KIND && data.version === VERSION;
  } catch {
    return false;
  }
}

function parse(file: string, text: string, window: HistoryQuery, reportTypes: readonly string[] | undefined, now: () => number): FleetCheckpoint {
  const { data, bad } = readCheckpointText(file, text, KIND, 'the next run delivers the window again');
  const types = data.reportTypes as string[] | null | undefined;
  if (typesText(types) !== typesText(reportTypes)) {
    throw new UsageError(`checkpoint ${file} was made for report types ${typesText(types)}, not ${typesText(reportTypes)}`, {
      hint: 'Use one checkpoint file per --types filter.',
    });
  }
  const units = new Map<number, UnitEntry>();
  const entry = (v: unknown, where: string): UnitEntry => {
    const e = v as Partial<UnitEntry> | null;
    if (e === null || typeof e !== 'object' || typeof e.lastQueryTime !== 'number' || !Number.isInteger(e.lastQueryTime) || e.lastQueryTime < 0) {
      throw bad(`${where}: lastQueryTime is missing`);
    }
    if (!Array.isArray(e.seen) || !e.seen.every((k) => typeof k === 'string')) throw bad(`${where}: seen is missing`);
    const parts = e.parts ?? 0;
    if (!Number.isInteger(parts) || parts < 0) throw bad(`${where}: parts is not a count`);
    return { lastQueryTime: e.lastQueryTime, seen: e.seen, parts };
  };
  if (data.version === 1) {
    // A single-unit checkpoint: its unit's entry; units added later start at this run's window.
    if (typeof data.unit !== 'number') throw bad('unit is missing');
    units.set(data.unit, entry(data, `unit ${data.unit}`));
    return new FleetCheckpoint(file, reportTypes, stripTypes(window), units, now);
  }
  if (data.version !== VERSION) throw bad(`version ${String(data.version)} is not supported`);
  const origin = data.origin as HistoryQuery | undefined;
  if (origin === null || typeof origin !== 'object') throw bad('origin is missing');
  for (const k of ['from', 'to', 'lastQueryTime'] as const) {
    const v = origin[k];
    if (v !== undefined && (!Number.isInteger(v) || v < 0)) throw bad(`origin.${k} is not unix seconds`);
  }
  if (data.units === null || typeof data.units !== 'object' || Array.isArray(data.units)) throw bad('units is missing');
  for (const [did, v] of Object.entries(data.units as Record<string, unknown>)) {
    if (!/^[1-9]\d*$/.test(did)) throw bad(`"${did}" is not a unit id`);
    units.set(Number(did), entry(v, `unit ${did}`));
  }
  const checkpoint = new FleetCheckpoint(file, reportTypes, stripTypes(origin), units, now);
  try {
    const pending = checkPending((data.lake as { pending?: unknown } | undefined)?.pending);
    if (pending) checkpoint.pending = pending;
  } catch (err) {
    throw bad((err as Error).message);
  }
  return checkpoint;
}
