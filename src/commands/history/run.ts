/** `trackctl history`: validate, then stream one window, follow, or continue from a checkpoint. */
import type { Api } from '../../api/client.js';
import { withFileLock } from '../../auth/lock.js';
import type { Context } from '../../context.js';
import { ApiError, NetworkError, UsageError } from '../../errors.js';
import type { HistorySink } from '../../io/geo/sink.js';
import { countBatches, startProgress } from '../../io/progress.js';
import type { Run } from '../action.js';
import { loadCheckpoint, saveCheckpoint, type CheckpointScope } from './checkpoint.js';
import { CSV_COLUMNS, flatReport, TABLE_COLUMNS } from './columns.js';
import { Cursor, Poll } from './cursor.js';
import { isFleetCheckpoint } from './fleet-checkpoint.js';
import { pause, watchInterrupts, type Interrupts } from './follow.js';
import { parsePlan, type HistoryOptions, type HistoryPlan } from './options.js';
import { checkOutput, HISTORY_OUTPUTS, openOutput } from './output.js';
import { streamQuery, streamRaw } from './query.js';

/** Consecutive failed polls --follow rides out (with a warning) before it gives up. */
const MAX_FAILED_POLLS = 5;

export const run: Run<HistoryOptions> = async (args, opts, ctx) => {
  try {
    await runHistory(args, opts, ctx);
  } catch (err) {
    // `trackctl history … | head`: the reader left; end quietly (a checkpoint was not saved).
    if ((err as NodeJS.ErrnoException).code === 'EPIPE') return;
    throw err;
  }
};

const runHistory: Run<HistoryOptions> = async (args, opts, ctx) => {
  const plan = parsePlan(args, opts, ctx.clock.now(), ctx.env);
  const { format, out } = await ctx.outputAs(HISTORY_OUTPUTS);
  if (plan.compressionGiven && format !== 'parquet') throw new UsageError('--compression sets the codec of -o parquet');
  checkOutput(ctx, plan, format);
  if (format === 'html' && plan.follow) throw new UsageError('-o html draws a finished history; it cannot be used with --follow');
  if (plan.fleet || (plan.checkpoint !== undefined && (await isFleetCheckpoint(plan.checkpoint)))) {
    if (plan.outputFile !== undefined) throw new UsageError('--output-file writes the history of one unit; for several, use --out-dir or redirect stdout');
    const { runFleet } = await import('./fleet.js');
    return runFleet(ctx, plan, format, out);
  }
  if (ctx.globals.raw && (plan.follow || plan.checkpoint !== undefined)) {
    throw new UsageError('--raw prints one reply as sent; it cannot be used with --follow or --checkpoint');
  }
  const columns = format === 'csv' ? CSV_COLUMNS : TABLE_COLUMNS;
  // A download to a file or pipe shows its count and rate on a terminal's stderr (on stdout the rows are the progress).
  const progress = startProgress(ctx.io, { label: `downloading history of unit ${plan.id}:`, unit: 'reports', quiet: ctx.globals.quiet || plan.follow || (ctx.io.stdoutIsTTY && plan.outputFile === undefined), env: ctx.env });
  ctx.onDispose(() => progress.stop());
  const sink = countBatches(await openOutput(ctx, plan, format, out, { title: `Unit ${plan.id}`, columns, flat: flatReport }), progress);
  const scope: CheckpointScope = { unit: plan.id, reportTypes: plan.reportTypes };
  const file = plan.checkpoint;
  if (file !== undefined) {
    await withFileLock(`${file}.lock`, async () => {
      const cursor = (await loadCheckpoint(file, scope)) ?? new Cursor(undefined);
      const save = (): Promise<void> => saveCheckpoint(file, scope, cursor, ctx.clock.now());
      await deliver(ctx, await ctx.api(), plan, sink, cursor, save);
    }, { timeoutMs: 10_000 });
  } else if (plan.follow) {
    await deliver(ctx, await ctx.api(), plan, sink, new Cursor(undefined), async () => undefined);
  } else if (ctx.globals.raw) {
    await streamRaw(await ctx.api(), plan.id, plan.window, ctx.io);
  } else {
    await streamQuery(await ctx.api(), plan.id, plan.window, sink);
    await sink.end();
  }
  progress.stop();
  if (sink.count === 0 && out.tty && !ctx.globals.quiet && !plan.follow) ctx.io.err('No reports found.');
};

/** Reads one reply through the cursor; on success the cursor moves on, on failure it keeps what was printed. */
async function poll(api: Api, plan: HistoryPlan, sink: HistorySink, cursor: Cursor, signal?: AbortSignal): Promise<void> {
  const query = cursor.next(plan.window, plan.reportTypes);
  const current = new Poll();
  try {
    const serverTime = await streamQuery(api, plan.id, query, sink, { poll: current, seen: cursor.seen }, signal);
    cursor.commit(current, query, serverTime);
  } catch (err) {
    cursor.salvage(current);
    throw err;
  }
}

/** --checkpoint and --follow: the first reply, then (following) one poll per interval until Ctrl-C. */
async function deliver(ctx: Context, api: Api, plan: HistoryPlan, sink: HistorySink, cursor: Cursor, save: () => Promise<void>): Promise<void> {
  if (!plan.follow) {
    await poll(api, plan, sink, cursor);
    await sink.end(); // everything is out before the checkpoint moves
    await save();
    return;
  }
  const interrupts = watchInterrupts((message) => {
    if (!ctx.globals.quiet) ctx.io.err(message);
  });
  try {
    await poll(api, plan, sink, cursor, interrupts.abort);
    await sink.flush();
    await save();
    await followLoop(ctx, api, plan, sink, cursor, save, interrupts);
    await sink.end();
  } finally {
    interrupts.dispose();
  }
}

async function followLoop(
  ctx: Context, api: Api, plan: HistoryPlan, sink: HistorySink, cursor: Cursor, save: () => Promise<void>, interrupts: Interrupts,
): Promise<void> {
  let failures = 0;
  for (;;) {
    await pause(plan.intervalMs, interrupts.stop);
    if (interrupts.stop.aborted) return;
    try {
      await poll(api, plan, sink, cursor, interrupts.abort);
      failures = 0;
    } catch (err) {
      if (interrupts.abort.aborted) throw interrupts.abort.reason;
      const transient = err instanceof NetworkError || (err instanceof ApiError && (err.status >= 500 || err.status === 429 || err.status < 300));
      if (!transient || ++failures >= MAX_FAILED_POLLS) throw err;
      ctx.io.err(`warning: ${(err as Error).message}; trying again in ${plan.intervalMs / 1000} s`);
      continue;
    }
    await sink.flush();
    await save();
  }
}
