/** `history` flags → a plan; every check happens here, before anything is sent. */
import type { HistoryQuery } from '../../api/history.js';
import { REPORT_TYPES } from '../../api/types.js';
import { UsageError } from '../../errors.js';
import { parseTime } from '../../io/format-time.js';
import { checkLocalPath } from '../../io/location.js';
import { parseSelection, type UnitSelection } from '../../runs/selection.js';
import { DEFAULT_CONCURRENCY } from '../../validate.js';
import { COMPRESSIONS, DEFAULT_COMPRESSION, DEFAULT_MAX_FILE_BYTES, outDirScheme, type Compression } from '../../runs/lake.js';
import { parseShard, type Shard } from '../../runs/shard.js';

export interface HistoryOptions {
  from?: string;
  to?: string;
  receivedAfter?: string;
  types?: string[];
  all?: boolean;
  follow?: boolean;
  /** Seconds. */
  interval?: number;
  checkpoint?: string;
  group?: number;
  category?: string;
  allUnits?: boolean;
  concurrency?: number;
  outDir?: string;
  partition?: string;
  outputFile?: string;
  layout?: string;
  compression?: string;
  /** Bytes. */
  maxFileSize?: number;
  shard?: string;
}

export const LAYOUTS = ['files', 'hive'] as const;
export type Layout = (typeof LAYOUTS)[number];

export const PARTITIONS = ['unit', 'day'] as const;
export type Partition = (typeof PARTITIONS)[number];

export interface HistoryPlan {
  selection: UnitSelection;
  /** The one unit of a single-id run (today's path: one request, the single-unit checkpoint). */
  id: number;
  /** Many units (or --out-dir): the fleet path, a pool of requests and one checkpoint for all. */
  fleet: boolean;
  concurrency: number;
  outDir: string | undefined;
  partition: Partition;
  /** The first (or only) query: the window asked for, or the last 24 hours. */
  window: HistoryQuery;
  reportTypes: string[] | undefined;
  follow: boolean;
  intervalMs: number;
  checkpoint: string | undefined;
  /** --output-file: the data goes to this file, put in place when whole, instead of stdout. */
  outputFile: string | undefined;
  /** --out-dir's layout: files per unit (people) or Hive partitions of fleet-wide files (engines). */
  layout: Layout;
  compression: Compression;
  /** --compression was given (it needs -o parquet, known only once the format is). */
  compressionGiven: boolean;
  maxFileBytes: number;
  shard: Shard | undefined;
  /** The invocation's zone: --partition day files are its days. */
  zone: string;
}

export const DEFAULT_WINDOW_S = 24 * 3600;
export const DEFAULT_INTERVAL_S = 30;

/** --types a,b --types c → the types, each checked against the interface's list. */
export function parseReportTypes(values: string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const types: string[] = [];
  for (const part of values.flatMap((v) => v.split(','))) {
    const t = part.trim();
    if (t === '') throw new UsageError(`invalid --types "${values.join(',')}": empty entry`);
    if (!(REPORT_TYPES as readonly string[]).includes(t)) {
      throw new UsageError(`unknown report type "${t}"; valid types: ${REPORT_TYPES.join(', ')}`);
    }
    if (!types.includes(t)) types.push(t);
  }
  return types;
}

function timeFlag(value: string | undefined, flag: string, nowMs: number, zone: string): number | undefined {
  if (value === undefined) return undefined;
  let seconds: number;
  try {
    seconds = parseTime(value, nowMs, { zone });
  } catch (err) {
    throw new UsageError(`invalid ${flag}: ${(err as Error).message}`);
  }
  if (seconds < 0) throw new UsageError(`invalid ${flag} "${value}": before 1970`);
  return Math.floor(seconds); // the service takes whole seconds
}

function lakeFlags(opts: HistoryOptions): { layout: Layout; compression: Compression; maxFileBytes: number } {
  const layout = (opts.layout ?? 'files').trim().toLowerCase();
  if (!(LAYOUTS as readonly string[]).includes(layout)) throw new UsageError(`invalid --layout "${opts.layout}": use files or hive`);
  if (opts.layout !== undefined && opts.outDir === undefined) throw new UsageError('--layout needs --out-dir');
  if (opts.maxFileSize !== undefined && layout !== 'hive') throw new UsageError('--max-file-size needs --layout hive (the default layout writes one file per unit)');
  const compression = (opts.compression ?? DEFAULT_COMPRESSION).trim().toLowerCase();
  if (!(COMPRESSIONS as readonly string[]).includes(compression)) throw new UsageError(`invalid --compression "${opts.compression}": use ${COMPRESSIONS.join(', ')}`);
  if (opts.outDir !== undefined && outDirScheme(opts.outDir) === 's3' && layout !== 'hive') {
    throw new UsageError(`--out-dir ${opts.outDir} needs --layout hive (object storage holds the lake layout)`);
  }
  const maxFileBytes = opts.maxFileSize ?? DEFAULT_MAX_FILE_BYTES;
  return { layout: layout as Layout, compression: compression as Compression, maxFileBytes };
}

/** `zone` is the invocation's zone (ctx.timeZone(), validated): times typed without an offset are read in it. */
export function parsePlan(args: string[], opts: HistoryOptions, nowMs: number, zone: string, env: Readonly<Record<string, string | undefined>> = {}): HistoryPlan {
  const selection = parseSelection(args, opts);
  const concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
  if (opts.partition !== undefined && opts.outDir === undefined) throw new UsageError('--partition needs --out-dir');
  const lake = lakeFlags(opts);
  const shard = parseShard(opts.shard, env);
  // The lake's files hold days by default; the per-unit files of the default layout, units.
  const partition = (opts.partition ?? (lake.layout === 'hive' ? 'day' : 'unit')).trim().toLowerCase();
  if (!(PARTITIONS as readonly string[]).includes(partition)) throw new UsageError(`invalid --partition "${opts.partition}": use unit or day`);
  if (opts.outDir !== undefined && opts.outDir.trim() === '') throw new UsageError('invalid --out-dir: empty directory name');
  if (opts.outDir !== undefined && opts.follow) throw new UsageError('--out-dir cannot be used with --follow: a file is written when whole');
  const single = selection.kind === 'ids' && selection.ids.length === 1 ? selection.ids[0] : undefined;
  const fleet = single === undefined || opts.outDir !== undefined || shard !== undefined;
  const from = timeFlag(opts.from, '--from', nowMs, zone);
  const to = timeFlag(opts.to, '--to', nowMs, zone);
  const receivedAfter = timeFlag(opts.receivedAfter, '--received-after', nowMs, zone);
  const reportTypes = parseReportTypes(opts.types);
  if (to !== undefined && from === undefined) throw new UsageError('--to needs --from (the service takes to: only with from:)');
  if (from !== undefined && to !== undefined && from > to) {
    throw new UsageError(`--from (${new Date(from * 1000).toISOString()}) is after --to (${new Date(to * 1000).toISOString()})`);
  }
  if (opts.all && (from !== undefined || receivedAfter !== undefined)) {
    throw new UsageError('--all cannot be used with --from, --to or --received-after');
  }
  if (to !== undefined && (opts.follow || opts.checkpoint !== undefined)) {
    throw new UsageError(`--to cannot be used with ${opts.follow ? '--follow' : '--checkpoint'}: they deliver reports as they arrive`);
  }
  if (opts.interval !== undefined && !opts.follow) throw new UsageError('--interval needs --follow');
  const intervalS = opts.interval ?? DEFAULT_INTERVAL_S;
  if (opts.checkpoint !== undefined && opts.checkpoint.trim() === '') throw new UsageError('invalid --checkpoint: empty file name');
  if (opts.outputFile !== undefined && opts.outputFile.trim() === '') throw new UsageError('invalid --output-file: empty file name');
  if (opts.outDir !== undefined && outDirScheme(opts.outDir) === 'local') checkLocalPath(opts.outDir, '--out-dir', 'directory');
  if (opts.checkpoint !== undefined) checkLocalPath(opts.checkpoint, '--checkpoint', 'file');
  if (opts.outputFile !== undefined) checkLocalPath(opts.outputFile, '--output-file', 'file');

  const window: HistoryQuery = {};
  if (from !== undefined) window.from = from;
  else if (receivedAfter === undefined && !opts.all) window.from = Math.floor(nowMs / 1000) - DEFAULT_WINDOW_S;
  if (to !== undefined) window.to = to;
  if (receivedAfter !== undefined) window.lastQueryTime = receivedAfter;
  if (reportTypes) window.reportTypes = reportTypes;
  return {
    selection,
    id: single ?? 0,
    fleet,
    concurrency,
    outDir: opts.outDir,
    partition: partition as Partition,
    window,
    reportTypes,
    follow: opts.follow === true,
    intervalMs: intervalS * 1000,
    checkpoint: opts.checkpoint,
    outputFile: opts.outputFile,
    ...lake,
    compressionGiven: opts.compression !== undefined,
    shard,
    zone,
  };
}
