/**
 * Bulk operations (delete of several ids): every item is tried, each outcome is
 * reported once, and the run ends by the one exit rule of multi-unit commands
 * (runs/outcome.ts): every item failed alike, that failure's code (4 when none was
 * found); some failed, 7. Several items on a terminal show a progress line (count,
 * failures, rate) on stderr once the work lasts long enough to notice; the per-item
 * lines scroll above it.
 */
import { InterruptedError, TrackctlError } from '../errors.js';
import type { Context } from '../context.js';
import { renderList, type Column } from '../io/formats/output.js';
import { startProgress } from '../io/terminal/progress.js';
import { runOutcome, type Failure } from '../runs/outcome.js';

export interface BulkOutcome {
  id: string | number;
  ok: boolean;
  error?: string;
}

const COLUMNS: Column[] = [
  { key: 'id', header: 'ID', priority: 1 },
  { key: 'ok', header: 'OK', kind: 'bool', priority: 1 },
  { key: 'error', header: 'ERROR', shrink: true },
];

export async function runBulk<T extends string | number>(
  ctx: Context,
  ids: T[],
  describe: (id: T) => string,
  act: (id: T) => Promise<void>,
  label?: string,
): Promise<void> {
  const outcomes: BulkOutcome[] = [];
  const failures: Failure[] = [];
  // "delete device 2004" → "delete devices" when the caller names no label.
  const first = ids[0];
  const title = label ?? (first === undefined ? 'working' : `${describe(first).replace(/\s+\S+$/, '')}s`);
  const progress = ids.length > 1 ? startProgress(ctx.io, { label: title, total: ids.length, quiet: ctx.globals.quiet, env: ctx.env }) : undefined;
  // Ctrl-C stops after the item in flight (what was done is reported, exit 130); a second one quits at once.
  let interrupted = false;
  const onSignal = (): void => {
    if (interrupted) {
      process.off('SIGINT', onSignal);
      process.kill(process.pid, 'SIGINT');
      return;
    }
    interrupted = true;
    ctx.io.err('Stopping after the item in flight (Ctrl-C again to quit at once)…');
  };
  if (ids.length > 1) process.on('SIGINT', onSignal);
  try {
    for (const id of ids) {
      if (interrupted) break;
      try {
        await act(id);
        outcomes.push({ id, ok: true });
        progress?.tick(true);
        if (!ctx.globals.quiet) ctx.io.err(`✓ ${describe(id)}`);
      } catch (err) {
        if (!(err instanceof TrackctlError)) throw err;
        failures.push({ id, error: err });
        outcomes.push({ id, ok: false, error: err.message });
        progress?.tick(false);
        ctx.io.err(`✗ ${describe(id)}: ${err.message}`);
      }
    }
  } finally {
    process.off('SIGINT', onSignal);
    progress?.stop();
  }
  // Machine formats get the per-item report on stdout; people read the lines above.
  const requested = ctx.globals.output ?? ctx.env.TRACKCTL_OUTPUT;
  if (requested && requested !== 'table') await renderList(outcomes.map((o) => ({ ...o })), COLUMNS, await ctx.output());
  const failed = failures.length;
  if (interrupted) {
    throw new InterruptedError(`interrupted: ${outcomes.length - failed} of ${ids.length} done${failed ? `, ${failed} failed` : ''}; the rest were not tried`);
  }
  const failure = runOutcome(ids.length, failures, 'items');
  if (failure !== undefined) throw failure;
}
