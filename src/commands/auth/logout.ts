import type { Run } from '../action.js';
import { confirmOrFail } from '../../io/terminal/prompt.js';

export const run: Run<{ all?: boolean }> = async (_args, opts, ctx) => {
  if (opts.all) await confirmOrFail(ctx, 'Forget the stored credentials of every profile?');
  const removed = await (await ctx.session()).logout(Boolean(opts.all));
  if (!ctx.globals.quiet) ctx.io.err(`Signed out: ${removed.join(', ')}.`);
};
