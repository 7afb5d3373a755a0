/** `alias set NAME EXPANSION`: validated (name, shadowing, quoting) before anything is written. */
import type { Run } from '../action.js';
import { COMMAND_NAMES } from '../names.js';
import { validateAliasName, validateExpansion } from './expand.js';

export const run: Run<Record<string, never>> = async ([name = '', expansion = ''], _opts, ctx) => {
  validateAliasName(name, COMMAND_NAMES);
  validateExpansion(expansion);
  const config = await ctx.config();
  const before = config.aliases()[name];
  await config.setAlias(name, expansion);
  if (!ctx.globals.quiet) ctx.io.err(before === undefined ? `Added alias ${name}.` : `Changed alias ${name} (was: ${before}).`);
};
