/** `alias`: command aliases kept in the config, for every profile; declared. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, registerCommand } from '../declare.js';

const HELP = `
An alias is a command line without "trackctl": "trackctl NAME args…" runs it, with $1…$9
replaced by the arguments and the arguments no placeholder used appended. Quote words as in sh.
An expansion starting with "!" runs through sh -c, the arguments being sh's "$1"… and "$@",
with the active profile in TRACKCTL_PROFILE (and TRACKCTL_BASE_URL). An alias may not have the
name of a command (exit 2); an alias never expands to another alias.`;

export const aliasVerbs = [
  defineCommand({
    name: 'set',
    summary: 'Create or replace an alias',
    args: [
      { spec: '<name>', help: 'the alias name' },
      { spec: '<expansion>', help: 'the command line it runs (one quoted word)' },
    ],
    options: [],
    notes: HELP,
    examples: [
      "trackctl alias set low 'units --low-battery 20'",
      "trackctl alias set trips 'report trips $1 --from today'",
      'trackctl alias set dids \'!trackctl devices list -o json | jq -r ".[].did"\'',
      "trackctl alias set sb -- '--sandbox units'      # an expansion starting with - after --",
    ],
    load: () => import('./set.js'),
  }),
  defineCommand({ name: 'list', summary: 'List the aliases', options: [], examples: ['trackctl alias list', 'trackctl alias list -o json'], load: () => import('./list.js') }),
  defineCommand({
    name: 'delete',
    summary: 'Delete an alias',
    args: [{ spec: '<name>', help: 'the alias name' }],
    options: [],
    examples: ['trackctl alias delete low'],
    load: () => import('./delete.js'),
  }),
] as const;

export function registerAlias(program: Command, ctx: Context): void {
  const alias = program.command('alias').description('Command aliases: short names for command lines').addHelpText('after', HELP);
  const [set, list, remove] = aliasVerbs;
  registerCommand(alias, set, ctx);
  registerCommand(alias, list, ctx);
  registerCommand(alias, remove, ctx);
}
