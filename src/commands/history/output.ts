/** Where history goes: stdout or, with --output-file, a file put in place when whole. */
import type { Context } from '../../context.js';
import { localIOError, UsageError } from '../../errors.js';
import { HISTORY_FORMATS, type HistorySink } from '../../io/pages/geo/sink.js';
import type { OutputOptions } from '../../io/formats/output.js';
import { parquetSinks } from '../../runs/lake.js';
import { streamChannel, type Channel } from '../../runs/targets.js';
import type { HistoryPlan } from './options.js';

export const HISTORY_OUTPUTS = [...HISTORY_FORMATS, 'parquet'] as const;
export type HistoryOutput = (typeof HISTORY_OUTPUTS)[number];

/** What a run may not combine; checked before anything is opened or sent. */
export function checkOutput(ctx: Context, plan: HistoryPlan, format: HistoryOutput): void {
  if (plan.outputFile !== undefined) {
    if (plan.follow) throw new UsageError('--output-file is written whole when the run ends; with --follow, redirect stdout instead (>> FILE)');
    if (plan.outDir !== undefined) throw new UsageError('--output-file and --out-dir cannot be used together: --out-dir writes a file per unit');
    if (ctx.globals.raw) throw new UsageError('--raw prints the reply to stdout; redirect it (> FILE) instead of --output-file');
  }
  if (format !== 'parquet') return;
  if (plan.follow) throw new UsageError('-o parquet cannot be used with --follow: a Parquet file is readable only once it is complete');
  if (ctx.globals.raw) throw new UsageError('-o parquet cannot be used with --raw, which prints the reply as the service sent it');
  if (ctx.globals.fields !== undefined) throw new UsageError('-o parquet writes every report property as a column; --fields does not apply (choose columns in the reader)');
  if (plan.outputFile === undefined && plan.outDir === undefined && ctx.io.stdoutIsTTY) {
    throw new UsageError('-o parquet writes a binary file, not to a terminal: redirect stdout (> reports.parquet) or use --output-file FILE');
  }
}

/**
 * Where a run's stream goes: stdout, or with --output-file a temporary file put in place
 * when whole (registered to be removed unless it was), or the device, FIFO or socket it
 * names (output-file.ts). An --output-file that is our own stdout (/dev/stdout) is stdout.
 * Parquet (a binary file) is loaded only when asked for and comes with its own sink.
 */
export async function openChannel(
  ctx: Context, plan: HistoryPlan, format: HistoryOutput, out: OutputOptions,
): Promise<{ out: OutputOptions; channel: Channel; parquet?: HistorySink }> {
  const outputFile = await outputFileOf(plan);
  if (format === 'parquet') {
    const parquet = parquetSinks({ version: ctx.version, compression: plan.compression, window: () => plan.window, now: () => ctx.clock.now() });
    if (outputFile === undefined) return { out, channel: streamChannel(ctx.io.stdout), parquet: await parquet.stream(ctx.io.stdout) };
    const { path } = outputFile;
    const sink = await openFile(path, () => parquet.file(path));
    ctx.onDispose(() => sink.discard());
    // The sink's end() syncs the file and renames it into place.
    return { out, channel: { acknowledge: async () => undefined, finish: async () => undefined }, parquet: sink };
  }
  if (outputFile === undefined) return { out, channel: streamChannel(out.io.stdout) };
  const { path, openOutputFile, ioWithStdout, writeChunk } = outputFile;
  const file = await openFile(path, () => openOutputFile(path));
  ctx.onDispose(() => file.discard());
  return {
    out: { ...out, io: ioWithStdout(out.io, file.stream, `--output-file ${path}`), tty: false, color: false },
    channel: { acknowledge: () => writeChunk(file.stream, ''), finish: () => file.commit().catch((err: unknown) => Promise.reject(localIOError(err, `--output-file ${path}`))) },
  };
}

/** --output-file's path and module, unless there is none or it names our own stdout (/dev/stdout): that is stdout. */
async function outputFileOf(plan: HistoryPlan) {
  const path = plan.outputFile;
  if (path === undefined) return undefined;
  const module = await import('../../io/delivery/output-file.js');
  return module.namesStdout(path) ? undefined : { ...module, path };
}

/** A file that cannot be created is bad input: exit 2, before any request. */
async function openFile<T>(path: string, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (err) {
    throw new UsageError(`cannot write --output-file ${path}: ${(err as Error).message}`, { cause: err });
  }
}
