/**
 * `trackctl help [command… | topic]`: replaces commander's help command so that
 * it takes a whole command path (`help devices list`) or a topic name
 * (`help exit-codes`). Also adds the topics and exit codes to the root help.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, registerCommand } from '../declare.js';
import { ROOT_HELP_AFTER, TOPICS } from './topics.js';

export const helpCommand = defineCommand({
  name: 'help',
  summary: `Show help for a command, or a topic: ${TOPICS.map((t) => t.name).join(', ')}`,
  args: [{ spec: '[command-or-topic...]', help: 'a command path (devices list) or a topic name' }],
  options: [],
  examples: ['trackctl help devices list', 'trackctl help exit-codes', 'trackctl help environment'],
  load: () => import('./run.js'),
});

export function registerHelp(program: Command, ctx: Context): void {
  program.helpCommand(false);
  program.addHelpText('after', ROOT_HELP_AFTER);
  registerCommand(program, helpCommand, ctx);
}
