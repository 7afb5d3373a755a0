/**
 * History of many units (ids, --group, --category, --all-units) or into --out-dir: the
 * units go through one bounded pool over the one keep-alive HTTP client.
 *
 * Merged stream: each unit's reports are written a reply chunk at a time as they arrive,
 * so the units' batches interleave (every record carries its did); within a unit, the
 * service's order. gpx and kml hold each unit whole, as one track or folder, in the order
 * the units complete (a unit is kept in a temporary file until then).
 *
 * With --checkpoint, a unit's progress is recorded only after its output was flushed
 * (stream) or renamed into place (--out-dir); see fleet-checkpoint.ts and io/outdir.ts.
 */
import type { Api } from '../../api/client.js';
import type { HistoryItem, HistoryQuery } from '../../api/history.js';
import { withCheckpointLock } from '../../auth/lock.js';
import type { Context } from '../../context.js';
import { ApiError, AuthError, InterruptedError, LocalIOError, NetworkError, PartialFailure, TrackctlError, UsageError } from '../../errors.js';
import { runPool } from '../../fleet/pool.js';
import { describeSelection, resolveUnits, type SelectedUnit } from '../../fleet/select.js';
import { openGroupedSink, openHistorySink, type HistorySink } from '../../io/geo/sink.js';
import { fileIO, OutDir, prepareOutDir, type FileSink } from '../../io/outdir.js';
import type { OutputOptions } from '../../io/output.js';
import { startProgress, type Progress } from '../../io/progress.js';
import { Spool } from '../../io/spool.js';
import { CSV_COLUMNS, FLEET_TABLE_COLUMNS, flatReport } from './columns.js';
import { Cursor, Poll } from './cursor.js';
import { FleetCheckpoint } from './fleet-checkpoint.js';
import { pause, watchInterrupts, type Interrupts } from './follow.js';
import type { HistoryPlan } from './options.js';
import type { HistoryOutput } from './output.js';
import { streamQuery } from './query.js';
import { DirTarget, GroupedTarget, StreamTarget, type Target, type UnitSlot } from './targets.js';

/** Formats that cannot be followed: each is a document written whole. */
const UNFOLLOWABLE = new Set(['gpx', 'kml', 'geojson', 'parquet', 'html']);
/** A reply whose keys exceed this is settled by one more query, so the checkpoint stays small (see settle()). */
const SETTLE_KEYS = 200;
/** --follow: a round of polls lasts at least this per unit (about 20 requests a second at most). */
const MIN_ROUND_MS_PER_UNIT = 50;
/** --follow: after rounds with 429s, the interval grows up to this many times the base. */
const MAX_SLOWDOWN = 16;
/** --follow: a unit that fails this many rounds in a row is given up (and the exit code is 7). */
const MAX_FAILED_POLLS = 5;

const EXTENSIONS: Record<string, string> = { table: 'tsv', json: 'json', ndjson: 'ndjson', csv: 'csv', yaml: 'yaml', geojson: 'geojson', gpx: 'gpx', kml: 'kml', parquet: 'parquet', html: 'html' };

/** Checks that need nothing from the service: all of them run before any request. */
export function checkFleetPlan(plan: HistoryPlan, format: string, raw: boolean): void {
  if (raw) throw new UsageError('--raw prints one reply as sent; it cannot be used with several units or --out-dir');
  if (plan.follow && UNFOLLOWABLE.has(format)) {
    throw new UsageError(`-o ${format} is a document written whole; it cannot be used with --follow over several units (use ndjson, csv or table)`);
  }
  if (plan.outDir !== undefined && EXTENSIONS[format] === undefined) throw new UsageError(`-o ${format} cannot be written to --out-dir`);
  // One Parquet stream is readable only once whole, yet units are checkpointed as they complete: a kill would lose them.
  if (format === 'parquet' && plan.checkpoint !== undefined && plan.outDir === undefined) {
    throw new UsageError('-o parquet with --checkpoint over several units needs --out-dir (a file per unit, put in place when whole)');
  }
}

export async function runFleet(ctx: Context, plan: HistoryPlan, format: HistoryOutput, out: OutputOptions): Promise<void> {
  checkFleetPlan(plan, format, ctx.globals.raw === true);
  if (plan.outDir !== undefined) await prepareOutDir(plan.outDir);
  const file = plan.checkpoint;
  if (file === undefined) return new FleetRun(ctx, plan, format, out, undefined).run();
  await withCheckpointLock(file, async () => {
    const checkpoint = await FleetCheckpoint.open(file, plan.window, plan.reportTypes, () => ctx.clock.now());
    await new FleetRun(ctx, plan, format, out, checkpoint).run();
  });
}

interface UnitState {
  unit: SelectedUnit;
  cursor: Cursor;
  parts: number;
  failures: number;
}

class FleetRun {
  private failed: Array<{ did: number; err: unknown }> = [];
  private given = new Set<number>();
  private reports = 0;
  private progress: Progress | undefined;
  private fatal: unknown;
  /** Aborted when something fails for every unit alike (credentials): no unit is started after it. */
  private readonly stop = new AbortController();
  private readonly origin: HistoryQuery;

  constructor(
    private readonly ctx: Context,
    private readonly plan: HistoryPlan,
    private readonly format: HistoryOutput,
    private readonly out: OutputOptions,
    private readonly checkpoint: FleetCheckpoint | undefined,
  ) {
    const base = checkpoint?.origin ?? plan.window;
    this.origin = plan.reportTypes ? { ...base, reportTypes: plan.reportTypes } : base;
  }

  async run(): Promise<void> {
    const api = await this.ctx.api();
    const units = await resolveUnits(api, this.plan.selection);
    const title = `History of ${describeSelection(this.plan.selection)}`;
    if (units.length === 0 && !this.ctx.globals.quiet) this.ctx.io.err(`No units in ${describeSelection(this.plan.selection)}.`);
    const states = units.map((unit): UnitState => {
      const p = this.checkpoint?.progress(unit.did) ?? { cursor: new Cursor(undefined), parts: 0 };
      return { unit, cursor: p.cursor, parts: p.parts, failures: 0 };
    });
    const quiet = this.ctx.globals.quiet || this.plan.follow || (this.out.io.stdoutIsTTY && this.plan.outDir === undefined);
    this.progress = startProgress(this.ctx.io, { label: 'history:', total: units.length, unit: 'units', quiet, env: this.ctx.env });
    this.ctx.onDispose(() => this.progress?.stop());

    const target = await this.openTarget(title);
    try {
      if (this.plan.follow) await this.follow(api, states, target);
      else await runPool(states, this.plan.concurrency, (s) => this.once(api, s, target), this.stop.signal);
      if (this.fatal !== undefined) throw this.fatal;
      await target.end();
      await this.checkpoint?.save();
    } finally {
      await target.cleanup();
    }
    this.progress.stop();
    this.finish(units.length);
  }

  /** Exit: 7 when some units failed (each was named on stderr), the error itself when every unit failed alike. */
  private finish(total: number): void {
    if (this.failed.length === 0 && this.given.size === 0) return;
    const first = this.failed[0]?.err;
    if (this.failed.length === total && total > 0 && this.failed.every((f) => sameKind(f.err, first))) throw first;
    const n = Math.max(this.failed.length, this.given.size);
    throw new PartialFailure(n, total, `the history of ${n} of ${total} units failed (named above)`);
  }

  /** One reply per unit (plus, when it was large, one more that settles it): no --follow. */
  private async once(api: Api, s: UnitState, target: Target): Promise<void> {
    const writer = target.unit(slotOf(s));
    try {
      await this.fetch(api, s, (items) => writer.write(items));
      await writer.commit();
      s.parts = writer.parts;
      this.checkpoint?.update(s.unit.did, { cursor: s.cursor, parts: s.parts });
      this.progress?.tick();
    } catch (err) {
      await writer.discard();
      this.unitFailed(s, err);
      this.progress?.tick(false);
    }
  }

  private unitFailed(s: UnitState, err: unknown): void {
    // A failed local write (a full disk) would fail every unit alike: the run stops, and says it once.
    if (err instanceof AuthError || err instanceof InterruptedError || err instanceof LocalIOError || !(err instanceof TrackctlError)) {
      this.fatal ??= err;
      this.stop.abort();
      return;
    }
    this.failed.push({ did: s.unit.did, err });
    this.ctx.io.err(`error: unit ${s.unit.did}: ${err.message}`);
  }

  /**
   * Reads a unit's next reply into `write`. Without a checkpoint or --follow the window is
   * asked once; otherwise the cursor continues from where the unit stood.
   */
  private async fetch(api: Api, s: UnitState, write: (items: readonly HistoryItem[]) => Promise<void>, signal?: AbortSignal): Promise<void> {
    const counted = async (items: readonly HistoryItem[]): Promise<void> => {
      await write(items);
      this.reports += items.length;
      this.progress?.text(`history: ${this.reports.toLocaleString('en-US')} reports,`);
    };
    const sink = { write: counted } as Pick<HistorySink, 'write'> as HistorySink;
    if (this.checkpoint === undefined && !this.plan.follow) {
      await streamQuery(api, s.unit.did, this.origin, sink, undefined, signal);
      return;
    }
    await this.poll(api, s, sink, signal);
    // A large reply (a first window) leaves many keys; one more query from the new cursor
    // brings only the last minutes again, whose keys are then all that need keeping.
    if (s.cursor.seen.size > SETTLE_KEYS) await this.poll(api, s, sink, signal);
  }

  private async poll(api: Api, s: UnitState, sink: HistorySink, signal?: AbortSignal): Promise<void> {
    const query = s.cursor.next(this.origin, this.plan.reportTypes);
    const current = new Poll();
    const serverTime = await streamQuery(api, s.unit.did, query, sink, { poll: current, seen: s.cursor.seen }, signal);
    s.cursor.commit(current, query, serverTime);
  }

  /** --follow: rounds of one poll per unit, the interval adapting to the fleet size and to 429s. */
  private async follow(api: Api, states: UnitState[], target: Target): Promise<void> {
    const interrupts: Interrupts = watchInterrupts((message) => {
      if (!this.ctx.globals.quiet) this.ctx.io.err(message);
    });
    const stop = AbortSignal.any([interrupts.stop, this.stop.signal]);
    let slowdown = 1;
    try {
      for (;;) {
        const throttledBefore = api.http.throttled;
        const active = states.filter((s) => !this.given.has(s.unit.did));
        await runPool(active, this.plan.concurrency, (s) => this.followPoll(api, s, target, interrupts.abort), stop);
        if (this.fatal !== undefined) {
          if (interrupts.abort.aborted) throw interrupts.abort.reason;
          return;
        }
        slowdown = api.http.throttled > throttledBefore ? Math.min(MAX_SLOWDOWN, slowdown * 2) : Math.max(1, slowdown / 2);
        const waitMs = Math.max(this.plan.intervalMs, active.length * MIN_ROUND_MS_PER_UNIT) * slowdown;
        await pause(waitMs, stop);
        if (stop.aborted) return;
      }
    } finally {
      interrupts.dispose();
    }
  }

  private async followPoll(api: Api, s: UnitState, target: Target, abort: AbortSignal): Promise<void> {
    const writer = target.unit(slotOf(s));
    try {
      await this.fetch(api, s, (items) => writer.write(items), abort);
      await writer.commit();
      s.failures = 0;
      this.checkpoint?.update(s.unit.did, { cursor: s.cursor, parts: s.parts });
    } catch (err) {
      await writer.discard();
      if (abort.aborted) {
        this.fatal ??= abort.reason;
        return;
      }
      const transient = err instanceof NetworkError || (err instanceof ApiError && (err.status >= 500 || err.status === 429));
      if (!(err instanceof TrackctlError) || err instanceof AuthError) return this.unitFailed(s, err);
      if (!transient || ++s.failures >= MAX_FAILED_POLLS) {
        this.given.add(s.unit.did);
        this.ctx.io.err(`error: unit ${s.unit.did}: ${err.message}; no longer followed`);
      } else {
        this.ctx.io.err(`warning: unit ${s.unit.did}: ${err.message}; trying again next round`);
      }
    }
  }

  private async openTarget(title: string): Promise<Target> {
    if (this.plan.outDir !== undefined) {
      const dir = new OutDir(this.plan.outDir, EXTENSIONS[this.format] as string, this.plan.partition, (path, name) => this.openFile(path, name));
      return new DirTarget(dir, this.checkpoint !== undefined);
    }
    if (this.format === 'gpx' || this.format === 'kml') return new GroupedTarget(openGroupedSink(this.format, this.out, title), await Spool.create());
    return new StreamTarget(await this.openSink(this.out, title));
  }

  private async openSink(out: OutputOptions, title: string): Promise<HistorySink> {
    if (this.format === 'parquet') {
      // Loaded only when asked for; every record carries its did (a column).
      const { openParquetStream } = await import('../../io/parquet/index.js');
      return openParquetStream(out.io.stdout, { createdBy: `trackctl ${this.ctx.version}` });
    }
    const columns = this.format === 'csv' ? CSV_COLUMNS : FLEET_TABLE_COLUMNS;
    return openHistorySink({ format: this.format, out, title, columns, flat: flatReport });
  }

  private async openFile(path: string, title: string): Promise<FileSink> {
    const file = fileIO(path);
    return { sink: await this.openSink({ ...this.out, io: file.io, tty: false, color: false }, title), close: file.close };
  }
}

const slotOf = (s: UnitState): UnitSlot => ({ did: s.unit.did, name: s.unit.name, parts: s.parts });

function sameKind(a: unknown, b: unknown): boolean {
  return a instanceof Error && b instanceof Error && a.constructor === b.constructor && a.message.replace(/\d+/g, '#') === b.message.replace(/\d+/g, '#');
}
