/**
 * `trackctl help [command… | topic]`: replaces commander's help command so that
 * it takes a whole command path (`help devices list`) or a topic name
 * (`help exit-codes`). Also adds the topics and exit codes to the root help.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples } from '../action.js';
import { ROOT_HELP_AFTER, TOPICS } from './topics.js';

export function registerHelp(program: Command, ctx: Context): void {
  program.helpCommand(false);
  program.addHelpText('after', ROOT_HELP_AFTER);
  program
    .command('help')
    .description(`Show help for a command, or a topic: ${TOPICS.map((t) => t.name).join(', ')}`)
    .argument('[command-or-topic...]', 'a command path (devices list) or a topic name')
    .addHelpText('after', examples('trackctl help devices list', 'trackctl help exit-codes', 'trackctl help environment'))
    .action(async (words: string[], _opts: unknown, cmd: Command) => {
      const { runHelp } = await import('./run.js');
      await runHelp(words, cmd, ctx);
    });
}
