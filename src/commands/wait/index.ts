/** `wait`: one top-level verb, its flags and help. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, lazyAction } from '../action.js';
import { zoneOption } from '../time-options.js';

const HELP = `
Conditions (--for): reporting, a report received after the wait began (late ones included);
moving or stopped, the unit's motion as watch judges it (motion_state reports, else speed);
stale=D, no report for D, e.g. stale=2h (a unit that never reported is stale); inside=FILE, the
newest position is inside a polygon of FILE (GeoJSON, as for watch --geofence); outside=FILE, it
is outside every polygon of FILE; battery_low=PCT, the newest battery level is below PCT. The
names are watch's event names (battery-below and report are read too).

A condition that holds already is met at once (except reporting). Otherwise each unit's history
is polled every --interval (default 10s) with lastQueryTime, as watch does, and the wait returns as
soon as the condition holds, printing the report that met it: did, name, condition, time (when it
held: the report's date; for stale, last report + D), date, lat, lng, speed, battery, address,
reportType (and fence for inside). One unit, or --any: one record (-o json prints an object);
several with --all (the default): one record per unit as each meets it (-o json: an array).

--timeout D gives up after D (wall-clock, from the start): exit 8, with the units that did not meet
the condition named on stderr; a request in flight then is abandoned. A unit never seen in that time
(every request failed: a 5xx, the network) is no timeout: the wait fails with the last failure's exit
code (1 the service, 6 the network), as the condition was never checked. Without it, the wait lasts
until the condition holds, Ctrl-C (exit 130) or SIGTERM (exit 143). For wait, --timeout bounds the
whole wait, and each
request within it.`;

export function registerWait(program: Command, ctx: Context): void {
  program
    .command('wait')
    .description('Wait until units meet a condition (reporting, moving, stopped, stale, inside/outside a fence, low battery)')
    .argument('[ids...]', 'unit ids, or choose with --group, --category or --all-units')
    .option('--for <condition>', 'the condition: reporting, moving, stopped, stale=D, inside=FILE, outside=FILE, battery_low=PCT')
    .option('--timeout <duration>', 'give up after this long: exit 8 (default: wait until met or Ctrl-C)')
    .option('--interval <duration>', 'time between polls of each unit (default 10s)')
    .option('--all', 'several units: every one must meet the condition (the default)')
    .option('--any', 'several units: the first that meets the condition ends the wait')
    .option('--group <gid>', 'the units of group GID')
    .option('--category <category>', 'every unit of this category: device, sensor or trackedUser')
    .option('--all-units', 'every unit of the account')
    .addOption(zoneOption())
    .addHelpText('after', HELP)
    .addHelpText(
      'after',
      examples(
        'trackctl wait 2004 --for reporting --timeout 10m',
        'trackctl wait 2004 --for inside=depot.geojson -o json | jq .time',
        'trackctl wait 2004 2005 --all --for stopped --interval 30s',
        'trackctl wait --group 101 --any --for battery_low=15 && ./page.sh',
        'trackctl wait 2004 --for stale=2h --timeout 1h; [ $? -eq 8 ] && echo "still reporting"',
      ),
    )
    .action(lazyAction(ctx, async () => import('./run.js')));
}
