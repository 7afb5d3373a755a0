/** `map`: a map page of history or of the units, opened in the browser. A top-level command, declared. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, registerCommand } from '../declare.js';

export const mapCommand = defineCommand({
  name: 'map',
  summary: 'Open a map in the browser: history tracks, trips and stops, or where the units are (the page -o html writes, in a temporary file)',
  usage: '<history|units|report> [options of that command]',
  args: [
    { spec: '<command>', help: 'history, units or report (trips or stops)' },
    { spec: '[args...]', help: 'its ids and options, as that command takes them' },
  ],
  options: [],
  // The words after the command are that command's: map hands them on unread.
  passThrough: true,
  helpFlag: 'show help for map (trackctl history --help: the options of history)',
  notes:
    '\nRuns the command with -o html into a temporary file. On a terminal it opens the file in the\n' +
    'default browser ($BROWSER, else xdg-open, open or start) and says where it is on stderr;\n' +
    'elsewhere it prints the path on stdout. The page is self-contained: it opens with no network\n' +
    '(OpenStreetMap tiles load when online). To keep a page, use -o html > FILE instead.\n',
  examples: ['trackctl map history 2004', 'trackctl map history --group 101 --from 2026-11-20 --to 2026-11-21', 'trackctl map report trips 2004 --from 1d', 'trackctl map units', 'trackctl map units --stale 1d'],
  load: () => import('./run.js'),
});

export function registerMap(program: Command, ctx: Context): void {
  registerCommand(program, mapCommand, ctx);
}
