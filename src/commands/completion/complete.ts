/** `trackctl __complete -- <words…>`: one candidate a line, "value<TAB>description"; ":files" asks the shell for file names. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { complete, type Candidate } from '../../completion/engine.js';
import { TOPICS } from '../help/topics.js';

/** Descriptions come from the service too: one line, no tabs, no control characters. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

export async function runComplete(words: readonly string[], root: Command, ctx: Context): Promise<void> {
  const result = complete(root, words.length > 0 ? words : [''], { topics: TOPICS });
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
}
