/** `apply`: make the account match a fleet file (declarative provisioning); declared. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, flag, int, registerCommand, text } from '../declare.js';
import { concurrencyValue } from '../values.js';

export const apply = defineCommand({
  name: 'apply',
  summary:
    'Make the account match a fleet file: create, update and regroup devices, sensors, users, groups and shares ' +
    '(plan first; exit 7 when some steps fail, and a re-run continues). File format: docs/fleet-file.md',
  options: [
    text('-f, --file <path>', 'fleet file, YAML or JSON ("-" reads stdin)', { required: true }),
    flag('--dry-run', 'print the plan and change nothing'),
    flag('--prune', 'also delete objects of the kinds listed in the file that the file does not declare (never the signed-in user); needs --yes without a terminal'),
    int('--concurrency <n>', 'requests in flight within each phase (1-64)', concurrencyValue, { fallback: '8' }),
  ],
  examples: [
    'trackctl apply -f fleet.yaml --dry-run',
    'trackctl apply -f fleet.yaml',
    'trackctl apply -f fleet.yaml --prune --yes -o json > result.json',
    'trackctl export > fleet.yaml && trackctl apply -f fleet.yaml --dry-run   # no changes',
  ],
  load: () => import('./run.js'),
});

export function registerApply(program: Command, ctx: Context): void {
  registerCommand(program, apply, ctx);
}
