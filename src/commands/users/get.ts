import { getUser } from '../../api/users.js';
import { renderRaw, renderRecord } from '../../io/formats/output.js';
import { parseId } from '../../validate.js';
import { userColumns, userFields } from './columns.js';
import type { Run } from '../action.js';

export const run: Run<{ tz?: string }> = async (args, _opts, ctx) => {
  const uid = parseId(args[0] ?? '', 'user id');
  const out = await ctx.output({ fields: userFields() });
  const { record, raw } = await getUser(await ctx.api(), uid);
  if (ctx.globals.raw) return renderRaw(raw, out);
  await renderRecord(record, userColumns(), out);
};
