import { getGroup } from '../../api/groups.js';
import { renderRaw, renderRecord } from '../../io/formats/output.js';
import { parseId } from '../../validate.js';
import { groupColumns, groupFields } from './columns.js';
import { namesForTable } from './names.js';
import type { Run } from '../action.js';

export const run: Run<Record<string, never>> = async (args, _opts, ctx) => {
  const gid = parseId(args[0] ?? '', 'group id');
  const out = await ctx.output({ fields: groupFields() });
  const { record, raw } = await getGroup(await ctx.api(), gid);
  if (ctx.globals.raw) return renderRaw(raw, out);
  await renderRecord(record, groupColumns(await namesForTable(ctx, out)), out);
};
