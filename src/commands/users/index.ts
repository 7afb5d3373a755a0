/** `users`: list, get, create, regroup and delete users (tracked users and dispatchers). */
import { listOptions } from '../list-options.js';
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { collect, examples, lazyAction } from '../action.js';
import { zoneOption } from '../time-options.js';
import { registerImport } from '../import/index.js';

// Kept literal (= USER_TYPES of api/users.ts) so that registering loads no API code.
const USER_TYPES = ['trackedUser', 'dispatcher'];

export function registerUsers(program: Command, ctx: Context): void {
  const noun = program.command('users').description('Manage users (tracked users and dispatchers)');

  listOptions(noun
    .command('list'))
    .alias('ls')
    .description('List users; tracked users show their device')
    .addOption(new Option('--type <type>', 'only users of this type').choices(USER_TYPES))
    .addOption(zoneOption())
    .addHelpText('after', examples('trackctl users list', 'trackctl users list --type dispatcher -o json', 'trackctl users list -o csv --fields uid,name,email'))
    .action(lazyAction(ctx, () => import('./list.js')));

  noun
    .command('get')
    .description('Show one user')
    .argument('<uid>', 'user id')
    .addOption(zoneOption())
    .addHelpText('after', examples('trackctl users get 2002', 'trackctl users get 2020 -o json'))
    .action(lazyAction(ctx, () => import('./get.js')));

  noun
    .command('create')
    .description('Create a user; a tracked user gets a device of their own')
    .option('--name <name>', 'full name')
    .option('--email <address>', 'e-mail address (also the sign-in name)')
    .option('--type <type>', `user type: ${USER_TYPES.join(' or ')}`)
    .option('--sim-phone <number>', 'telephone number of their SIM card')
    .addHelpText(
      'after',
      examples(
        'trackctl users create --name "Ana Silva" --email ana@example.com --type trackedUser --sim-phone +15551234567',
        'trackctl users create --name "Ben Ode" --email ben@example.com --type dispatcher -o json',
      ),
    )
    .action(lazyAction(ctx, () => import('./create.js')));

  noun
    .command('update')
    .description('Add a user to groups or remove them, as a member or as a viewer')
    .argument('<uid>', 'user id')
    .option('--add-group <gids>', 'make a member of groups (1,2,3 or repeat the flag)', collect)
    .option('--remove-group <gids>', 'remove from groups as a member (1,2,3 or repeat the flag)', collect)
    .option('--add-viewer-group <gids>', 'let the user view groups (1,2,3 or repeat the flag)', collect)
    .option('--remove-viewer-group <gids>', 'stop the user viewing groups (1,2,3 or repeat the flag)', collect)
    .addHelpText('after', examples('trackctl users update 2020 --add-group 102,103', 'trackctl users update 2002 --add-viewer-group 103 --remove-viewer-group 101'))
    .action(lazyAction(ctx, () => import('./update.js')));

  noun
    .command('delete')
    .alias('rm')
    .description('Delete users; continues past failures and reports each')
    .argument('<uid...>', 'user ids')
    .addHelpText('after', examples('trackctl users delete 2003 --yes', 'trackctl users delete 2022 2024 --yes -o json'))
    .action(lazyAction(ctx, () => import('./delete.js')));

  registerImport(noun, ctx, 'users');
}
