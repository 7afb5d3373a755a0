/** `api`: raw passthrough to any endpoint with the stored credentials. */
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { examples, lazyAction } from '../action.js';

export function registerApi(program: Command, ctx: Context): void {
  program
    .command('api')
    .description('Send a request to any endpoint with the stored credentials and print the reply body')
    .argument('<path>', 'path below the base URL, e.g. /v2/devices/')
    .addOption(new Option('-X, --method <method>', 'HTTP method').choices(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('GET'))
    .option('-d, --data <json>', 'JSON body: literal, @file, or - for standard input')
    .addOption(new Option('--auth <mechanism>', 'credentials to send: auto sends the token on /v2/ and the cookie where held').choices(['auto', 'token', 'session', 'none']).default('auto'))
    .addHelpText(
      'after',
      examples('trackctl api /v2/devices/', "trackctl api /v2/groups/ -X POST -d '{\"name\":\"Vans\"}'", 'trackctl api /users/ --auth session | jq .resultCount'),
    )
    .action(lazyAction(ctx, async () => import('./api.js')));
}
