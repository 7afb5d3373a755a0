/** `api`: raw passthrough to any endpoint with the stored credentials; declared. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, registerCommand, strictChoice, text } from '../declare.js';

export const api = defineCommand({
  name: 'api',
  summary: 'Send a request to any endpoint with the stored credentials and print the reply body',
  args: [{ spec: '<path>', help: 'path below the base URL, e.g. /v2/devices/' }],
  options: [
    strictChoice('-X, --method <method>', ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], 'HTTP method (default: GET, or POST with --data, as gh api)'),
    text('-d, --data <json>', 'JSON body: literal, @file, or - for standard input'),
    strictChoice('--auth <mechanism>', ['auto', 'token', 'session', 'none'], 'credentials to send: auto sends the token on /v2/ and the cookie where held', { fallback: 'auto' }),
  ],
  notes: `The reply body is printed as the service sent it (-o and --fields do not apply; --jq and
--template do), an error reply's too, on stdout; the exit code follows the status (4 for a 404,
3 for a 401, 1 for any other failure).
`,
  examples: ['trackctl api /v2/devices/', "trackctl api /v2/groups/ -d '{\"name\":\"Vans\"}'", 'trackctl api /users/ --auth session | jq .resultCount'],
  load: () => import('./api.js'),
});

export function registerApi(program: Command, ctx: Context): void {
  registerCommand(program, api, ctx);
}
