import { listShares } from '../../api/shares.js';
import { renderList, renderRaw } from '../../io/formats/output.js';
import { shareColumns, shareFields } from './columns.js';
import { sayNoneFound, type Run } from '../action.js';
import { listArrangement, type ListOptions } from '../list-options.js';

export const run: Run<ListOptions> = async (_args, opts, ctx) => {
  const out = await ctx.output({ fields: shareFields(), list: listArrangement(opts) });
  const { records, raw } = await listShares(await ctx.api());
  if (ctx.globals.raw) return renderRaw(raw, out);
  await renderList(records, shareColumns(ctx.clock.now()), out);
  if (records.length === 0) sayNoneFound(ctx, out, 'location shares');
};
