/** `export`: the account's state as a fleet file, ready for `apply`. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, registerCommand, text } from '../declare.js';

export const exportFleet = defineCommand({
  name: 'export',
  summary: 'Write the account as a fleet file (groups, devices, sensors, users, shares), sorted by natural key; YAML by default, -o json',
  options: [text('--schema <ref>', 'add a "# yaml-language-server: $schema=<ref>" line for editor completion (YAML only)')],
  examples: ['trackctl export > fleet.yaml', 'trackctl export -o json > fleet.json', 'trackctl export --schema ./docs/fleet.schema.json > fleet.yaml'],
  load: () => import('./run.js'),
});

export function registerExport(program: Command, ctx: Context): void {
  registerCommand(program, exportFleet, ctx);
}
