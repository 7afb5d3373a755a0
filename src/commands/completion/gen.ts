/** `trackctl __gen`: every generated file (completions/, man/, docs/reference.md) as one JSON object, path → content. */
import { SCRIPT_FILES, SHELLS, completionScript } from '../../completion/scripts.js';
import { manPages } from '../help/man.js';
import { referenceMarkdown } from '../help/reference.js';
import { rootOf } from '../../completion/tree.js';
import type { Run } from '../action.js';

export const run: Run<Record<string, never>> = async (_args, _opts, ctx, command) => {
  const root = rootOf(command);
  const files: Record<string, string> = {};
  for (const shell of SHELLS) files[`completions/${SCRIPT_FILES[shell]}`] = completionScript(shell);
  for (const page of manPages(root, ctx.version)) files[`man/${page.file}`] = page.text;
  files['docs/reference.md'] = referenceMarkdown(root);
  await ctx.io.out(`${JSON.stringify(files, null, 2)}\n`);
};
