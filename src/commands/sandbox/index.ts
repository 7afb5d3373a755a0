/** `trackctl sandbox start|reset|depots`: wiring only; the sandbox itself loads when a verb runs. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples } from '../action.js';
import type { StartOptions } from './start.js';
import type { ResetOptions } from './reset.js';
import type { DepotsOptions } from './depots.js';

export function registerSandbox(program: Command, ctx: Context): void {
  const sandbox = program
    .command('sandbox')
    .description('Run the embedded simulator of the service, to rehearse scripts and run tests against');

  sandbox
    .command('start')
    .description('Serve the sandbox until interrupted; prints "base-url: <url>" as the first line of stdout')
    .option('--port <n>', 'port to listen on (0 = any free port)', '0')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--state <file>', 'persist state to this file (default: <data dir>/sandbox-state.json)')
    .option('--memory', 'keep state in memory only (nothing is written)')
    .option('--seed <n>', 'seed of the demo fleet, its history and injected faults', '1')
    .option('--devices <n>', 'extra generated devices, for scale tests', '0')
    .option('--faults <spec>', 'inject faults, e.g. latency=50ms,error=0.1,429=0.05,drop-after=0.02,seed=7')
    .option('--access-ttl <seconds>', 'access-token lifetime', '3600')
    .option('--refresh-ttl <seconds>', 'refresh-token lifetime', String(30 * 24 * 3600))
    .option('--session-ttl <seconds>', 'session-cookie lifetime', String(24 * 3600))
    .option('--bench-reports <n>', 'number of reports in the history of the bench unit', '1000000')
    .option('--log', 'print one line per request on stderr')
    .addHelpText(
      'after',
      examples(
        'trackctl sandbox start',
        'trackctl sandbox start --port 8080 --memory --log',
        'trackctl sandbox start --faults "error=0.1,status=502|503,429=0.05,retry-after=1,seed=7"',
        'trackctl sandbox start --memory > sandbox.out & sleep 1; export TRACKCTL_BASE_URL=$(head -1 sandbox.out | cut -d" " -f2)',
      ) + '\nDemo account: demo@example.com / demo. Control endpoints: see docs/sandbox.md (/_sandbox/...).\n',
    )
    .action(async (opts: StartOptions) => {
      const { runStart } = await import('./start.js');
      await runStart(opts, ctx);
    });

  sandbox
    .command('reset')
    .description('Delete the persisted sandbox state; the next start seeds a fresh demo fleet')
    .option('--state <file>', 'the state file (default: <data dir>/sandbox-state.json)')
    .addHelpText('after', examples('trackctl sandbox reset', 'trackctl sandbox reset --state ./sandbox.json'))
    .action(async (opts: ResetOptions) => {
      const { runReset } = await import('./reset.js');
      await runReset(opts, ctx);
    });

  sandbox
    .command('depots')
    .description('Print the demo fleet\'s depots as GeoJSON polygons (name, and speedLimit on some), for --geofence')
    .option('--seed <n>', 'seed of the sandbox the depots belong to (as given to sandbox start)', '1')
    .addHelpText(
      'after',
      examples(
        'trackctl sandbox depots > depots.geojson',
        'trackctl sandbox depots --seed 7 > depots.geojson',
        'trackctl report geofence --geofence depots.geojson --all-units --from 1d --sandbox',
      ) + '\nThe default seed\'s depots ship as docs/depots.geojson. A running sandbox serves its own at GET /_sandbox/depots.\n',
    )
    .action(async (opts: DepotsOptions) => {
      const { runDepots } = await import('./depots.js');
      await runDepots(opts, ctx);
    });
}
