/** `trackctl __complete -- <words…>`: one candidate a line, "value<TAB>description"; ":files" asks the shell for file names. */
import { complete, type Candidate } from '../../completion/engine.js';
import { TOPICS } from '../help/topics.js';
import { listExtensions } from '../extension/path.js';
import { rootOf } from '../../completion/tree.js';
import type { Run } from '../action.js';
import { sanitizeCell } from '../../sanitize.js';

/** Descriptions come from the service too: one line, no tabs, no control characters (whole escape sequences, as tables drop them). */
function oneLine(text: string): string {
  return sanitizeCell(text).replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

export const run: Run<Record<string, never>> = async (words, _opts, ctx, command) => {
  const root = rootOf(command);
  const config = await ctx.config();
  const external = (): Candidate[] => {
    const commands = root.commands.map((c) => c.name());
    let aliases: Record<string, string> = {};
    try {
      aliases = config.aliases();
    } catch {
      // A broken config file: complete without aliases.
    }
    return [
      ...Object.entries(aliases).map(([value, expansion]) => ({ value, description: `alias: ${expansion}` })),
      ...listExtensions(ctx.env.PATH, commands).map((e) => ({ value: e.name, description: `extension: ${e.path}` })),
    ];
  };
  const result = complete(root, words.length > 0 ? words : [''], { topics: TOPICS, external });
  let candidates: Candidate[] = result.candidates;
  if (result.profiles) {
    const { prefix, partial } = result.profiles;
    const names = new Set(['default', ...(await ctx.config()).profiles()]);
    candidates = [...candidates, ...[...names].filter((n) => n.startsWith(partial)).map((n) => ({ value: prefix + n }))];
  }
  if (result.ids) {
    const { fetchIds } = await import('../../completion/ids.js');
    candidates = [...candidates, ...(await fetchIds(ctx, result.ids, result.globals))];
  }
  const lines = candidates.map((c) => (c.description ? `${c.value}\t${oneLine(c.description)}` : c.value));
  if (result.files) lines.push(':files');
  if (lines.length > 0) await ctx.io.out(`${lines.join('\n')}\n`);
};
