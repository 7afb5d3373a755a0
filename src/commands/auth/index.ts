/** login, logout and token: signing in for people, scripts and CI; declared. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, flag, registerCommand, strictChoice, text } from '../declare.js';
import { zone } from '../shared-options.js';

const email = () => text('--email <address>', 'account e-mail address (env TRACKCTL_EMAIL)');
const passwordStdin = () => flag('--password-stdin', 'read the password from standard input');

export const login = defineCommand({
  name: 'login',
  summary: 'Sign in: OAuth token for /v2/ endpoints and a session cookie for the others (both by default)',
  options: [
    email(),
    passwordStdin(),
    strictChoice('--method <method>', ['token', 'session', 'both'], 'which sign-in to perform', { fallback: 'both' }),
    text('--client-id <id>', "OAuth client id (default: the profile's client-id)"),
    flag('--save-password', 'also keep the password in the credential store, so sessions renew unattended'),
  ],
  examples: ['trackctl login', 'echo "$PASSWORD" | trackctl login --email ops@example.com --password-stdin', 'trackctl login --method token -p staging'],
  load: () => import('./login.js'),
});

export const loginStatus = defineCommand({
  name: 'status',
  summary: 'Show the current login (GET /login/) and the credentials stored locally',
  options: [zone()],
  examples: ['trackctl login status', 'trackctl login status -o json'],
  load: () => import('./status.js'),
});

export const logout = defineCommand({
  name: 'logout',
  summary: 'Forget the stored credentials of this profile',
  options: [flag('--all', 'forget the credentials of every profile')],
  examples: ['trackctl logout', 'trackctl logout --all --yes'],
  load: () => import('./logout.js'),
});

export const tokenVerbs = [
  defineCommand({
    name: 'create',
    summary: 'Get a new access token with the password grant and store it',
    options: [email(), passwordStdin(), text('--client-id <id>', 'OAuth client id'), zone()],
    examples: ['trackctl token create --email ops@example.com', 'echo "$PASSWORD" | trackctl token create --email ops@example.com --password-stdin'],
    load: async () => (await import('./token.js')).create,
  }),
  defineCommand({
    name: 'refresh',
    summary: 'Renew the access token with the refresh grant',
    options: [zone()],
    examples: ['trackctl token refresh', 'trackctl token refresh -p staging'],
    load: async () => (await import('./token.js')).refresh,
  }),
  defineCommand({
    name: 'show',
    summary: "Show the access token's claims, account and user ids and time left (never the token)",
    options: [zone()],
    examples: ['trackctl token show', 'trackctl token show -o json | jq .secondsLeft'],
    load: async () => (await import('./token.js')).show,
  }),
  defineCommand({
    name: 'print',
    summary: 'Print the raw access token (renewed first if expired), for curl',
    options: [],
    examples: ['curl -H "Authorization: Bearer $(trackctl token print)" https://…/v2/devices/'],
    load: async () => (await import('./token.js')).print,
  }),
] as const;

export function registerAuth(program: Command, ctx: Context): void {
  registerCommand(registerCommand(program, login, ctx), loginStatus, ctx);
  registerCommand(program, logout, ctx);
  const token = program.command('token').description('OAuth access tokens: create, refresh, inspect, print for curl');
  for (const verb of tokenVerbs) registerCommand(token, verb, ctx);
}
