/** `config`: profile settings (never secrets). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, lazyAction } from '../action.js';

const KEYS = 'base-url, share-url, output, client-id, timeout, retries, credential-store';

export function registerConfig(program: Command, ctx: Context): void {
  const config = program.command('config').description(`Profile settings: ${KEYS}`);
  const load = async () => import('./config.js');
  config
    .command('list')
    .description("List the profile's settings, with defaults")
    .addHelpText('after', examples('trackctl config list', 'trackctl config list -p staging -o json'))
    .action(lazyAction(ctx, async () => (await load()).list));
  config
    .command('get')
    .description('Print one setting')
    .argument('<key>', KEYS)
    .addHelpText('after', examples('trackctl config get base-url', 'trackctl config get timeout -p ci'))
    .action(lazyAction(ctx, async () => (await load()).get));
  config
    .command('set')
    .description('Change one setting (validated)')
    .argument('<key>', KEYS)
    .argument('<value>', 'new value')
    .addHelpText('after', examples('trackctl config set base-url https://fleet.example.com', 'trackctl config set timeout 10s -p ci'))
    .action(lazyAction(ctx, async () => (await load()).set));
  config
    .command('unset')
    .description('Remove one setting (back to its default)')
    .argument('<key>', KEYS)
    .addHelpText('after', examples('trackctl config unset output', 'trackctl config unset timeout -p ci'))
    .action(lazyAction(ctx, async () => (await load()).unset));
  config
    .command('use')
    .description('Make a profile the one used when neither -p nor TRACKCTL_PROFILE is given')
    .argument('<profile>', 'profile name')
    .addHelpText('after', examples('trackctl config use staging', 'trackctl config use default'))
    .action(lazyAction(ctx, async () => (await load()).use));
  config
    .command('path')
    .description('Print the configuration file path')
    .addHelpText('after', examples('trackctl config path', '$EDITOR "$(trackctl config path)"'))
    .action(lazyAction(ctx, async () => (await load()).path));
}
