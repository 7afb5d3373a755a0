/** `trackctl history`: validate, then stream the units' history through the fleet-run engine (or, --raw, one reply as sent). */
import type { HistoryQuery } from '../../api/history.js';
import { REPORT_PROPERTY_FIELDS } from '../../api/types.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { Run } from '../action.js';
import { parsePlan, type HistoryOptions } from './options.js';
import { checkOutput, HISTORY_OUTPUTS } from './output.js';

export const run: Run<HistoryOptions> = async (args, opts, ctx) => {
  const plan = parsePlan(args, opts, ctx.clock.now(), await ctx.timeZone(), ctx.env);
  const { format, out } = await ctx.outputAs(HISTORY_OUTPUTS, { fields: REPORT_PROPERTY_FIELDS });
  if (plan.compressionGiven && format !== 'parquet') throw new UsageError('--compression sets the codec of -o parquet');
  checkOutput(ctx, plan, format);
  if (format === 'html' && plan.follow) throw new UsageError('-o html draws a finished history; it cannot be used with --follow');
  if (ctx.globals.raw) return runRaw(ctx, plan.fleet, plan.follow || plan.checkpoint !== undefined, plan.id, plan.window);
  if (plan.fleet && plan.outputFile !== undefined) throw new UsageError('--output-file writes the history of one unit; for several, use --out-dir or redirect stdout');
  const { runHistory } = await import('./fleet.js');
  await runHistory(ctx, plan, format, out);
};

async function runRaw(ctx: Context, fleet: boolean, continues: boolean, id: number, window: HistoryQuery): Promise<void> {
  if (fleet) throw new UsageError('--raw prints one reply as sent; it cannot be used with several units or --out-dir');
  if (continues) throw new UsageError('--raw prints one reply as sent; it cannot be used with --follow or --checkpoint');
  const { streamRaw } = await import('./raw.js');
  await streamRaw(await ctx.api(), id, window, ctx.io);
}
