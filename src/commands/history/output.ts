/**
 * Where history goes: the chosen format's sink, on stdout or, with --output-file, in a
 * file put in place when whole. Parquet (a binary file) is loaded only when asked for.
 */
import type { Context } from '../../context.js';
import { localIOError, UsageError } from '../../errors.js';
import { HISTORY_FORMATS, openHistorySink, type HistorySink, type SinkOptions } from '../../io/geo/sink.js';
import type { OutputOptions } from '../../io/output.js';
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

/** The sink of a run: registered to be discarded (its temporary file removed) unless it ended whole. */
export async function openOutput(
  ctx: Context, plan: HistoryPlan, format: HistoryOutput, out: OutputOptions, opts: Omit<SinkOptions, 'format' | 'out'>,
): Promise<HistorySink> {
  const path = plan.outputFile;
  if (format === 'parquet') {
    const { openParquetFile, openParquetStream } = await import('../../io/parquet/index.js');
    const createdBy = `trackctl ${ctx.version}`;
    if (path === undefined) return openParquetStream(ctx.io.stdout, { createdBy });
    const sink = await openFile(path, () => openParquetFile(path, { createdBy }));
    ctx.onDispose(() => sink.discard());
    return sink;
  }
  if (path === undefined) return openHistorySink({ ...opts, format, out });
  const { openOutputFile, ioWithStdout } = await import('../../io/output-file.js');
  const file = await openFile(path, () => openOutputFile(path));
  ctx.onDispose(() => file.discard());
  const sink = openHistorySink({ ...opts, format, out: { ...out, io: ioWithStdout(out.io, file.stream, `--output-file ${path}`), tty: false, color: false } });
  return {
    get count() {
      return sink.count;
    },
    write: (items) => sink.write(items),
    flush: () => sink.flush(),
    async end() {
      await sink.end();
      await file.commit().catch((err: unknown) => Promise.reject(localIOError(err, `--output-file ${path}`)));
    },
  };
}

/** A file that cannot be created is bad input: exit 2, before any request. */
async function openFile<T>(path: string, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (err) {
    throw new UsageError(`cannot write --output-file ${path}: ${(err as Error).message}`, { cause: err });
  }
}
