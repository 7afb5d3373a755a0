/**
 * History of one unit or many (ids, --group, --category, --all-units), or into --out-dir,
 * as a fleet run (runs/fleet.ts): a bounded pool over the one keep-alive HTTP client, one
 * cursor per unit, one checkpoint for all. A single unit is a fleet of one.
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
import type { HistoryItem, HistoryQuery, HistoryReading } from '../../api/history.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { openGroupedSink, openHistorySink, type HistorySink } from '../../io/pages/geo/sink.js';
import { fileIO, OutDir, prepareOutDir, type FileSink } from '../../io/delivery/outdir.js';
import type { OutputOptions } from '../../io/formats/output.js';
import { formatCount, type Progress } from '../../io/terminal/progress.js';
import { Spool } from '../../io/delivery/spool.js';
import type { RunCheckpoint, UnitProgress } from '../../runs/checkpoint.js';
import { Cursor } from '../../runs/cursor.js';
import { lakeTarget, openLake, parquetSinks, prepareLake, recoverLakeParts, type LakeStorage } from '../../runs/lake.js';
import { runFleet, type Delivery, type FleetTarget } from '../../runs/fleet.js';
import { pollUnit, streamWindow, type WriteReports } from '../../runs/query.js';
import { describeSelection, type SelectedUnit } from '../../runs/select.js';
import { DirTarget, GroupedTarget, savePolicy, StreamTarget, type Target, type UnitSlot } from '../../runs/targets.js';
import { sayNoneFound } from '../action.js';
import { CSV_COLUMNS, FLEET_TABLE_COLUMNS, flatReport, TABLE_COLUMNS } from './columns.js';
import type { HistoryPlan } from './options.js';
import { openChannel, type HistoryOutput } from './output.js';
import { replyReadings } from './reading.js';
import { sayRecovered } from './recovered.js';

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

export async function runHistory(ctx: Context, plan: HistoryPlan, format: HistoryOutput, out: OutputOptions): Promise<void> {
  checkFleetPlan(plan, format);
  const ext = EXTENSIONS[format] as string;
  const client = async (): Promise<{ retries: number; timeoutMs: number }> => {
    const { retries, timeoutMs } = await ctx.settings();
    return { retries, timeoutMs };
  };
  let storage: LakeStorage | undefined;
  if (plan.outDir !== undefined && plan.layout === 'hive') storage = await prepareLake(plan.outDir, ext, ctx.env, await client());
  else if (plan.outDir !== undefined) await prepareOutDir(plan.outDir);
  const outDir = plan.outDir;
  const openRecorded = outDir === undefined ? undefined : async () => openLake(outDir, ext, ctx.env, await client());
  const history = new HistoryRun(ctx, plan, format, out, storage, openRecorded);
  const single = history.single;
  await runFleet(
    {
      selection: plan.selection,
      shard: plan.shard,
      concurrency: plan.concurrency,
      rounds: plan.follow ? { intervalMs: plan.intervalMs, signals: 'stop', givenUp: 'no longer followed' } : undefined,
      checkpoint: plan.checkpoint === undefined ? undefined : { file: plan.checkpoint, spec: { kind: 'history', window: plan.window, reportTypes: plan.reportTypes } },
      empty: 'say',
      progress: {
        label: single !== undefined ? `downloading history of unit ${single}:` : 'history:',
        count: single === undefined ? 'units' : 'reports',
        quiet: plan.follow || (out.io.stdoutIsTTY && plan.outDir === undefined && plan.outputFile === undefined),
      },
      api: () => ctx.api(), io: ctx.io, env: ctx.env, now: () => ctx.clock.now(), quiet: ctx.globals.quiet,
    },
    history,
  );
  history.sayDone();
}

interface UnitState extends SelectedUnit {
  cursor: Cursor;
  parts: number;
}

/** history's fleet run: each unit's reports into the target (the stream, gpx/kml, --out-dir, the lake). */
class HistoryRun implements FleetTarget<UnitState> {
  private reports = 0;
  private units = 0;
  private startedMs = 0;
  /** The newest last report of the account's units (the service's clock had reached it): see Cursor.commit. */
  private proven: number | undefined;
  private progress: Progress | undefined;
  private origin: HistoryQuery;
  /** One unit named on the command line: its table has no UNIT column and its title is the unit. */
  readonly single: number | undefined;
  private readonly title: string;
  private readonly parquet;
  /** Makes what reads a unit's reply (reading.ts). */
  private newReading!: () => HistoryReading;
  /** What reads the replies (Parquet's cut readers, else the checks), not reading one now: the next unit's reply takes one (it keeps the shape it learnt, and its buffers). */
  private readonly kept: HistoryReading[] = [];
  private checkpoint: RunCheckpoint | undefined;
  private api!: Api;
  private target!: Target;

  constructor(
    private readonly ctx: Context,
    private readonly plan: HistoryPlan,
    private readonly format: HistoryOutput,
    private readonly out: OutputOptions,
    private readonly storage: LakeStorage | undefined,
    /** The lake a killed run's recorded parts are in, when the run has no lake of its own open. */
    private readonly openRecorded: (() => Promise<LakeStorage>) | undefined,
  ) {
    this.origin = this.withTypes(plan.window);
    this.parquet = parquetSinks({ version: ctx.version, compression: plan.compression, window: () => this.origin, now: () => ctx.clock.now() });
    const s = plan.selection;
    this.single = s.kind === 'ids' && s.ids.length === 1 ? s.ids[0] : undefined;
    this.title = this.single !== undefined ? `Unit ${this.single}` : `History of ${describeSelection(s)}`;
  }

  private withTypes(base: HistoryQuery): HistoryQuery {
    return this.plan.reportTypes ? { ...base, reportTypes: this.plan.reportTypes } : base;
  }

  async open(checkpoint: RunCheckpoint | undefined): Promise<Delivery> {
    this.checkpoint = checkpoint;
    if (checkpoint) this.origin = this.withTypes(checkpoint.origin);
    // A run killed while publishing lake parts left them recorded: they go before anything is fetched again.
    if (checkpoint?.pending !== undefined) {
      const recovered = await recoverLakeParts(checkpoint, this.storage, this.openRecorded);
      if (recovered) sayRecovered(this.ctx, recovered);
    }
    this.startedMs = this.ctx.clock.now();
    // The target first: a --output-file that cannot be written fails before any request.
    const target = (this.target = await this.openTarget(this.title));
    this.newReading = await replyReadings(this.format === 'parquet' && this.storage === undefined, checkpoint !== undefined || this.plan.follow);
    // --layout hive: the units whose reports are in the published parts stay saved, as with --out-dir.
    return { save: savePolicy(target, this.plan.follow), unread: target.unread, savedWhenEnded: target.lands === 'run' };
  }

  selected(all: readonly SelectedUnit[]): void {
    for (const u of all) if (u.lastReport !== undefined && !(u.lastReport <= (this.proven ?? 0))) this.proven = u.lastReport;
  }

  unit(unit: SelectedUnit, saved: UnitProgress | undefined): UnitState {
    return { ...unit, cursor: saved?.cursor ?? new Cursor(undefined), parts: saved?.parts ?? 0 };
  }

  async start(units: readonly UnitState[], run: { api: Api; progress: Progress }): Promise<void> {
    this.units = units.length;
    this.api = run.api;
    this.progress = run.progress;
  }

  /** One unit's turn: its next reply (or its window) into the target, committed. */
  async turn(s: UnitState, signal: AbortSignal | undefined): Promise<void> {
    const target = this.target;
    const writer = target.unit(slotOf(s));
    try {
      await this.fetch(this.api, s, (items) => writer.write(items), target.lands === 'stream' && this.plan.follow, signal);
      await writer.commit();
    } catch (err) {
      await writer.discard();
      throw err;
    }
    s.parts = writer.parts;
  }

  progressOf(s: UnitState): UnitProgress {
    return { cursor: s.cursor, parts: s.parts };
  }

  /** Following: a round is saved once the target acknowledged its output. */
  async afterRound(): Promise<void> {
    if (this.plan.follow) await this.target.acknowledge();
  }

  end(): Promise<void> {
    return this.target.end();
  }

  async cleanup(): Promise<void> {
    await this.target?.cleanup();
  }

  /**
   * After a run that ended well. An export at a terminal ends with one line: what was written
   * where, and how long it took (files are not on the screen). Output on the terminal itself,
   * or piped on, needs none.
   */
  sayDone(): void {
    const { ctx, plan } = this;
    if (ctx.globals.quiet || plan.follow) return;
    if (this.reports === 0 && this.single !== undefined) sayNoneFound(ctx, this.out, 'reports');
    if (!ctx.io.stderrIsTTY) return;
    const where = plan.outDir !== undefined
      ? `into ${plural(this.target.files ?? 0, 'file')} in ${plan.outDir}`
      : plan.outputFile !== undefined
        ? `into ${plan.outputFile}`
        : stdoutIsFile() ? 'into the file on stdout' : undefined;
    if (where === undefined) return;
    const seconds = (ctx.clock.now() - this.startedMs) / 1000;
    ctx.io.err(`history: ${plural(this.reports, 'report')} of ${plural(this.units, 'unit')} ${where} (${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s)`);
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
      else this.progress?.text(`history: ${formatCount(this.reports)} reports,`);
    };
    const kept = this.kept.pop() ?? this.newReading();
    const reading = { ...kept, signal };
    try {
      if (this.checkpoint === undefined && !this.plan.follow) {
        await streamWindow(api, s.did, this.origin, counted, reading);
        return;
      }
      await pollUnit(api, s.did, s.cursor, this.origin, this.plan.reportTypes, counted, reading, keepPrinted, this.proven);
      // A large reply (a first window) leaves many keys; one more query from the new cursor
      // brings only the last minutes again, whose keys are then all that need keeping.
      if (s.cursor.seen.size > SETTLE_KEYS) await pollUnit(api, s.did, s.cursor, this.origin, this.plan.reportTypes, counted, reading, keepPrinted, this.proven);
    } finally {
      this.kept.push(kept);
    }
  }

  private async openTarget(title: string): Promise<Target> {
    if (this.storage !== undefined) {
      const { partition, maxFileBytes } = this.plan;
      const ext = EXTENSIONS[this.format] as string;
      return lakeTarget({ storage: this.storage, checkpoint: this.checkpoint, partition, ext, maxFileBytes, nowMs: this.ctx.clock.now(), openSink: (io) => this.openFileSink(io, title) });
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
    // A lake by unit leaves did out of its parts: the folder (did=2004/) is that column, and a
    // reader that found it in both (pyarrow, Spark) would refuse two types or two columns.
    if (this.format === 'parquet') return this.parquet.stream(io.stdout, this.storage !== undefined && this.plan.partition === 'unit' ? ['did'] : undefined);
    return this.openSink({ ...this.out, io, tty: false, color: false }, title);
  }
}

const slotOf = (s: UnitState): UnitSlot => ({ did: s.did, name: s.name, parts: s.parts });

function plural(n: number, what: string): string {
  return `${formatCount(n)} ${what}${n === 1 ? '' : 's'}`;
}

/** stdout redirected into a regular file (`> fleet.ndjson`): an export, as --output-file is. */
function stdoutIsFile(): boolean {
  try {
    return fstatSync(1).isFile();
  } catch {
    return false;
  }
}
