/**
 * History of one unit or many (ids, --group, --category, --all-units), or into --out-dir,
 * through the fleet-run engine (src/runs/): a bounded pool over the one keep-alive HTTP
 * client, one cursor per unit, one checkpoint for all. A single unit is a fleet of one.
 *
 * Merged stream: each unit's reports are written a reply chunk at a time as they arrive,
 * so the units' batches interleave (every record carries its did); within a unit, the
 * service's order. gpx and kml hold each unit whole, as one track or folder, in the order
 * the units complete (a unit is kept in a temporary file until then).
 *
 * What --checkpoint saves, and when, is runs/delivery.ts: with --out-dir a unit as soon as
 * its files are in place; a stream only when the whole run ended well (following: each round
 * once its output was acknowledged).
 */
import { fstatSync } from 'node:fs';
import type { Api } from '../../api/client.js';
import type { HistoryItem, HistoryQuery } from '../../api/history.js';
import { withCheckpointLock } from '../../lock.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { openGroupedSink, openHistorySink, type HistorySink } from '../../io/pages/geo/sink.js';
import { fileIO, OutDir, prepareOutDir, type FileSink } from '../../io/delivery/outdir.js';
import type { OutputOptions } from '../../io/formats/output.js';
import { startProgress, type Progress } from '../../io/terminal/progress.js';
import { Spool } from '../../io/delivery/spool.js';
import type { PageCodec } from '../../lake/parquet/codecs.js';
import { unitsOfShard } from '../../lake/shard.js';
import type { Recovered } from '../../lake/journal.js';
import type { LakeStorage } from '../../lake/storage.js';
import { RunCheckpoint } from '../../runs/checkpoint.js';
import { Cursor } from '../../runs/cursor.js';
import { Ledger } from '../../runs/delivery.js';
import { FleetEngine } from '../../runs/engine.js';
import { watchInterrupts, type Interrupts } from '../../runs/interrupts.js';
import { pollUnit, streamWindow, type WriteReports } from '../../runs/query.js';
import { describeSelection, resolveUnits, type SelectedUnit } from '../../runs/select.js';
import { DirTarget, GroupedTarget, lakeRunTarget, savePolicy, StreamTarget, type Target, type UnitSlot } from '../../runs/targets.js';
import { CSV_COLUMNS, FLEET_TABLE_COLUMNS, flatReport, TABLE_COLUMNS } from './columns.js';
import type { HistoryPlan } from './options.js';
import { openChannel, type HistoryOutput } from './output.js';

/** Formats that cannot be followed: each is a document written whole. */
const UNFOLLOWABLE = new Set(['gpx', 'kml', 'geojson', 'parquet', 'html']);
/** A reply whose keys exceed this is settled by one more query, so the checkpoint stays small (see fetch()). */
const SETTLE_KEYS = 200;

const EXTENSIONS: Record<string, string> = { table: 'tsv', json: 'json', ndjson: 'ndjson', csv: 'csv', yaml: 'yaml', geojson: 'geojson', gpx: 'gpx', kml: 'kml', parquet: 'parquet', html: 'html' };

/** Checks that need nothing from the service: all of them run before any request. */
function checkFleetPlan(plan: HistoryPlan, format: string): void {
  if (plan.follow && UNFOLLOWABLE.has(format)) {
    throw new UsageError(`-o ${format} is a document written whole; it cannot be used with --follow (use ndjson, csv or table)`);
  }
  if (plan.outDir !== undefined && EXTENSIONS[format] === undefined) throw new UsageError(`-o ${format} cannot be written to --out-dir`);
}

export async function runFleet(ctx: Context, plan: HistoryPlan, format: HistoryOutput, out: OutputOptions): Promise<void> {
  checkFleetPlan(plan, format);
  const openLake = async (dir: string): Promise<LakeStorage> => {
    const { retries, timeoutMs } = await ctx.settings();
    return (await import('../../lake/storage.js')).openStorage(dir, EXTENSIONS[format] as string, ctx.env, { retries, timeoutMs });
  };
  let storage: LakeStorage | undefined;
  if (plan.outDir !== undefined && plan.layout === 'hive') {
    storage = await openLake(plan.outDir);
    await storage.prepare().catch(async (err: unknown) => {
      await storage?.close();
      throw err;
    });
  } else if (plan.outDir !== undefined) await prepareOutDir(plan.outDir);
  const file = plan.checkpoint;
  if (file === undefined) return new HistoryRun(ctx, plan, format, out, undefined, storage).run();
  await withCheckpointLock(file, async () => {
    const checkpoint = await RunCheckpoint.open(file, { kind: 'history', window: plan.window, reportTypes: plan.reportTypes }, () => ctx.clock.now());
    // A run killed while publishing lake parts left them recorded: they go before anything is fetched again.
    if (checkpoint.pending !== undefined) {
      const { recoverPending } = await import('../../lake/journal.js');
      const here = storage ?? (plan.outDir === undefined ? undefined : await openLake(plan.outDir));
      try {
        const recovered = await recoverPending(checkpoint, here);
        if (recovered) sayRecovered(ctx, recovered);
      } finally {
        if (here !== storage) await here?.close();
      }
    }
    await new HistoryRun(ctx, plan, format, out, checkpoint, storage).run();
  });
}

/** Lines of what was left, at most: a record may name any number of keys. */
const LEFT_SHOWN = 10;

/** Says what became of a killed run's parts: only what was done is said to be done. */
function sayRecovered(ctx: Context, r: Recovered): void {
  const parts = (n: number): string => `${n} part${n === 1 ? '' : 's'}`;
  if (!ctx.globals.quiet) {
    if (r.removed > 0) ctx.io.err(`Removed ${parts(r.removed)} of interrupted run ${r.run} (their reports are fetched again).`);
    if (r.missing > 0) ctx.io.err(`${parts(r.missing)} of interrupted run ${r.run} ${r.missing === 1 ? 'was' : 'were'} no longer there.`);
  }
  // Said even with --quiet: the checkpoint named files that a run would have deleted before.
  // Quoted: a forged name may hold any character, terminal controls included.
  const base = r.outDir.replace(/\/+$/, '');
  for (const { key, why } of r.left.slice(0, LEFT_SHOWN)) ctx.io.err(`warning: left ${JSON.stringify(`${base}/${key}`)} as it is: ${why}.`);
  if (r.left.length > LEFT_SHOWN) ctx.io.err(`warning: and ${r.left.length - LEFT_SHOWN} more the checkpoint names, left as they are.`);
}

interface UnitState extends SelectedUnit {
  cursor: Cursor;
  parts: number;
}

class HistoryRun {
  private reports = 0;
  /** The newest last report of the account's units (the service's clock had reached it): see Cursor.commit. */
  private proven: number | undefined;
  private progress: Progress | undefined;
  private readonly origin: HistoryQuery;
  /** One unit named on the command line: its table has no UNIT column and its title is the unit. */
  private readonly single: number | undefined;
  private codec: Promise<PageCodec> | undefined;

  constructor(
    private readonly ctx: Context,
    private readonly plan: HistoryPlan,
    private readonly format: HistoryOutput,
    private readonly out: OutputOptions,
    private readonly checkpoint: RunCheckpoint | undefined,
    private readonly storage?: LakeStorage,
  ) {
    const base = checkpoint?.origin ?? plan.window;
    this.origin = plan.reportTypes ? { ...base, reportTypes: plan.reportTypes } : base;
    const s = plan.selection;
    this.single = s.kind === 'ids' && s.ids.length === 1 ? s.ids[0] : undefined;
  }

  async run(): Promise<void> {
    const startedMs = this.ctx.clock.now();
    const title = this.single !== undefined ? `Unit ${this.single}` : `History of ${describeSelection(this.plan.selection)}`;
    // The target first: a --output-file that cannot be written fails before any request.
    const target = await this.openTarget(title);
    const interrupts: Interrupts | undefined = this.plan.follow ? watchInterrupts((m) => this.ctx.globals.quiet || this.ctx.io.err(m)) : undefined;
    let ok = false;
    let ended = false;
    let ledger: Ledger | undefined;
    try {
      const api = await this.ctx.api();
      const shard = this.plan.shard;
      const selected = await resolveUnits(api, this.plan.selection);
      for (const u of selected) if (u.lastReport !== undefined && !(u.lastReport <= (this.proven ?? 0))) this.proven = u.lastReport;
      const units = shard ? unitsOfShard(selected, shard) : selected;
      if (units.length === 0 && !this.ctx.globals.quiet) this.ctx.io.err(`No units in ${describeSelection(this.plan.selection)}${shard ? ` for shard ${shard.index}/${shard.count}` : ''}.`);
      const states = units.map((unit): UnitState => {
        const p = this.checkpoint?.progress(unit.did) ?? { cursor: new Cursor(undefined), parts: 0 };
        return { ...unit, cursor: p.cursor, parts: p.parts };
      });
      const quiet = this.ctx.globals.quiet || this.plan.follow || (this.out.io.stdoutIsTTY && this.plan.outDir === undefined && this.plan.outputFile === undefined);
      const label = this.single !== undefined ? `downloading history of unit ${this.single}:` : 'history:';
      this.progress = startProgress(this.ctx.io, { label, total: this.single === undefined ? units.length : undefined, unit: this.single === undefined ? 'units' : 'reports', quiet, env: this.ctx.env });
      this.ctx.onDispose(() => this.progress?.stop());

      const engine = new FleetEngine(states, {
        concurrency: this.plan.concurrency,
        rounds: interrupts && { intervalMs: this.plan.intervalMs, stop: interrupts.stop, abort: interrupts.abort },
        throttled: () => api.http.throttled,
        say: (m) => this.ctx.io.err(m),
        givenUp: 'no longer followed',
      });
      ledger = new Ledger(this.checkpoint, savePolicy(target, this.plan.follow), target.unread);
      const l = ledger;
      await engine.run(
        (s, signal) => this.turn(api, s, target, l, signal),
        async () => {
          if (!this.plan.follow) return;
          await target.acknowledge();
          await l.roundDone();
        },
      );
      const failure = engine.outcome();
      // Every unit failed: nothing was printed, and no document (header, brackets) is started for nothing.
      if (failure === undefined || engine.failures.length < units.length) {
        await target.end();
        ended = true;
      }
      this.progress.stop();
      if (failure !== undefined) throw failure;
      ok = true;
      if (this.reports === 0 && this.single !== undefined && this.out.tty && !this.ctx.globals.quiet && !this.plan.follow) this.ctx.io.err('No reports found.');
      if (this.ctx.io.stderrIsTTY && !this.ctx.globals.quiet && !this.plan.follow) this.sayDone(units.length, target, startedMs);
    } finally {
      interrupts?.dispose();
      try {
        // --layout hive: the units whose reports are in the published parts stay saved, as with --out-dir.
        await ledger?.end(target.lands === 'run' ? ended : ok);
      } finally {
        await target.cleanup();
      }
    }
    // Stopped by SIGTERM: what was delivered is saved, and the run says it was terminated (exit 143).
    const terminated = interrupts?.terminated();
    if (terminated) throw terminated;
  }

  /**
   * An export at a terminal ends with one line: what was written where, and how long it took
   * (files are not on the screen). Output on the terminal itself, or piped on, needs none.
   */
  private sayDone(units: number, target: Target, startedMs: number): void {
    const where = this.plan.outDir !== undefined
      ? `into ${plural(target.files ?? 0, 'file')} in ${this.plan.outDir}`
      : this.plan.outputFile !== undefined
        ? `into ${this.plan.outputFile}`
        : stdoutIsFile() ? 'into the file on stdout' : undefined;
    if (where === undefined) return;
    const seconds = (this.ctx.clock.now() - startedMs) / 1000;
    this.ctx.io.err(`history: ${plural(this.reports, 'report')} of ${plural(units, 'unit')} ${where} (${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s)`);
  }

  /** One unit's turn: its next reply (or its window) into the target, committed, then its progress handed to the ledger. */
  private async turn(api: Api, s: UnitState, target: Target, ledger: Ledger, signal: AbortSignal | undefined): Promise<void> {
    const writer = target.unit(slotOf(s));
    try {
      await this.fetch(api, s, (items) => writer.write(items), target.lands === 'stream' && this.plan.follow, signal);
      await writer.commit();
    } catch (err) {
      await writer.discard();
      if (!this.plan.follow) this.progress?.tick(false);
      throw err;
    }
    s.parts = writer.parts;
    ledger.unitDone(s.did, { cursor: s.cursor, parts: s.parts });
    if (!this.plan.follow && this.single === undefined) this.progress?.tick();
  }

  /**
   * Reads a unit's next reply into `write`. Without a checkpoint or --follow the window is
   * asked once; otherwise the cursor continues from where the unit stood.
   */
  private async fetch(api: Api, s: UnitState, write: WriteReports, keepPrinted: boolean, signal?: AbortSignal): Promise<void> {
    const counted = async (items: readonly HistoryItem[]): Promise<void> => {
      await write(items);
      this.reports += items.length;
      if (this.single !== undefined) this.progress?.add(items.length);
      else this.progress?.text(`history: ${this.reports.toLocaleString('en-US')} reports,`);
    };
    if (this.checkpoint === undefined && !this.plan.follow) {
      await streamWindow(api, s.did, this.origin, counted, signal);
      return;
    }
    await pollUnit(api, s.did, s.cursor, this.origin, this.plan.reportTypes, counted, signal, keepPrinted, this.proven);
    // A large reply (a first window) leaves many keys; one more query from the new cursor
    // brings only the last minutes again, whose keys are then all that need keeping.
    if (s.cursor.seen.size > SETTLE_KEYS) await pollUnit(api, s.did, s.cursor, this.origin, this.plan.reportTypes, counted, signal, keepPrinted, this.proven);
  }

  private async openTarget(title: string): Promise<Target> {
    if (this.storage !== undefined) {
      const [{ LakeTarget }, { journalOf }, { newRunId }] = await Promise.all([import('../../lake/target.js'), import('../../lake/journal.js'), import('../../lake/layout.js')]);
      const runId = newRunId(this.ctx.clock.now());
      const settings = { partition: this.plan.partition, ext: EXTENSIONS[this.format] as string, maxFileBytes: this.plan.maxFileBytes, runId };
      // The out-dir recorded absolute: a re-run from another directory must find the same parts.
      const journal = this.checkpoint ? journalOf(this.checkpoint, runId, await this.storage.home()) : undefined;
      return lakeRunTarget(new LakeTarget({ storage: this.storage, settings, journal, openSink: (io) => this.openFileSink(io, title) }));
    }
    if (this.plan.outDir !== undefined) {
      const dir = new OutDir(this.plan.outDir, EXTENSIONS[this.format] as string, this.plan.partition, (path, name) => this.openFile(path, name), this.plan.zone);
      return new DirTarget(dir, this.checkpoint !== undefined);
    }
    const { out, channel, parquet } = await openChannel(this.ctx, this.plan, this.format, this.out);
    if (this.format === 'gpx' || this.format === 'kml') return new GroupedTarget(openGroupedSink(this.format, out, title), await Spool.create(), channel);
    return new StreamTarget(parquet ?? this.openSink(out, title), channel);
  }

  private openSink(out: OutputOptions, title: string): HistorySink {
    const columns = this.format === 'csv' ? CSV_COLUMNS : this.single !== undefined ? TABLE_COLUMNS : FLEET_TABLE_COLUMNS;
    return openHistorySink({ format: this.format as Exclude<HistoryOutput, 'parquet'>, out, title, columns, flat: flatReport });
  }

  private async openFile(path: string, title: string): Promise<FileSink> {
    const file = fileIO(path);
    return { sink: await this.openFileSink(file.io, title), close: file.close };
  }

  /** The run's format on a new file (--out-dir files, lake parts); Parquet loaded only when asked for. */
  private async openFileSink(io: OutputOptions['io'], title: string): Promise<HistorySink> {
    if (this.format === 'parquet') {
      const { historyMetadata, openParquetStream, pageCodec } = await import('../../lake/parquet/index.js');
      this.codec ??= pageCodec(this.plan.compression);
      const metadata = historyMetadata(this.ctx.version, this.origin, this.ctx.clock.now());
      return openParquetStream(io.stdout, { createdBy: `trackctl ${this.ctx.version}`, codec: await this.codec, metadata });
    }
    return this.openSink({ ...this.out, io, tty: false, color: false }, title);
  }
}

const slotOf = (s: UnitState): UnitSlot => ({ did: s.did, name: s.name, parts: s.parts });

function plural(n: number, what: string): string {
  return `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;
}

/** stdout redirected into a regular file (`> fleet.ndjson`): an export, as --output-file is. */
function stdoutIsFile(): boolean {
  try {
    return fstatSync(1).isFile();
  } catch {
    return false;
  }
}
