/** `alias`: command aliases kept in the config, for every profile. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, lazyAction } from '../action.js';

const HELP = `
An alias is a command line without "trackctl": "trackctl NAME args…" runs it, with $1…$9
replaced by the arguments and the arguments no placeholder used appended. Quote words as in sh.
An expansion starting with "!" runs through sh -c, the arguments being sh's "$1"… and "$@",
with the active profile in TRACKCTL_PROFILE (and TRACKCTL_BASE_URL). An alias may not have the
name of a command (exit 2); an alias never expands to another alias.`;

export function registerAlias(program: Command, ctx: Context): void {
  const alias = program.command('alias').description('Command aliases: short names for command lines').addHelpText('after', HELP);
  alias
    .command('set')
    .description('Create or replace an alias')
    .argument('<name>', 'the alias name')
    .argument('<expansion>', 'the command line it runs (one quoted word)')
    .addHelpText(
      'after',
      HELP +
        examples(
          "trackctl alias set low 'units --low-battery 20'",
          "trackctl alias set trips 'report trips $1 --from today'",
          'trackctl alias set dids \'!trackctl devices list -o json | jq -r ".[].did"\'',
          "trackctl alias set sb -- '--sandbox units'      # an expansion starting with - after --",
        ),
    )
    .action(lazyAction(ctx, async () => import('./set.js')));
  alias
    .command('list')
    .description('List the aliases')
    .addHelpText('after', examples('trackctl alias list', 'trackctl alias list -o json'))
    .action(lazyAction(ctx, async () => import('./list.js')));
  alias
    .command('delete')
    .description('Delete an alias')
    .argument('<name>', 'the alias name')
    .addHelpText('after', examples('trackctl alias delete low'))
    .action(lazyAction(ctx, async () => import('./delete.js')));
}
