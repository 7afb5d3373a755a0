/** What `trackctl help …` prints: a topic, a command's help, or a usage error with suggestions. */
import { UsageError } from '../../errors.js';
import { findSubcommand, rootOf, visibleCommands } from '../../completion/tree.js';
import { suggest } from './suggest.js';
import { TOPICS } from './topics.js';
import { helpWidth, wrapHelpText } from './wrap.js';
import type { Run } from '../action.js';

/** `words`: a command path or a topic; the help command itself leads to the tree. */
export const run: Run<Record<string, never>> = async (words, _opts, ctx, helpCmd) => {
  const root = rootOf(helpCmd);
  const topic = words.length === 1 ? TOPICS.find((t) => t.name === words[0]) : undefined;
  if (topic) {
    await ctx.io.out(wrapHelpText(topic.text, helpWidth(ctx.io.stdoutIsTTY, ctx.io.columns())));
    return;
  }
  let cmd = root;
  for (const [i, word] of words.entries()) {
    const sub = findSubcommand(cmd, word);
    if (!sub) {
      const names = visibleCommands(cmd).map((c) => c.name());
      const choices = i === 0 ? [...names, ...TOPICS.map((t) => t.name)] : names;
      const near = suggest(word, choices);
      const where = i === 0 ? 'help topic or command' : `subcommand of "${words.slice(0, i).join(' ')}"`;
      throw new UsageError(`unknown ${where} "${word}"`, {
        hint:
          (near.length > 0 ? `Did you mean ${near.map((n) => `"${n}"`).join(' or ')}?\n` : '') +
          (i === 0 ? `Topics: ${TOPICS.map((t) => t.name).join(', ')}. Commands: trackctl --help` : `Commands: trackctl ${words.slice(0, i).join(' ')} --help`),
      });
    }
    cmd = sub;
  }
  cmd.outputHelp();
};
