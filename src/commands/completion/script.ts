/** `trackctl completion bash|zsh|fish`: print the script; it is loaded only now. */
import type { Run } from '../action.js';

export const run: Run<Record<string, never>> = async ([shell], _opts, ctx) => {
  const { SHELLS, completionScript } = await import('../../completion/scripts.js');
  // commander has checked the word against the declared choices; finding it again types it.
  const known = SHELLS.find((s) => s === shell);
  if (known) await ctx.io.out(completionScript(known));
};
