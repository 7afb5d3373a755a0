/**
 * Runs the creates of an import through a promise pool over the one API client.
 *
 * A create whose outcome is unknown (connection lost after sending, timeout, a
 * 5xx that may have been applied, a 2xx body that could not be read) is
 * RECONCILED: the natural key is looked up before any retry, so a fault never
 * makes a duplicate. The HTTP layer never retries such a POST itself (by design);
 * this is where that is handled. 409 means the key exists: ours when an earlier
 * attempt was uncertain, otherwise skipped (--skip-existing) or failed.
 */
import { ApiError, AuthError, NetworkError, TrackctlError } from '../errors.js';
import type { ImportRow } from './schema.js';
import type { Existing, GroupRole, ImportTarget } from './targets.js';
import { runPool } from '../pool.js';
import { isTransient, retry, type Timer } from '../retry.js';

export type Outcome = 'created' | 'skipped' | 'failed' | 'would-create' | 'would-fail' | 'not-attempted';

export interface ReportRecord {
  /** The line the row starts on. */
  row: number;
  /** In a JSON array, the element's number (rows that start on one line differ by it). */
  item?: number;
  key: string;
  outcome: Outcome;
  id?: number;
  /** Groups added (or, in a dry run, that would be added). */
  groups?: number[];
  viewerGroups?: number[];
  error?: string;
}

export interface EngineOptions {
  concurrency: number;
  dryRun: boolean;
  skipExisting: boolean;
  continueOnError: boolean;
  /** Attempts per request that fails transiently (default 5). */
  attempts?: number;
  timer?: Timer;
  onDone?: (rec: ReportRecord) => void;
}

export interface EngineResult {
  records: ReportRecord[];
  /** An error that stopped the whole import (credentials rejected). */
  fatal?: TrackctlError;
}

/** May the request have been applied without us knowing? (Also true when it surely was not: a lookup settles it.) */
function uncertain(err: unknown): boolean {
  if (err instanceof NetworkError) return true;
  return err instanceof ApiError && (err.status >= 500 || (err.status >= 200 && err.status < 300));
}

const isConflict = (err: unknown): boolean => err instanceof ApiError && err.status === 409;
const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));
/** The service's words without our 'POST /v2/devices/ failed (409): ' prefix. */
const serviceMessage = (err: unknown): string => message(err).replace(/^[A-Z]+ \S+ failed \((\d+)\): /, '($1) ');

export async function runImport<B>(rows: ImportRow<B>[], target: ImportTarget<B>, existing: Map<string, Existing> | undefined, opts: EngineOptions): Promise<EngineResult> {
  const limits = { retries: (opts.attempts ?? 5) - 1, ...(opts.timer ? { timer: opts.timer } : {}) };
  let fatal: TrackctlError | undefined;

  /** An idempotent request, retried on transient failures (a 2xx whose body could not be read, too). */
  const idempotent = <T>(op: () => Promise<T>): Promise<T> => retry(op, { ...limits, retryError: (err) => uncertain(err) || isTransient(err) });

  /**
   * Creates the record, or finds it. `created` is false when it existed before this import.
   * Only the create's own failure is tried again: a 429 (it was not applied), or an outcome
   * unknown that the lookup settled as not applied.
   */
  async function createOrFind(row: ImportRow<B>): Promise<{ rec: Existing; created: boolean }> {
    let wasUncertain = false;
    let again: unknown;
    const attempt = async (): Promise<{ rec: Existing; created: boolean }> => {
      try {
        return { rec: await target.create(row.body), created: true };
      } catch (err) {
        if (isConflict(err)) {
          if (!wasUncertain && !opts.skipExisting) throw new TrackctlError(`already exists ${serviceMessage(err)}; --skip-existing skips existing records`);
          const found = await idempotent(() => target.lookup(row.match));
          if (found) return { rec: found, created: wasUncertain };
          throw err;
        }
        if (err instanceof ApiError && err.status === 429) {
          again = err;
          throw err;
        }
        if (!uncertain(err)) throw err;
        wasUncertain = true;
        let found: Existing | undefined;
        try {
          found = await idempotent(() => target.lookup(row.match));
        } catch (lookupErr) {
          throw new TrackctlError(`outcome unknown (${message(err)}); the lookup failed too (${message(lookupErr)}): re-run with --skip-existing`);
        }
        if (found) return { rec: found, created: true };
        again = err;
        throw err;
      }
    };
    return retry(attempt, { ...limits, retryError: (err) => err === again });
  }

  async function applyGroups(rec: Existing, row: ImportRow<B>, out: ReportRecord): Promise<void> {
    const plan: Array<[GroupRole, number[]]> = [
      ['member', row.groups.filter((g) => !rec.groups.includes(g))],
      ['viewer', row.viewerGroups.filter((g) => !rec.viewerGroups.includes(g))],
    ];
    for (const [role, gids] of plan) {
      if (gids.length === 0) continue;
      if (!opts.dryRun) await idempotent(() => target.addGroups(rec.id, gids, role));
      if (role === 'member') out.groups = gids;
      else out.viewerGroups = gids;
    }
  }

  async function importRow(row: ImportRow<B>): Promise<ReportRecord> {
    const out: ReportRecord = { ...rowOf(row), key: row.key, outcome: 'failed' };
    const found = existing?.get(row.match);
    try {
      if (found && !opts.skipExisting) {
        out.id = found.id;
        out.outcome = opts.dryRun ? 'would-fail' : 'failed';
        out.error = `already exists as ${target.idName} ${found.id}; --skip-existing skips existing records`;
        return out;
      }
      if (found) {
        out.id = found.id;
        out.outcome = 'skipped';
        await applyGroups(found, row, out);
        return out;
      }
      if (opts.dryRun) {
        out.outcome = 'would-create';
        if (row.groups.length > 0) out.groups = row.groups;
        if (row.viewerGroups.length > 0) out.viewerGroups = row.viewerGroups;
        return out;
      }
      const { rec, created } = await createOrFind(row);
      out.id = rec.id;
      out.outcome = created ? 'created' : 'skipped';
      await applyGroups(rec, row, out);
      return out;
    } catch (err) {
      if (err instanceof AuthError) fatal ??= err;
      else if (!(err instanceof TrackctlError)) throw err;
      out.outcome = 'failed';
      out.error = out.id === undefined ? message(err) : `${target.idName} ${out.id}: adding groups failed: ${message(err)}`;
      return out;
    }
  }

  const records: ReportRecord[] = new Array<ReportRecord>(rows.length);
  let stop = false;
  await runPool(rows, opts.concurrency, async (row, i) => {
    const rec = stop ? { ...rowOf(row), key: row.key, outcome: 'not-attempted' as const } : await importRow(row);
    records[i] = rec;
    opts.onDone?.(rec);
    if (fatal || (rec.outcome === 'failed' && !opts.continueOnError)) stop = true;
  });
  return fatal ? { records, fatal } : { records };
}

/** Where a row is, as the report says it: its line, and its item in a JSON array. */
function rowOf(row: { line: number; item?: number }): Pick<ReportRecord, 'row' | 'item'> {
  return row.item === undefined ? { row: row.line } : { row: row.line, item: row.item };
}
