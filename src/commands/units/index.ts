/** `units`: every unit and user of the account in one table (GET /all-units/). A top-level command, not a group. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, duration, number, registerCommand } from '../declare.js';
import { listing, strictCategory, zone } from '../shared-options.js';
import { percent, seconds } from '../values.js';

// Kept literal (= UNIT_CATEGORIES of api/all-units.ts) so that registering loads no API code.
const CATEGORIES = ['device', 'sensor', 'trackedUser', 'dispatcher'] as const;

export const units = defineCommand({
  name: 'units',
  summary: 'List every unit of the account in one table: devices, sensors, tracked users and dispatchers, with last report and battery',
  options: [
    ...listing(),
    strictCategory(CATEGORIES, 'only this category'),
    duration('--stale <duration>', 'only units whose last report is older than this, e.g. 1d, 6h', seconds()),
    number('--low-battery <pct>', 'only units whose battery is below this percentage, e.g. 20', percent),
    zone(),
  ],
  examples: ['trackctl units', 'trackctl units --stale 1d', 'trackctl units --category sensor --low-battery 25 -o json', 'trackctl units -o csv --fields category,id,name,lastBatteryLevel'],
  footer:
    '\nOn a terminal a summary line (counts, stale units, low batteries) follows on stderr; --quiet drops it.\n' +
    '-o html: a map page of the units\' last positions, coloured by state (moving: reported in the last 10 min;\n' +
    'stale: no report for the --stale time, default 1d; stopped: between); trackctl map units opens it.\n',
  load: () => import('./list.js'),
});

export function registerAllUnits(program: Command, ctx: Context): void {
  registerCommand(program, units, ctx);
}
