/** `alias delete NAME`: an unknown alias is exit 4. */
import { NotFoundError } from '../../errors.js';
import type { Run } from '../action.js';

export const run: Run<Record<string, never>> = async ([name = ''], _opts, ctx) => {
  if (!(await (await ctx.config()).deleteAlias(name))) throw new NotFoundError(`no alias named "${name}"`, { hint: 'See them with: trackctl alias list' });
  if (!ctx.globals.quiet) ctx.io.err(`Deleted alias ${name}.`);
};
