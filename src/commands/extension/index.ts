/** `extension`: the trackctl-NAME executables on PATH that run as `trackctl NAME`; declared. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, registerCommand } from '../declare.js';

const HELP = `
"trackctl NAME args…", where NAME is neither a command nor an alias, runs the executable
trackctl-NAME found first on PATH with the arguments, stdin, stdout and stderr; its exit status
is trackctl's (a death by signal N: 128+N). It gets the active profile in TRACKCTL_PROFILE,
the service address in TRACKCTL_BASE_URL (or TRACKCTL_SANDBOX=1), -o in TRACKCTL_OUTPUT, and
a token with "trackctl token print". A trackctl-NAME whose NAME is a command is never run.`;

export const extensionList = defineCommand({
  name: 'list',
  summary: 'List the extensions on PATH (the first of a name wins)',
  options: [],
  notes: HELP,
  examples: ['trackctl extension list', 'trackctl extension list -o json'],
  load: () => import('./list.js'),
});

export function registerExtension(program: Command, ctx: Context): void {
  const extension = program.command('extension').description('Extensions: trackctl-NAME executables on PATH').addHelpText('after', HELP);
  registerCommand(extension, extensionList, ctx);
}
