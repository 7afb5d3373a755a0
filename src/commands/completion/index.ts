/**
 * `completion bash|zsh|fish` prints a script; the hidden `__complete` answers
 * the scripts, and the hidden `__gen` hands scripts/gen.mjs the generated files.
 * Nothing here loads HTTP, keychain or sandbox code unless an id is completed.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, registerCommand } from '../declare.js';

const INSTALL = `
Install:
  bash  source <(trackctl completion bash)                 in ~/.bashrc, or save it as
        ~/.local/share/bash-completion/completions/trackctl
  zsh   trackctl completion zsh > "\${fpath[1]}/_trackctl"    then start a new shell (compinit)
  fish  trackctl completion fish > ~/.config/fish/completions/trackctl.fish

Completes commands, flags, values (formats, report types, user types, config keys) and,
when signed in, ids of devices, sensors, users, groups and shares from the service
(silently skipped when the service does not answer within 1.5 s).
`;

export const completionCommands = [
  defineCommand({
    name: 'completion',
    summary: 'Print the shell completion script for bash, zsh or fish',
    // Kept literal (= SHELLS of completion/scripts.ts) so that registering loads no script.
    args: [{ spec: '<shell>', help: 'bash, zsh or fish', choices: ['bash', 'zsh', 'fish'] }],
    options: [],
    notes: INSTALL,
    examples: ['trackctl completion bash > ~/.local/share/bash-completion/completions/trackctl', 'trackctl completion fish | source'],
    load: () => import('./script.js'),
  }),
  defineCommand({
    name: '__complete',
    hidden: true,
    summary: 'Print completions for the words after "--" (used by the completion scripts)',
    args: [{ spec: '[words...]', help: '' }],
    options: [],
    // Every word is one to complete, a half-typed flag or -h included.
    passThrough: true,
    helpFlag: false,
    load: () => import('./complete.js'),
  }),
  defineCommand({
    name: '__gen',
    hidden: true,
    summary: 'Print the generated completion scripts and man pages as JSON (used by scripts/gen.mjs)',
    options: [],
    load: () => import('./gen.js'),
  }),
] as const;

export function registerCompletion(program: Command, ctx: Context): void {
  for (const command of completionCommands) registerCommand(program, command, ctx);
}
