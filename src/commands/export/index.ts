/** `export`: the account's state as a fleet file, ready for `apply`. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, lazyAction } from '../action.js';

export function registerExport(program: Command, ctx: Context): void {
  program
    .command('export')
    .description('Write the account as a fleet file (groups, devices, sensors, users, shares), sorted by natural key; YAML by default, -o json')
    .option('--schema <ref>', 'add a "# yaml-language-server: $schema=<ref>" line for editor completion (YAML only)')
    .addHelpText(
      'after',
      examples(
        'trackctl export > fleet.yaml',
        'trackctl export -o json > fleet.json',
        'trackctl export --schema ./docs/fleet.schema.json > fleet.yaml',
      ),
    )
    .action(lazyAction(ctx, async () => import('./run.js')));
}
