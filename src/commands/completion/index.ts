/**
 * `completion bash|zsh|fish` prints a script; the hidden `__complete` answers
 * the scripts, and the hidden `__gen` hands scripts/gen.mjs the generated files.
 * Nothing here loads HTTP, keychain or sandbox code unless an id is completed.
 */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { examples } from '../action.js';
import { rootOf } from '../../completion/tree.js';

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

export function registerCompletion(program: Command, ctx: Context): void {
  program
    .command('completion')
    .description('Print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .addHelpText('after', INSTALL + examples('trackctl completion bash > ~/.local/share/bash-completion/completions/trackctl', 'trackctl completion fish | source'))
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      const { completionScript } = await import('../../completion/scripts.js');
      await ctx.io.out(completionScript(shell));
    });

  program
    .command('__complete', { hidden: true })
    .description('Print completions for the words after "--" (used by the completion scripts)')
    .argument('[words...]')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (words: string[], _opts: unknown, cmd: Command) => {
      const { runComplete } = await import('./complete.js');
      await runComplete(words, rootOf(cmd), ctx);
    });

  program
    .command('__gen', { hidden: true })
    .description('Print the generated completion scripts and man pages as JSON (used by scripts/gen.mjs)')
    .action(async (_opts: unknown, cmd: Command) => {
      const { runGen } = await import('./gen.js');
      await runGen(rootOf(cmd), ctx);
    });
}
