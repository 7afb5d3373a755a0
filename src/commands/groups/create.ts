import { createGroup } from '../../api/groups.js';
import { renderRaw, renderRecord } from '../../io/formats/output.js';
import { valueOrAsk } from '../../io/terminal/prompt.js';
import { requireText } from '../../validate.js';
import { groupColumns, groupFields } from './columns.js';
import type { Run } from '../action.js';

interface CreateOptions {
  name?: string;
}

export const run: Run<CreateOptions> = async (_args, opts, ctx) => {
  const name = requireText(await valueOrAsk(ctx, opts.name, '--name', 'Group name:'), '--name', 'name');
  const out = await ctx.output({ fields: groupFields() });
  const { record, raw } = await createGroup(await ctx.api(), name);
  if (ctx.globals.raw) return renderRaw(raw, out);
  await renderRecord(record, groupColumns(), out);
  if (!ctx.globals.quiet && out.tty) ctx.io.err(`Created group ${record.gid}.`);
};
