/** `users`: list, get, create, regroup and delete users (tracked users and dispatchers), declared. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { choice, defineCommand, list, registerCommand, strictChoice, text } from '../declare.js';
import { listing, zone } from '../shared-options.js';
import { registerImport } from '../import/index.js';

// Kept literal (= USER_TYPES of api/users.ts) so that registering loads no API code.
const USER_TYPES = ['trackedUser', 'dispatcher'] as const;

export const userVerbs = [
  defineCommand({
    name: 'list',
    aliases: ['ls'],
    summary: 'List users; tracked users show their device',
    options: [...listing(), strictChoice('--type <type>', USER_TYPES, 'only users of this type'), zone()],
    examples: ['trackctl users list', 'trackctl users list --type dispatcher -o json', 'trackctl users list -o csv --fields uid,name,email'],
    load: () => import('./list.js'),
  }),
  defineCommand({
    name: 'get',
    summary: 'Show one user',
    args: [{ spec: '<uid>', help: 'user id' }],
    options: [zone()],
    examples: ['trackctl users get 2002', 'trackctl users get 2020 -o json'],
    load: () => import('./get.js'),
  }),
  defineCommand({
    name: 'create',
    summary: 'Create a user; a tracked user gets a device of their own',
    options: [
      text('--name <name>', 'full name'),
      text('--email <address>', 'e-mail address (also the sign-in name)'),
      choice('--type <type>', USER_TYPES, `user type: ${USER_TYPES.join(' or ')}`),
      text('--sim-phone <number>', 'telephone number of their SIM card'),
    ],
    examples: [
      'trackctl users create --name "Ana Silva" --email ana@example.com --type trackedUser --sim-phone +15551234567',
      'trackctl users create --name "Ben Ode" --email ben@example.com --type dispatcher -o json',
    ],
    load: () => import('./create.js'),
  }),
  defineCommand({
    name: 'update',
    summary: 'Add a user to groups or remove them, as a member or as a viewer',
    args: [{ spec: '<uid>', help: 'user id' }],
    options: [
      list('--add-group <gids>', 'make a member of groups (1,2,3 or repeat the flag)'),
      list('--remove-group <gids>', 'remove from groups as a member (1,2,3 or repeat the flag)'),
      list('--add-viewer-group <gids>', 'let the user view groups (1,2,3 or repeat the flag)'),
      list('--remove-viewer-group <gids>', 'stop the user viewing groups (1,2,3 or repeat the flag)'),
    ],
    examples: ['trackctl users update 2020 --add-group 102,103', 'trackctl users update 2002 --add-viewer-group 103 --remove-viewer-group 101'],
    load: () => import('./update.js'),
  }),
  defineCommand({
    name: 'delete',
    aliases: ['rm'],
    summary: 'Delete users; continues past failures and reports each',
    args: [{ spec: '<uid...>', help: 'user ids' }],
    options: [],
    examples: ['trackctl users delete 2003 --yes', 'trackctl users delete 2022 2024 --yes -o json'],
    load: () => import('./delete.js'),
  }),
] as const;

export function registerUsers(program: Command, ctx: Context): void {
  const noun = program.command('users').description('Manage users (tracked users and dispatchers)');
  const [ls, get, create, update, remove] = userVerbs;
  registerCommand(noun, ls, ctx);
  registerCommand(noun, get, ctx);
  registerCommand(noun, create, ctx);
  registerCommand(noun, update, ctx);
  registerCommand(noun, remove, ctx);
  registerImport(noun, ctx, 'users');
}
