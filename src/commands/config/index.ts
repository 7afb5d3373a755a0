/** `config`: profile settings (never secrets); declared. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, registerCommand } from '../declare.js';

const KEYS = 'base-url, share-url, output, client-id, timeout, retries, credential-store';

const load = async () => import('./config.js');

export const configVerbs = [
  defineCommand({
    name: 'list',
    summary: "List the profile's settings, with defaults",
    options: [],
    examples: ['trackctl config list', 'trackctl config list -p staging -o json'],
    load: async () => (await load()).list,
  }),
  defineCommand({
    name: 'get',
    summary: 'Print one setting',
    args: [{ spec: '<key>', help: KEYS }],
    options: [],
    examples: ['trackctl config get base-url', 'trackctl config get timeout -p ci'],
    load: async () => (await load()).get,
  }),
  defineCommand({
    name: 'set',
    summary: 'Change one setting (validated)',
    args: [
      { spec: '<key>', help: KEYS },
      { spec: '<value>', help: 'new value' },
    ],
    options: [],
    examples: ['trackctl config set base-url https://fleet.example.com', 'trackctl config set timeout 10s -p ci'],
    load: async () => (await load()).set,
  }),
  defineCommand({
    name: 'unset',
    summary: 'Remove one setting (back to its default)',
    args: [{ spec: '<key>', help: KEYS }],
    options: [],
    examples: ['trackctl config unset output', 'trackctl config unset timeout -p ci'],
    load: async () => (await load()).unset,
  }),
  defineCommand({
    name: 'use',
    summary: 'Make a profile the one used when neither -p nor TRACKCTL_PROFILE is given',
    args: [{ spec: '<profile>', help: 'profile name' }],
    options: [],
    examples: ['trackctl config use staging', 'trackctl config use default'],
    load: async () => (await load()).use,
  }),
  defineCommand({
    name: 'path',
    summary: 'Print the configuration file path',
    options: [],
    examples: ['trackctl config path', '$EDITOR "$(trackctl config path)"'],
    load: async () => (await load()).path,
  }),
] as const;

export function registerConfig(program: Command, ctx: Context): void {
  const config = program.command('config').description(`Profile settings: ${KEYS}`);
  for (const verb of configVerbs) registerCommand(config, verb, ctx);
}
