/**
 * Where the per-row report goes. With an explicit -o (or TRACKCTL_OUTPUT) the
 * records are data and go to stdout in that format; --report FILE gets NDJSON;
 * with neither, NDJSON lines go to stderr (with -q only the rows that did not
 * succeed). A one-line summary follows on stderr unless -q.
 */
import { writeFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { renderList, type Column, type OutputOptions } from '../io/formats/output.js';
import type { ReportRecord } from './engine.js';

export function reportColumns(users: boolean): Column[] {
  return [
    { key: 'row', header: 'ROW', kind: 'number', priority: 2 },
    { key: 'key', header: users ? 'EMAIL' : 'KEY', shrink: true, priority: 2 },
    { key: 'outcome', header: 'OUTCOME', priority: 2 },
    { key: 'id', header: 'ID', kind: 'number', priority: 1 },
    { key: 'groups', header: 'GROUPS', kind: 'list', priority: -1 },
    ...(users ? [{ key: 'viewerGroups', header: 'VIEWER GROUPS', kind: 'list' as const, priority: -1 }] : []),
    { key: 'error', header: 'ERROR', shrink: true },
  ];
}

/** The report file is created (emptied) before anything is sent, so a bad path fails first. */
export async function prepareReportFile(file: string): Promise<void> {
  try {
    await writeFile(file, '', { mode: 0o644 });
  } catch (err) {
    throw new UsageError(`cannot write the report to ${file}: ${(err as Error).message}`);
  }
}

export function ndjsonLines(records: ReportRecord[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

export interface ReportTarget {
  /** --report FILE: every row as NDJSON. */
  file?: string;
  users: boolean;
  /** An explicit -o: the rows are data, on stdout in that format. */
  out?: OutputOptions;
  /** -q: only the rows that did not succeed go to stderr. */
  quiet: boolean;
  /** Writes to stderr. */
  err: (text: string) => void;
}

export async function writeReport(records: ReportRecord[], opts: ReportTarget): Promise<void> {
  if (opts.file !== undefined) await writeFile(opts.file, ndjsonLines(records));
  if (opts.out) {
    await renderList(records.map((r) => ({ ...r })), reportColumns(opts.users), opts.out);
    return;
  }
  if (opts.file !== undefined) return;
  const shown = opts.quiet ? records.filter((r) => !['created', 'skipped', 'would-create'].includes(r.outcome)) : records;
  if (shown.length > 0) opts.err(ndjsonLines(shown));
}

export function summarize(records: ReportRecord[], dryRun: boolean, seconds: number): string {
  const count = new Map<string, number>();
  for (const r of records) count.set(r.outcome, (count.get(r.outcome) ?? 0) + 1);
  const parts = (dryRun ? ['would-create', 'skipped', 'would-fail'] : ['created', 'skipped', 'failed', 'not-attempted'])
    .filter((o, i) => i === 0 || (count.get(o) ?? 0) > 0)
    .map((o) => `${count.get(o) ?? 0} ${o.replace('-', ' ')}`);
  const rate = !dryRun && seconds > 0 && (count.get('created') ?? 0) > 0 ? `, ${Math.round((count.get('created') ?? 0) / seconds)} creates/s` : '';
  return `${dryRun ? 'dry run (nothing was written): ' : ''}${records.length} rows: ${parts.join(', ')} (${seconds.toFixed(1)} s${rate})`;
}
