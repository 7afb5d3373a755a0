import { listGroups } from '../../api/groups.js';
import { renderList, renderRaw } from '../../io/formats/output.js';
import { groupColumns, groupFields } from './columns.js';
import { namesForTable } from './names.js';
import { sayNoneFound, type Run } from '../action.js';
import { listArrangement, type ListOptions } from '../list-options.js';

export const run: Run<ListOptions> = async (_args, opts, ctx) => {
  const out = await ctx.output({ fields: groupFields(), list: listArrangement(opts) });
  const { records, raw } = await listGroups(await ctx.api());
  if (ctx.globals.raw) return renderRaw(raw, out);
  await renderList(records, groupColumns(await namesForTable(ctx, out)), out);
  if (records.length === 0) sayNoneFound(ctx, out, 'groups');
};
