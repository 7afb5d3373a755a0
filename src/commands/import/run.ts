/**
 * `devices|sensors|users import <file|->`: read, validate every row (exit 2 listing
 * all bad rows, nothing sent), check group ids, optionally fetch what exists, then
 * create through a pool with reconciliation, and report each row.
 */
import { checkLocalPath } from '../../io/location.js';
import { AuthError, PartialFailure, UsageError } from '../../errors.js';
import type { Context } from '../../context.js';
import type { Api } from '../../api/client.js';
import { startProgress } from '../../io/terminal/progress.js';
import type { Run } from '../action.js';
import { formatFromName, parseFormatOption, parseSource, readSource, sniffFormat, rowLabel, type Issue } from '../../import/source.js';
import { validateRows, type ImportKind, type ImportRow, type Validated } from '../../import/schema.js';
import { runImport, type ReportRecord } from '../../import/engine.js';
import { unitTarget, unknownGroups, userTarget, type ImportTarget } from '../../import/targets.js';
import { prepareReportFile, summarize, writeReport } from '../../import/report.js';

export interface ImportOptions {
  format?: string;
  concurrency: number;
  dryRun?: boolean;
  skipExisting?: boolean;
  report?: string;
  continueOnError?: boolean;
}

const MAX_LISTED = 200;


function invalid(where: string, issues: Issue[]): UsageError {
  const lines = issues.slice(0, MAX_LISTED).map((i) => `  ${rowLabel(i)}: ${i.message}`);
  if (issues.length > MAX_LISTED) lines.push(`  … and ${issues.length - MAX_LISTED} more`);
  const rows = new Set(issues.map(rowLabel)).size;
  return new UsageError(`${where}: ${rows} invalid row${rows === 1 ? '' : 's'}; nothing was sent:\n${lines.join('\n')}`);
}

/** Group ids the account does not have are input errors too: checked with one read, before any write. */
async function checkGroups<B>(api: Api, rows: ImportRow<B>[], where: string): Promise<void> {
  const wanted = new Set(rows.flatMap((r) => [...r.groups, ...r.viewerGroups]));
  if (wanted.size === 0) return;
  const unknown = await unknownGroups(api, wanted);
  if (unknown.size === 0) return;
  const issues: Issue[] = [];
  for (const r of rows) {
    for (const [field, gids] of [['groups', r.groups], ['viewer-groups', r.viewerGroups]] as const) {
      const bad = gids.filter((g) => unknown.has(g));
      if (bad.length > 0) issues.push({ line: r.line, item: r.item, message: `${field}: no group ${bad.join(', ')} in this account` });
    }
  }
  throw invalid(where, issues);
}

async function execute<B>(ctx: Context, rows: ImportRow<B>[], target: ImportTarget<B>, kind: ImportKind, opts: ImportOptions, concurrency: number): Promise<{ records: ReportRecord[]; fatal?: AuthError | undefined }> {
  const dryRun = opts.dryRun ?? false;
  const skipExisting = opts.skipExisting ?? false;
  const existing = dryRun || skipExisting ? await target.listExisting() : undefined;
  const progress = startProgress(ctx.io, { label: `${dryRun ? 'checking' : 'importing'} ${kind}`, total: rows.length, quiet: ctx.globals.quiet });
  try {
    const result = await runImport(rows, target, existing, {
      concurrency,
      dryRun,
      skipExisting,
      continueOnError: opts.continueOnError ?? false,
      onDone: (rec) => progress.tick(rec.outcome !== 'failed' && rec.outcome !== 'would-fail'),
    });
    return { records: result.records, fatal: result.fatal instanceof AuthError ? result.fatal : undefined };
  } finally {
    progress.stop();
  }
}

/** Nothing is sent (not even a read) unless every row is valid. */
async function validateAndRun<B>(
  ctx: Context,
  validated: Validated<B>,
  makeTarget: (api: Api) => ImportTarget<B>,
  kind: ImportKind,
  opts: ImportOptions,
  where: string,
): Promise<{ records: ReportRecord[]; fatal?: AuthError | undefined }> {
  const concurrency = opts.concurrency;
  if (validated.issues.length > 0) throw invalid(where, validated.issues);
  if (opts.report !== undefined) checkLocalPath(opts.report, '--report', 'file');
  if (opts.report !== undefined) await prepareReportFile(opts.report);
  const api = await ctx.api();
  await checkGroups(api, validated.rows, where);
  return execute(ctx, validated.rows, makeTarget(api), kind, opts, concurrency);
}

export function runFor(kind: ImportKind): { run: Run<ImportOptions> } {
  return {
    run: async (args, opts, ctx) => {
      const file = args[0] ?? '-';
      const where = file === '-' ? 'stdin' : file;
      const given = parseFormatOption(opts.format);
      const requested = ctx.globals.output ?? ctx.env.TRACKCTL_OUTPUT;
      const out = requested !== undefined && requested !== '' ? await ctx.output() : undefined;
      const text = await readSource(file, ctx.io.stdin, ctx.io.stdinIsTTY);
      const format = given ?? (file === '-' ? undefined : formatFromName(file)) ?? sniffFormat(text);
      const source = parseSource(text, format);
      if (source.issues.length === 0 && source.rows.length === 0) {
        throw new UsageError(`${where}: no rows to import${text.trim() === '' ? ' (the input is empty)' : ''}`);
      }
      const started = ctx.clock.now();
      const result =
        kind === 'users'
          ? await validateAndRun(ctx, validateRows(kind, source), (api) => userTarget(api), kind, opts, where)
          : await validateAndRun(ctx, validateRows(kind, source), (api) => unitTarget(api, kind), kind, opts, where);

      const { records } = result;
      await writeReport(records, { file: opts.report, users: kind === 'users', out, quiet: ctx.globals.quiet ?? false, err: (t) => ctx.io.err(t) });
      if (!ctx.globals.quiet) ctx.io.err(summarize(records, opts.dryRun ?? false, (ctx.clock.now() - started) / 1000));
      if (result.fatal) throw result.fatal;
      const bad = records.filter((r) => r.outcome === 'failed' || r.outcome === 'would-fail' || r.outcome === 'not-attempted');
      if (bad.length > 0) {
        const failed = records.filter((r) => r.outcome === 'failed' || r.outcome === 'would-fail').length;
        const skipped = bad.length - failed;
        throw new PartialFailure(bad.length, records.length, `${failed} of ${records.length} rows ${opts.dryRun ? 'would fail' : 'failed'}${skipped ? `, ${skipped} not attempted (stopped at the first failure; --continue-on-error tries every row)` : ''}; see the report`);
      }
    },
  };
}
