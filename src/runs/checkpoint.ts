/**
 * --checkpoint FILE of a fleet run: every unit's cursor (lastQueryTime and the
 * de-duplication keys of its last reply), with history's --out-dir part count or watch's
 * unit state. One format, two kinds (a history checkpoint cannot be given to watch, nor
 * the reverse); it reads every earlier file: history's single-unit version 1 (taken as
 * that unit's entry), history's fleet version 2 and watch's version 1.
 *
 * What is recorded is what was delivered: the engine records a unit only after its output
 * was acknowledged by its target (see runs/engine.ts for when that is). Writes are atomic
 * (temporary file, fsync, rename). Saves may be coalesced (saveSoon): at most one in flight
 * and one every SAVE_INTERVAL_MS, each carrying everything recorded since; save() is the
 * last one of a run and resolves once everything recorded is on disk.
 *
 * A new file is written at once when opened, before anything is fetched: history fixes its
 * first window there (`origin`), so a re-run after a kill asks the same first question and
 * units that join later start from it; watch fixes each unit's starting point and state.
 * Units that are not in a run's selection keep their entries.
 *
 * history --layout hive: `lake.pending` names the parts of a run that is publishing
 * (src/lake/journal.ts); the save that moves the run's units clears it.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { HistoryQuery } from '../api/history.js';
import { writeFileAtomic } from '../atomic-file.js';
import { localIOError, UsageError } from '../errors.js';
import { checkPending, type LakePending } from '../lake/journal.js';
import { readCheckpointFile, readCheckpointText } from './checkpoint-file.js';
import { Cursor } from './cursor.js';

export type CheckpointKind = 'history' | 'watch';

const KINDS: Record<CheckpointKind, { name: string; version: number; startOver: string }> = {
  history: { name: 'trackctl history checkpoint', version: 2, startOver: 'the next run delivers the window again' },
  watch: { name: 'trackctl watch checkpoint', version: 1, startOver: 'the next run starts from the units as they are now' },
};

/** Where a unit stands. */
export interface UnitProgress<S = unknown> {
  cursor: Cursor;
  /** Parts of this unit written to --out-dir so far (history). */
  parts: number;
  /** The unit's watch state (watch). */
  state?: S | undefined;
}

interface UnitEntry {
  lastQueryTime: number;
  seen: string[];
  parts?: number;
  state?: unknown;
}

export interface CheckpointSpec<S = unknown> {
  kind: CheckpointKind;
  /** history: the first window, fixed by the first run (without its report types). */
  window?: HistoryQuery;
  /** history: the --types filter the file is made for. */
  reportTypes?: readonly string[] | undefined;
  /** watch: a saved state back as the engine's, or undefined when it is not one. */
  restore?: (saved: unknown, did: number) => S | undefined;
}

/** The least time between two coalesced saves. */
export const SAVE_INTERVAL_MS = 500;
/**
 * And at least this many times the last write took: each save writes every unit, so saves at a
 * fixed pace would cost a run time in units × duration, quadratic in the fleet (10,000 units: ~25 ms
 * a save); this way writing takes at most a twentieth of the run, whatever its size.
 */
export const SAVE_COST_FACTOR = 19;

/** When the next coalesced save may start (ms): SAVE_INTERVAL_MS after the last began, and after SAVE_COST_FACTOR times its writing. */
export function nextSaveAt(lastStart: number, lastWriteMs: number): number {
  return lastStart + Math.max(SAVE_INTERVAL_MS, lastWriteMs * (1 + SAVE_COST_FACTOR));
}

const typesText = (types: readonly string[] | null | undefined): string => (types && types.length > 0 ? [...types].sort().join(',') : 'all');

export class RunCheckpoint<S = unknown> {
  private saving: Promise<void> | undefined;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private lastSave = 0;
  private lastWriteMs = 0;
  private lakePending: LakePending | undefined;
  /** A coalesced save failed: the run fails with it at its last save. */
  private failure: unknown;
  /** watch: the service's clock at the last saved round (unix seconds), and the rounds saved. */
  serverTime: number | null = null;
  rounds = 0;

  constructor(
    readonly file: string,
    private readonly spec: CheckpointSpec<S>,
    /** history: the first window, fixed by the first run. */
    readonly origin: HistoryQuery,
    private readonly units: Map<number, UnitEntry>,
    private readonly now: () => number,
  ) {}

  /** Reads FILE, or starts afresh when it does not exist (and writes it at once): nothing is sent before this succeeds. */
  static async open<S>(file: string, spec: CheckpointSpec<S>, now: () => number): Promise<RunCheckpoint<S>> {
    const text = await readCheckpointFile(file);
    if (text !== undefined) return parse(file, text, spec, now);
    const fresh = new RunCheckpoint(file, spec, stripTypes(spec.window ?? {}), new Map(), now);
    await mkdir(dirname(file), { recursive: true }).catch(() => undefined);
    await fresh.write().catch((err: unknown) => {
      throw new UsageError(`cannot write checkpoint ${file}: ${(err as Error).message}`);
    });
    return fresh;
  }

  /** True when the file holds this unit. */
  has(did: number): boolean {
    return this.units.has(did);
  }

  /** Where a unit continues from; a unit not seen before starts with no cursor (the origin window). */
  progress(did: number): UnitProgress<S> {
    const e = this.units.get(did);
    if (!e) return { cursor: new Cursor(undefined), parts: 0 };
    const state = e.state === undefined ? undefined : (structuredClone(e.state) as S);
    return { cursor: new Cursor(e.lastQueryTime, new Set(e.seen)), parts: e.parts ?? 0, state };
  }

  /** Records a unit's delivered progress (in memory: saveSoon or save writes it). */
  record(did: number, p: UnitProgress<S>): void {
    if (p.cursor.lastQueryTime === undefined) return;
    const e: UnitEntry = { lastQueryTime: p.cursor.lastQueryTime, seen: [...p.cursor.seen] };
    if (this.spec.kind === 'history') e.parts = p.parts;
    else e.state = structuredClone(p.state);
    this.units.set(did, e);
    this.dirty = true;
  }

  /** Writes what was recorded soon, coalesced with other units finishing. */
  saveSoon(): void {
    if (this.timer !== undefined || this.failure !== undefined || !this.dirty) return;
    const wait = Math.max(0, nextSaveAt(this.lastSave, this.lastWriteMs) - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((err: unknown) => {
        this.failure ??= err;
      });
    }, wait);
  }

  private async flush(): Promise<void> {
    while (this.saving) await this.saving;
    if (!this.dirty) return;
    this.dirty = false;
    const started = Date.now();
    this.lastSave = started;
    this.saving = this.write().finally(() => {
      this.lastWriteMs = Date.now() - started;
      this.saving = undefined;
    });
    await this.saving;
    if (this.dirty) this.saveSoon();
  }

  /** Everything recorded is on disk when this resolves (or the run fails). */
  async save(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.failure !== undefined) throw this.failure;
    while (this.saving || this.dirty) await this.flush();
    clearTimeout(this.timer); // one scheduled by a save that was in flight
    this.timer = undefined;
    if (this.failure !== undefined) throw this.failure;
  }

  /** history --layout hive: the parts of a run being published (written with the next save). */
  get pending(): LakePending | undefined {
    return this.lakePending;
  }

  set pending(p: LakePending | undefined) {
    this.lakePending = p;
    this.dirty = true;
  }

  /** watch: a round ended at the service's clock `serverTime`; the next save records it. */
  markRound(serverTime: number): void {
    this.serverTime = serverTime;
    this.rounds++;
    this.dirty = true;
  }

  /** Stops a coalesced save that is waiting (a run that failed saves nothing more). */
  abandon(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async write(): Promise<void> {
    const units: Record<string, UnitEntry> = {};
    for (const [did, e] of [...this.units].sort((a, b) => a[0] - b[0])) units[String(did)] = e;
    const { name, version } = KINDS[this.spec.kind];
    const savedAt = new Date(this.now()).toISOString();
    const data =
      this.spec.kind === 'history'
        ? { kind: name, version, reportTypes: this.spec.reportTypes && this.spec.reportTypes.length > 0 ? [...this.spec.reportTypes] : null, origin: this.origin, units, ...(this.lakePending ? { lake: { pending: this.lakePending } } : {}), savedAt }
        : { kind: name, version, serverTime: this.serverTime, rounds: this.rounds, savedAt, units };
    try {
      await writeFileAtomic(this.file, `${JSON.stringify(data)}\n`);
    } catch (err) {
      throw localIOError(err, `checkpoint ${this.file}`, 'save');
    }
  }
}

function stripTypes(q: HistoryQuery): HistoryQuery {
  const { reportTypes: _, ...rest } = q;
  return rest;
}

function parse<S>(file: string, text: string, spec: CheckpointSpec<S>, now: () => number): RunCheckpoint<S> {
  const { name, version, startOver } = KINDS[spec.kind];
  const { data, bad } = readCheckpointText(file, text, name, startOver);
  const units = new Map<number, UnitEntry>();
  const entry = (v: unknown, did: number): UnitEntry => {
    const where = `unit ${did}`;
    const e = v as Partial<UnitEntry> | null;
    if (e === null || typeof e !== 'object' || typeof e.lastQueryTime !== 'number' || !Number.isInteger(e.lastQueryTime) || e.lastQueryTime < 0) {
      throw bad(`${where}: lastQueryTime is missing`);
    }
    if (!Array.isArray(e.seen) || !e.seen.every((k) => typeof k === 'string')) throw bad(`${where}: seen is missing`);
    if (spec.kind === 'watch') {
      const state = spec.restore?.(e.state, did);
      if (state === undefined) throw bad(`${where}: state is missing`);
      return { lastQueryTime: e.lastQueryTime, seen: e.seen, state };
    }
    const parts = e.parts ?? 0;
    if (!Number.isInteger(parts) || parts < 0) throw bad(`${where}: parts is not a count`);
    return { lastQueryTime: e.lastQueryTime, seen: e.seen, parts };
  };
  const window = stripTypes(spec.window ?? {});
  if (spec.kind === 'history') {
    const types = data.reportTypes as string[] | null | undefined;
    if (typesText(types) !== typesText(spec.reportTypes)) {
      throw new UsageError(`checkpoint ${file} was made for report types ${typesText(types)}, not ${typesText(spec.reportTypes)}`, {
        hint: 'Use one checkpoint file per --types filter.',
      });
    }
    if (data.version === 1) {
      // A single-unit checkpoint: its unit's entry; units added later start at this run's window.
      if (typeof data.unit !== 'number' || !Number.isInteger(data.unit) || data.unit <= 0) throw bad('unit is missing');
      units.set(data.unit, entry(data, data.unit));
      return new RunCheckpoint(file, spec, window, units, now);
    }
  }
  if (data.version !== version) throw bad(`version ${String(data.version)} is not supported`);
  let origin = window;
  if (spec.kind === 'history') {
    const o = data.origin as HistoryQuery | undefined | null;
    if (o === null || typeof o !== 'object') throw bad('origin is missing');
    for (const k of ['from', 'to', 'lastQueryTime'] as const) {
      const v = o[k];
      if (v !== undefined && (!Number.isInteger(v) || v < 0)) throw bad(`origin.${k} is not unix seconds`);
    }
    origin = stripTypes(o);
  }
  if (data.units === null || typeof data.units !== 'object' || Array.isArray(data.units)) throw bad('units is missing');
  for (const [did, v] of Object.entries(data.units as Record<string, unknown>)) {
    if (!/^[1-9]\d*$/.test(did)) throw bad(`"${did}" is not a unit id`);
    units.set(Number(did), entry(v, Number(did)));
  }
  const cp = new RunCheckpoint(file, spec, origin, units, now);
  if (spec.kind === 'history') {
    try {
      const pending = checkPending((data.lake as { pending?: unknown } | undefined)?.pending);
      if (pending) cp.pending = pending;
    } catch (err) {
      throw bad((err as Error).message);
    }
  }
  if (spec.kind === 'watch') {
    cp.serverTime = typeof data.serverTime === 'number' ? data.serverTime : null;
    cp.rounds = typeof data.rounds === 'number' ? data.rounds : 0;
  }
  return cp;
}
