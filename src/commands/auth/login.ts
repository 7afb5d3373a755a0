import type { Run } from '../action.js';
import { emailAndPassword, type CredentialFlags } from './credentials-input.js';

interface LoginOptions extends CredentialFlags {
  method: 'token' | 'session' | 'both';
  clientId?: string;
  savePassword?: boolean;
}

export const run: Run<LoginOptions> = async (_args, opts, ctx) => {
  const { email, password } = await emailAndPassword(ctx, opts);
  const session = await ctx.session();
  const creds = await session.login({ email, password, method: opts.method, clientId: opts.clientId, savePassword: Boolean(opts.savePassword) });
  const secrets = await ctx.secrets();
  if (!ctx.globals.quiet) {
    const what = opts.method === 'both' ? 'access token and session cookie' : opts.method === 'token' ? 'access token' : 'session cookie';
    ctx.io.err(`Signed in as ${email}${creds.uid ? ` (user ${creds.uid}, account ${creds.aid})` : ''}; ${what} stored in ${secrets.location}.`);
  }
};
