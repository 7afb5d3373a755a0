/** login, logout and token: signing in for people, scripts and CI. */
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { examples, lazyAction } from '../action.js';

export function registerAuth(program: Command, ctx: Context): void {
  const login = program
    .command('login')
    .description('Sign in: OAuth token for /v2/ endpoints and a session cookie for the others (both by default)')
    .option('--email <address>', 'account e-mail address (env TRACKCTL_EMAIL)')
    .option('--password-stdin', 'read the password from standard input')
    .addOption(new Option('--method <method>', 'which sign-in to perform').choices(['token', 'session', 'both']).default('both'))
    .option('--client-id <id>', 'OAuth client id (default: the profile\'s client-id)')
    .option('--save-password', 'also keep the password in the credential store, so sessions renew unattended')
    .addHelpText(
      'after',
      examples('trackctl login', 'echo "$PASSWORD" | trackctl login --email ops@example.com --password-stdin', 'trackctl login --method token -p staging'),
    )
    .action(lazyAction(ctx, async () => import('./login.js')));

  login
    .command('status')
    .description('Show the current login (GET /login/) and the credentials stored locally')
    .addHelpText('after', examples('trackctl login status', 'trackctl login status -o json'))
    .action(lazyAction(ctx, async () => import('./status.js')));

  program
    .command('logout')
    .description('Forget the stored credentials of this profile')
    .option('--all', 'forget the credentials of every profile')
    .addHelpText('after', examples('trackctl logout', 'trackctl logout --all --yes'))
    .action(lazyAction(ctx, async () => import('./logout.js')));

  const token = program.command('token').description('OAuth access tokens: create, refresh, inspect, print for curl');
  token
    .command('create')
    .description('Get a new access token with the password grant and store it')
    .option('--email <address>', 'account e-mail address (env TRACKCTL_EMAIL)')
    .option('--password-stdin', 'read the password from standard input')
    .option('--client-id <id>', 'OAuth client id')
    .addHelpText('after', examples('trackctl token create --email ops@example.com', 'echo "$PASSWORD" | trackctl token create --email ops@example.com --password-stdin'))
    .action(lazyAction(ctx, async () => (await import('./token.js')).create));
  token
    .command('refresh')
    .description('Renew the access token with the refresh grant')
    .addHelpText('after', examples('trackctl token refresh', 'trackctl token refresh -p staging'))
    .action(lazyAction(ctx, async () => (await import('./token.js')).refresh));
  token
    .command('show')
    .description("Show the access token's claims, account and user ids and time left (never the token)")
    .addHelpText('after', examples('trackctl token show', 'trackctl token show -o json | jq .secondsLeft'))
    .action(lazyAction(ctx, async () => (await import('./token.js')).show));
  token
    .command('print')
    .description('Print the raw access token (renewed first if expired), for curl')
    .addHelpText('after', examples('curl -H "Authorization: Bearer $(trackctl token print)" https://…/v2/devices/'))
    .action(lazyAction(ctx, async () => (await import('./token.js')).print));
}
