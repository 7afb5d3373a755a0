/**
 * Bulk operations (delete of several ids): every item is tried, each outcome
 * is reported, and the exit code says whether some failed (7). A single item
 * keeps its own error's exit code (e.g. 4 for not found). Several items on a
 * terminal show a progress line (count, failures, rate) on stderr once the work
 * lasts long enough to notice; the per-item lines scroll above it.
 */
import { InterruptedError, PartialFailure, TrackctlError } from '../errors.js';
import type { Context } from '../context.js';
import { renderList, type Column } from '../io/output.js';
import { startProgress } from '../io/progress.js';

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
  let firstError: unknown;
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
        firstError ??= err;
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
  const failed = outcomes.filter((o) => !o.ok).length;
  if (interrupted) {
    throw new InterruptedError(`interrupted: ${outcomes.length - failed} of ${ids.length} done${failed ? `, ${failed} failed` : ''}; the rest were not tried`);
  }
  if (failed === 0) return;
  if (ids.length === 1) throw firstError;
  throw new PartialFailure(failed, ids.length, `${failed} of ${ids.length} failed`);
}
