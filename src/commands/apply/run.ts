/**
 * apply: validate the file (exit 2, nothing sent) → read the live state → check
 * references (exit 2, nothing written) → plan → print → (unless --dry-run) execute
 * phase by phase → report; any failed or skipped step is exit 7.
 */
import { PartialFailure } from '../../errors.js';
import { renderList } from '../../io/formats/output.js';
import { confirmOrFail } from '../../io/terminal/prompt.js';
import { executePlan } from '../../fleet/execute.js';
import { LiveIndex, readLive } from '../../fleet/live.js';
import { loadFleet, problemsError } from '../../fleet/load.js';
import { buildPlan } from '../../fleet/plan.js';
import { checkReferences } from '../../fleet/refs.js';
import { PLAN_COLUMNS, RESULT_COLUMNS, RESULT_FIELDS, resultLine, resultRows, summaryLine } from '../../fleet/render.js';
import type { Run } from '../action.js';

interface ApplyOptions {
  file: string;
  dryRun?: boolean;
  prune?: boolean;
  concurrency: number;
}


export const run: Run<ApplyOptions> = async (_args, opts, ctx) => {
  const concurrency = opts.concurrency;
  const out = await ctx.output({ fields: RESULT_FIELDS });
  const people = out.format === 'table';
  const prune = opts.prune === true;
  const fleet = await loadFleet(opts.file, ctx.io.stdin);
  const label = opts.file === '-' ? '(stdin)' : opts.file;

  const api = await ctx.api();
  const index = new LiveIndex(await readLive(api, { self: prune && fleet.users !== undefined }));
  const problems = checkReferences(fleet, index, prune);
  if (problems.length > 0) throw problemsError(label, problems);
  const plan = buildPlan(fleet, index, { prune, nowS: Math.floor(ctx.clock.now() / 1000) });
  const say = (line: string): void => {
    if (!ctx.globals.quiet) ctx.io.err(line);
  };

  // People see the plan before anything changes; machine formats get one report at the end.
  const rows = resultRows(plan);
  if (people && rows.length > 0) await renderList(rows, out.fields ? RESULT_COLUMNS : PLAN_COLUMNS, out);
  const cannot = plan.notes.filter((n) => n.action === 'cannot-change').length;
  if (cannot > 0) ctx.io.err(`warning: ${cannot} difference${cannot === 1 ? '' : 's'} cannot be changed through the service interface (see "cannot-change" in the plan)`);
  if (plan.steps.length === 0) {
    say(`No changes: the account matches ${label}.`);
    if (!people) await renderList(resultRows(plan), RESULT_COLUMNS, out);
    return;
  }
  if (opts.dryRun) {
    say(`Dry run: ${plan.steps.length} change${plan.steps.length === 1 ? '' : 's'} planned, nothing sent.`);
    if (!people) await renderList(resultRows(plan), RESULT_COLUMNS, out);
    return;
  }
  const deletes = plan.steps.filter((s) => s.action === 'delete').length;
  if (deletes > 0) await confirmOrFail(ctx, `Apply ${plan.steps.length} changes, deleting ${deletes} object${deletes === 1 ? '' : 's'}?`);

  const results = await executePlan(api, plan.steps, index, {
    concurrency,
    onResult: (r) => {
      if (r.outcome === 'ok') say(resultLine(r));
      else ctx.io.err(resultLine(r));
    },
  });
  if (!people) await renderList(resultRows(plan, results), RESULT_COLUMNS, out);
  const bad = results.filter((r) => r.outcome === 'failed' || r.outcome === 'skipped').length;
  if (bad === 0) {
    say(summaryLine(results));
    return;
  }
  throw new PartialFailure(bad, results.length, summaryLine(results));
};
