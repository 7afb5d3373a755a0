/** `devices` and `sensors`: the same verbs over /v2/devices/ and /v2/sensors/, declared once for both. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { UnitKind } from '../../api/units.js';
import { defineCommand, flag, list, registerCommand, text } from '../declare.js';
import { group, listing, zone } from '../shared-options.js';
import { registerImport } from '../import/index.js';

/** The verbs of `devices` or `sensors`: the same declarations, worded for the kind. */
export function unitVerbs(kind: UnitKind) {
  const one = kind === 'devices' ? 'device' : 'sensor';
  const devices = kind === 'devices';
  return [
    defineCommand({
      name: 'list',
      aliases: ['ls'],
      summary: `List ${kind}`,
      options: [
        ...listing(),
        group(`only ${kind} in this group`),
        flag('--active', `only active ${kind}`, { conflicts: ['inactive'] }),
        flag('--inactive', `only inactive ${kind}`, { conflicts: ['active'] }),
        zone(),
      ],
      examples: [`trackctl ${kind} list`, `trackctl ${kind} list --sort-by lastBatteryLevel --limit 5 -o wide`, `trackctl ${kind} list -o name`, `trackctl ${kind} list --group 102 --inactive -o json`, `trackctl ${kind} list -o csv --fields did,name,lastBatteryLevel`],
      load: async () => (await import('./list.js')).runFor(kind),
    }),
    defineCommand({
      name: 'get',
      summary: `Show one ${one} by id, unique ID or tracker ID`,
      args: [{ spec: '[did]', help: `${one} id` }],
      options: [text('--unique-id <serial>', 'look up by unique ID (serial number)'), text('--tracker-id <imei>', 'look up by tracker ID (IMEI/MEID)'), zone()],
      examples: devices ? ['trackctl devices get 2004', 'trackctl devices get --tracker-id 357494414214035 -o json'] : ['trackctl sensors get 2016', 'trackctl sensors get --unique-id TAG-O6VIZB -o json'],
      load: async () => (await import('./get.js')).runFor(kind),
    }),
    defineCommand({
      name: 'create',
      summary: `Create a ${one}`,
      options: [
        text('--name <name>', `${one} name`),
        devices ? text('--tracker-id <imei>', 'tracker ID (IMEI/MEID)') : text('--unique-id <serial>', 'unique ID (serial number)'),
        text('--type <model>', 'model identifier (deviceType)'),
        text('--sim-phone <number>', 'telephone number of its SIM card'),
      ],
      examples: [devices ? 'trackctl devices create --name "Van 7" --tracker-id 356938035643809 --type TT8850' : 'trackctl sensors create --name "Cold room" --unique-id SN-20931 --type TAG-T1'],
      load: async () => (await import('./create.js')).runFor(kind),
    }),
    defineCommand({
      name: 'update',
      summary: `Rename, (de)activate or regroup a ${one}`,
      args: [{ spec: '<did>', help: `${one} id` }],
      options: [
        text('--name <name>', 'new name'),
        flag('--active', 'mark active', { conflicts: ['inactive'] }),
        flag('--inactive', 'mark inactive', { conflicts: ['active'] }),
        list('--add-group <gids>', 'add to groups (1,2,3 or repeat the flag)'),
        list('--remove-group <gids>', 'remove from groups (1,2,3 or repeat the flag)'),
      ],
      examples: devices
        ? ['trackctl devices update 2004 --name "Van 1b" --inactive', 'trackctl devices update 2004 --add-group 102 --remove-group 101,103']
        : ['trackctl sensors update 2016 --name "Cold room 2" --inactive', 'trackctl sensors update 2016 --add-group 102,103 --remove-group 101'],
      load: async () => (await import('./update.js')).runFor(kind),
    }),
    defineCommand({
      name: 'delete',
      aliases: ['rm'],
      summary: `Delete ${kind}; continues past failures and reports each`,
      args: [{ spec: '<did...>', help: `${one} ids` }],
      options: [],
      examples: [devices ? 'trackctl devices delete 2012 2013 --yes' : 'trackctl sensors delete 2018 2019 --yes'],
      load: async () => (await import('./delete.js')).runFor(kind),
    }),
  ] as const;
}

export function registerUnits(program: Command, ctx: Context, kind: UnitKind): void {
  const noun = program
    .command(kind)
    .description(kind === 'devices' ? 'Manage devices (GPS trackers)' : 'Manage sensors (environmental tags)');
  const [ls, get, create, update, remove] = unitVerbs(kind);
  registerCommand(noun, ls, ctx);
  registerCommand(noun, get, ctx);
  registerCommand(noun, create, ctx);
  registerCommand(noun, update, ctx);
  registerCommand(noun, remove, ctx);
  registerImport(noun, ctx, kind);
}
