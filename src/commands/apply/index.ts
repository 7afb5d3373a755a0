/** `apply`: make the account match a fleet file (declarative provisioning). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, lazyAction } from '../action.js';

export function registerApply(program: Command, ctx: Context): void {
  program
    .command('apply')
    .description(
      'Make the account match a fleet file: create, update and regroup devices, sensors, users, groups and shares ' +
        '(plan first; exit 7 when some steps fail, and a re-run continues). File format: docs/fleet-file.md',
    )
    .requiredOption('-f, --file <path>', 'fleet file, YAML or JSON ("-" reads stdin)')
    .option('--dry-run', 'print the plan and change nothing')
    .option('--prune', 'also delete objects of the kinds listed in the file that the file does not declare (never the signed-in user); needs --yes without a terminal')
    .option('--concurrency <n>', 'requests in flight within each phase (1-64)', '8')
    .addHelpText(
      'after',
      examples(
        'trackctl apply -f fleet.yaml --dry-run',
        'trackctl apply -f fleet.yaml',
        'trackctl apply -f fleet.yaml --prune --yes -o json > result.json',
        'trackctl export > fleet.yaml && trackctl apply -f fleet.yaml --dry-run   # no changes',
      ),
    )
    .action(lazyAction(ctx, async () => import('./run.js')));
}
