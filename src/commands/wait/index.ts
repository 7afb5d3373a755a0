/** `wait`: one top-level verb, declared: its flags, help and examples. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, duration, flag, registerCommand, text } from '../declare.js';
import { selection, zone } from '../shared-options.js';
import { seconds } from '../values.js';

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

export const wait = defineCommand({
  name: 'wait',
  summary: 'Wait until units meet a condition (reporting, moving, stopped, stale, inside/outside a fence, low battery)',
  args: [{ spec: '[ids...]', help: 'unit ids, or choose with --group, --category or --all-units' }],
  options: [
    text('--for <condition>', 'the condition: reporting, moving, stopped, stale=D, inside=FILE, outside=FILE, battery_low=PCT'),
    duration('--timeout <duration>', 'give up after this long: exit 8 (default: wait until met or Ctrl-C)', seconds()),
    duration('--interval <duration>', 'time between polls of each unit', seconds(), { default: '10s' }),
    flag('--all', 'several units: every one must meet the condition (the default)'),
    flag('--any', 'several units: the first that meets the condition ends the wait'),
    ...selection(),
    zone(),
  ],
  notes: `${HELP}\n`,
  examples: [
    'trackctl wait 2004 --for reporting --timeout 10m',
    'trackctl wait 2004 --for inside=depot.geojson -o json | jq .time',
    'trackctl wait 2004 2005 --all --for stopped --interval 30s',
    'trackctl wait --group 101 --any --for battery_low=15 && ./page.sh',
    'trackctl wait 2004 --for stale=2h --timeout 1h; [ $? -eq 8 ] && echo "still reporting"',
  ],
  load: () => import('./run.js'),
});

export function registerWait(program: Command, ctx: Context): void {
  registerCommand(program, wait, ctx);
}
