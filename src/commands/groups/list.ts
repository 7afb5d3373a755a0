import { listGroups } from '../../api/groups.js';
import { renderList, renderRaw } from '../../io/output.js';
import { groupColumns } from './columns.js';
import { namesForTable } from './names.js';
import type { Run } from '../action.js';

export const run: Run<Record<string, never>> = async (_args, _opts, ctx) => {
  const out = await ctx.output();
  const { records, raw } = await listGroups(await ctx.api());
  if (ctx.globals.raw) return renderRaw(raw, out);
  await renderList(records, groupColumns(await namesForTable(ctx, out)), out);
  if (records.length === 0 && out.tty && !ctx.globals.quiet) ctx.io.err('No groups found.');
};
