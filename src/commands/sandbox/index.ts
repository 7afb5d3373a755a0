/** `trackctl sandbox start|reset|depots`: declared; the sandbox itself loads when a verb runs. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, flag, int, registerCommand, text } from '../declare.js';
import { whole } from '../values.js';

/** --seed: the demo fleet's, as `sandbox start` and `sandbox depots` take it. */
const seed = (help: string) => int('--seed <n>', help, whole(0, 2 ** 32 - 1), { fallback: '1' });

const TEN_YEARS_S = 10 * 365 * 86400;

export const startCommand = defineCommand({
  name: 'start',
  summary: 'Serve the sandbox until interrupted; prints "base-url: <url>" as the first line of stdout',
  options: [
    int('--port <n>', 'port to listen on (0 = any free port)', whole(0, 65535), { fallback: '0' }),
    text('--host <address>', 'address to listen on', { fallback: '127.0.0.1' }),
    text('--state <file>', 'persist state to this file (default: <data dir>/sandbox-state.json)'),
    flag('--memory', 'keep state in memory only (nothing is written)'),
    seed('seed of the demo fleet, its history and injected faults'),
    int('--devices <n>', 'extra generated devices, for scale tests', whole(0, 10_000_000), { fallback: '0' }),
    text('--faults <spec>', 'inject faults, e.g. latency=50ms,error=0.1,429=0.05,drop-after=0.02,seed=7'),
    int('--access-ttl <seconds>', 'access-token lifetime', whole(1, TEN_YEARS_S), { fallback: '3600' }),
    int('--refresh-ttl <seconds>', 'refresh-token lifetime', whole(1, TEN_YEARS_S), { fallback: String(30 * 24 * 3600) }),
    int('--session-ttl <seconds>', 'session-cookie lifetime', whole(1, TEN_YEARS_S), { fallback: String(24 * 3600) }),
    int('--bench-reports <n>', 'number of reports in the history of the bench unit', whole(0, 100_000_000), { fallback: '1000000' }),
    flag('--log', 'print one line per request on stderr'),
  ],
  examples: [
    'trackctl sandbox start',
    'trackctl sandbox start --port 8080 --memory --log',
    'trackctl sandbox start --faults "error=0.1,status=502|503,429=0.05,retry-after=1,seed=7"',
    'trackctl sandbox start --memory > sandbox.out & sleep 1; export TRACKCTL_BASE_URL=$(head -1 sandbox.out | cut -d" " -f2)',
  ],
  footer: '\nDemo account: demo@example.com / demo. Control endpoints: see docs/sandbox.md (/_sandbox/...).\n',
  load: () => import('./start.js'),
});

export const resetCommand = defineCommand({
  name: 'reset',
  summary: 'Delete the persisted sandbox state; the next start seeds a fresh demo fleet',
  options: [text('--state <file>', 'the state file (default: <data dir>/sandbox-state.json)')],
  examples: ['trackctl sandbox reset', 'trackctl sandbox reset --state ./sandbox.json'],
  load: () => import('./reset.js'),
});

export const depotsCommand = defineCommand({
  name: 'depots',
  summary: "Print the demo fleet's depots as GeoJSON polygons (name, and speedLimit on some), for --geofence",
  options: [seed('seed of the sandbox the depots belong to (as given to sandbox start)')],
  examples: [
    'trackctl sandbox depots > depots.geojson',
    'trackctl sandbox depots --seed 7 > depots.geojson',
    'trackctl report geofence --geofence depots.geojson --all-units --from 1d --sandbox',
  ],
  footer: "\nThe default seed's depots ship as docs/depots.geojson. A running sandbox serves its own at GET /_sandbox/depots.\n",
  load: () => import('./depots.js'),
});

export function registerSandbox(program: Command, ctx: Context): void {
  const sandbox = program.command('sandbox').description('Run the embedded simulator of the service, to rehearse scripts and run tests against');
  registerCommand(sandbox, startCommand, ctx);
  registerCommand(sandbox, resetCommand, ctx);
  registerCommand(sandbox, depotsCommand, ctx);
}
