/** `groups`: list, get, create, rename, change members and viewers, delete. */
import { listOptions } from '../list-options.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { collect, examples, lazyAction } from '../action.js';

export function registerGroups(program: Command, ctx: Context): void {
  const noun = program.command('groups').description('Manage groups of units and users, and who may view them');

  listOptions(noun
    .command('list'))
    .alias('ls')
    .description('List groups with their members and viewers (labelled with names on a terminal)')
    .addHelpText('after', examples('trackctl groups list', 'trackctl groups list -o json', 'trackctl groups list -o csv --fields gid,name'))
    .action(lazyAction(ctx, () => import('./list.js')));

  noun
    .command('get')
    .description('Show one group')
    .argument('<gid>', 'group id')
    .addHelpText('after', examples('trackctl groups get 101', 'trackctl groups get 101 -o json'))
    .action(lazyAction(ctx, () => import('./get.js')));

  noun
    .command('create')
    .description('Create an empty group')
    .option('--name <name>', 'group name')
    .addHelpText('after', examples('trackctl groups create --name "West depot"', 'trackctl groups create --name Vans -o json'))
    .action(lazyAction(ctx, () => import('./create.js')));

  noun
    .command('update')
    .description('Rename a group, add or remove members (units, users) and viewers (users)')
    .argument('<gid>', 'group id')
    .option('--name <name>', 'new name')
    .option('--add-member <ids>', 'add units or users as members (1,2,3 or repeat the flag)', collect)
    .option('--remove-member <ids>', 'remove members (1,2,3 or repeat the flag)', collect)
    .option('--add-viewer <uids>', 'let users view the group (1,2,3 or repeat the flag)', collect)
    .option('--remove-viewer <uids>', 'stop users viewing the group (1,2,3 or repeat the flag)', collect)
    .addHelpText(
      'after',
      examples('trackctl groups update 101 --name "North yard"', 'trackctl groups update 101 --add-member 2004,2005 --remove-member 2010', 'trackctl groups update 101 --add-viewer 2002'),
    )
    .action(lazyAction(ctx, () => import('./update.js')));

  noun
    .command('delete')
    .alias('rm')
    .description('Delete groups; continues past failures and reports each')
    .argument('<gid...>', 'group ids')
    .addHelpText('after', examples('trackctl groups delete 104 --yes', 'trackctl groups delete 103 105 --yes -o json'))
    .action(lazyAction(ctx, () => import('./delete.js')));
}
