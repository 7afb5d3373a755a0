/** `shares`: location share links for a device or a group, their URLs and embeds. */
import { listOptions } from '../list-options.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, lazyAction } from '../action.js';
import { zoneOption } from '../time-options.js';

export function registerShares(program: Command, ctx: Context): void {
  const noun = program.command('shares').description('Manage location share links of a device or a group');

  listOptions(noun
    .command('list'))
    .alias('ls')
    .description('List location shares; expired ones are flagged')
    .addOption(zoneOption())
    .addHelpText('after', examples('trackctl shares list', 'trackctl shares list -o json', 'trackctl shares list -o csv --fields sid,name,expiration'))
    .action(lazyAction(ctx, () => import('./list.js')));

  noun
    .command('get')
    .description('Show one location share')
    .argument('<sid>', 'share id')
    .addOption(zoneOption())
    .addHelpText('after', examples('trackctl shares get Jyjs2YFhY4vA', 'trackctl shares get Jyjs2YFhY4vA -o json'))
    .action(lazyAction(ctx, () => import('./get.js')));

  noun
    .command('create')
    .description('Create a share link for one device or one group; without an expiry flag it never expires')
    .option('--device <did>', 'share this device')
    .option('--group <gid>', 'share this group')
    .option('--name <name>', 'share name')
    .option('--expires <time>', 'expire at a time: unix seconds, ISO 8601 (without an offset: in the zone), friday (the next), 3d (from now), or never')
    .addOption(zoneOption())
    .option('--expires-in <duration>', 'expire after a duration counted by the service, e.g. 45m, 2d, 2d3h30m')
    .addHelpText(
      'after',
      examples(
        'trackctl shares create --device 2004 --name "Customer ETA"',
        'trackctl shares create --group 101 --name "Depot map" --expires 2026-12-31T18:00:00Z',
        'trackctl shares create --device 2004 --name "Delivery 4471" --expires-in 2d3h30m',
      ),
    )
    .action(lazyAction(ctx, () => import('./create.js')));

  noun
    .command('update')
    .description('Rename a share or move its expiry (only name and expiry can change)')
    .argument('<sid>', 'share id')
    .option('--name <name>', 'new name')
    .option('--expires <time>', 'new expiry: unix seconds, ISO 8601 (without an offset: in the zone), friday (the next), or 3d (from now)')
    .addOption(zoneOption())
    .addHelpText('after', examples('trackctl shares update Jyjs2YFhY4vA --name "ETA (Tue)"', 'trackctl shares update Jyjs2YFhY4vA --expires 7d'))
    .action(lazyAction(ctx, () => import('./update.js')));

  noun
    .command('delete')
    .alias('rm')
    .description('Delete location shares; continues past failures and reports each')
    .argument('<sid...>', 'share ids')
    .addHelpText('after', examples('trackctl shares delete cVsWhVbbLIEc --yes', 'trackctl shares delete Jyjs2YFhY4vA --yes -o json'))
    .action(lazyAction(ctx, () => import('./delete.js')));

  noun
    .command('url')
    .description('Print the public link of a share (no request is sent)')
    .argument('<sid>', 'share id')
    .addHelpText('after', examples('trackctl shares url DyyRCTE92kQz', 'open "$(trackctl shares url DyyRCTE92kQz)"'))
    .action(lazyAction(ctx, () => import('./url.js')));

  noun
    .command('embed')
    .description('Print an inline-frame snippet that embeds a share in a web page (no request is sent)')
    .argument('<sid>', 'share id')
    .option('--width <px>', 'frame width in pixels', '420')
    .option('--height <px>', 'frame height in pixels', '380')
    .addHelpText('after', examples('trackctl shares embed DyyRCTE92kQz', 'trackctl shares embed DyyRCTE92kQz --width 640 --height 480 >> page.html'))
    .action(lazyAction(ctx, () => import('./embed.js')));
}
