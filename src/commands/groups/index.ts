/** `groups`: list, get, create, rename, change members and viewers, delete; declared. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, list, registerCommand, text } from '../declare.js';
import { listing } from '../shared-options.js';

export const groupVerbs = [
  defineCommand({
    name: 'list',
    aliases: ['ls'],
    summary: 'List groups with their members and viewers (labelled with names on a terminal)',
    options: [...listing()],
    examples: ['trackctl groups list', 'trackctl groups list -o json', 'trackctl groups list -o csv --fields gid,name'],
    load: () => import('./list.js'),
  }),
  defineCommand({
    name: 'get',
    summary: 'Show one group',
    args: [{ spec: '<gid>', help: 'group id' }],
    options: [],
    examples: ['trackctl groups get 101', 'trackctl groups get 101 -o json'],
    load: () => import('./get.js'),
  }),
  defineCommand({
    name: 'create',
    summary: 'Create an empty group',
    options: [text('--name <name>', 'group name')],
    examples: ['trackctl groups create --name "West depot"', 'trackctl groups create --name Vans -o json'],
    load: () => import('./create.js'),
  }),
  defineCommand({
    name: 'update',
    summary: 'Rename a group, add or remove members (units, users) and viewers (users)',
    args: [{ spec: '<gid>', help: 'group id' }],
    options: [
      text('--name <name>', 'new name'),
      list('--add-member <ids>', 'add units or users as members (1,2,3 or repeat the flag)'),
      list('--remove-member <ids>', 'remove members (1,2,3 or repeat the flag)'),
      list('--add-viewer <uids>', 'let users view the group (1,2,3 or repeat the flag)'),
      list('--remove-viewer <uids>', 'stop users viewing the group (1,2,3 or repeat the flag)'),
    ],
    examples: ['trackctl groups update 101 --name "North yard"', 'trackctl groups update 101 --add-member 2004,2005 --remove-member 2010', 'trackctl groups update 101 --add-viewer 2002'],
    load: () => import('./update.js'),
  }),
  defineCommand({
    name: 'delete',
    aliases: ['rm'],
    summary: 'Delete groups; continues past failures and reports each',
    args: [{ spec: '<gid...>', help: 'group ids' }],
    options: [],
    examples: ['trackctl groups delete 104 --yes', 'trackctl groups delete 103 105 --yes -o json'],
    load: () => import('./delete.js'),
  }),
] as const;

export function registerGroups(program: Command, ctx: Context): void {
  const noun = program.command('groups').description('Manage groups of units and users, and who may view them');
  const [ls, get, create, update, remove] = groupVerbs;
  registerCommand(noun, ls, ctx);
  registerCommand(noun, get, ctx);
  registerCommand(noun, create, ctx);
  registerCommand(noun, update, ctx);
  registerCommand(noun, remove, ctx);
}
