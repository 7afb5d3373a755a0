/** `devices` and `sensors`: the same verbs over /v2/devices/ and /v2/sensors/. */
import { listOptions } from '../list-options.js';
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import type { UnitKind } from '../../api/units.js';
import { collect, examples, lazyAction } from '../action.js';
import { zoneOption } from '../time-options.js';
import { registerImport } from '../import/index.js';

export function registerUnits(program: Command, ctx: Context, kind: UnitKind): void {
  const one = kind === 'devices' ? 'device' : 'sensor';
  const key = kind === 'devices' ? { flag: '--tracker-id <imei>', what: 'tracker ID (IMEI/MEID)' } : { flag: '--unique-id <serial>', what: 'unique ID (serial number)' };
  const noun = program
    .command(kind)
    .description(kind === 'devices' ? 'Manage devices (GPS trackers)' : 'Manage sensors (environmental tags)');

  listOptions(noun
    .command('list'))
    .alias('ls')
    .description(`List ${kind}`)
    .option('--group <gid>', `only ${kind} in this group`)
    .addOption(new Option('--active', `only active ${kind}`).conflicts('inactive'))
    .addOption(new Option('--inactive', `only inactive ${kind}`).conflicts('active'))
    .addOption(zoneOption())
    .addHelpText('after', examples(`trackctl ${kind} list`, `trackctl ${kind} list --sort-by lastBatteryLevel --limit 5 -o wide`, `trackctl ${kind} list -o name`, `trackctl ${kind} list --group 102 --inactive -o json`, `trackctl ${kind} list -o csv --fields did,name,lastBatteryLevel`))
    .action(lazyAction(ctx, async () => (await import('./list.js')).runFor(kind)));

  noun
    .command('get')
    .description(`Show one ${one} by id, unique ID or tracker ID`)
    .argument('[did]', `${one} id`)
    .option('--unique-id <serial>', `look up by unique ID (serial number)`)
    .option('--tracker-id <imei>', `look up by tracker ID (IMEI/MEID)`)
    .addOption(zoneOption())
    .addHelpText('after', examples(...(kind === 'devices' ? ['trackctl devices get 2004', 'trackctl devices get --tracker-id 357494414214035 -o json'] : ['trackctl sensors get 2016', 'trackctl sensors get --unique-id TAG-O6VIZB -o json'])))
    .action(lazyAction(ctx, async () => (await import('./get.js')).runFor(kind)));

  noun
    .command('create')
    .description(`Create a ${one}`)
    .option('--name <name>', `${one} name`)
    .option(key.flag, key.what)
    .option('--type <model>', 'model identifier (deviceType)')
    .option('--sim-phone <number>', 'telephone number of its SIM card')
    .addHelpText(
      'after',
      examples(
        kind === 'devices'
          ? `trackctl devices create --name "Van 7" --tracker-id 356938035643809 --type TT8850`
          : `trackctl sensors create --name "Cold room" --unique-id SN-20931 --type TAG-T1`,
      ),
    )
    .action(lazyAction(ctx, async () => (await import('./create.js')).runFor(kind)));

  noun
    .command('update')
    .description(`Rename, (de)activate or regroup a ${one}`)
    .argument('<did>', `${one} id`)
    .option('--name <name>', 'new name')
    .addOption(new Option('--active', 'mark active').conflicts('inactive'))
    .addOption(new Option('--inactive', 'mark inactive').conflicts('active'))
    .option('--add-group <gids>', 'add to groups (1,2,3 or repeat the flag)', collect)
    .option('--remove-group <gids>', 'remove from groups (1,2,3 or repeat the flag)', collect)
    .addHelpText('after', examples(...(kind === 'devices' ? ['trackctl devices update 2004 --name "Van 1b" --inactive', 'trackctl devices update 2004 --add-group 102 --remove-group 101,103'] : ['trackctl sensors update 2016 --name "Cold room 2" --inactive', 'trackctl sensors update 2016 --add-group 102,103 --remove-group 101'])))
    .action(lazyAction(ctx, async () => (await import('./update.js')).runFor(kind)));

  noun
    .command('delete')
    .alias('rm')
    .description(`Delete ${kind}; continues past failures and reports each`)
    .argument('<did...>', `${one} ids`)
    .addHelpText('after', examples(kind === 'devices' ? 'trackctl devices delete 2012 2013 --yes' : 'trackctl sensors delete 2018 2019 --yes'))
    .action(lazyAction(ctx, async () => (await import('./delete.js')).runFor(kind)));

  registerImport(noun, ctx, kind);
}
