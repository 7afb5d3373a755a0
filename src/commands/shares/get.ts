import { getShare } from '../../api/shares.js';
import { renderRaw, renderRecord } from '../../io/formats/output.js';
import { parseSid } from './validate.js';
import { shareColumns, shareFields } from './columns.js';
import type { Run } from '../action.js';

export const run: Run<{ tz?: string }> = async (args, _opts, ctx) => {
  const sid = parseSid(args[0]);
  const out = await ctx.output({ fields: shareFields() });
  const { record, raw } = await getShare(await ctx.api(), sid);
  if (ctx.globals.raw) return renderRaw(raw, out);
  await renderRecord(record, shareColumns(ctx.clock.now()), out);
};
