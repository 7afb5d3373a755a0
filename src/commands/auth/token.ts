import { AuthError } from '../../errors.js';
import { decodeJwt, subjectIds } from '../../auth/jwt.js';
import { renderRecord, type Column } from '../../io/formats/output.js';
import type { Context } from '../../context.js';
import type { Run } from '../action.js';
import { emailAndPassword, type CredentialFlags } from './credentials-input.js';

const CLAIM_COLUMNS: Column[] = [
  { key: 'aid', header: 'ACCOUNT' },
  { key: 'uid', header: 'USER' },
  { key: 'aud', header: 'AUDIENCE' },
  { key: 'scopes', header: 'SCOPES', kind: 'list' },
  { key: 'iat', header: 'ISSUED', kind: 'age' },
  { key: 'exp', header: 'EXPIRES', kind: 'age' },
  { key: 'secondsLeft', header: 'SECONDS LEFT', kind: 'number', tone: (r) => (Number(r.secondsLeft) <= 0 ? 'bad' : undefined) },
  { key: 'source', header: 'SOURCE' },
];

async function requireToken(ctx: Context, opts: { force?: boolean } = {}): Promise<string> {
  const token = await (await ctx.session()).accessToken(opts);
  if (!token) throw new AuthError('no access token is available', { hint: 'Run: trackctl login --method token (or both)' });
  return token;
}

export const create: { run: Run<CredentialFlags & { clientId?: string }> } = {
  run: async (_args, opts, ctx) => {
    const { email, password } = await emailAndPassword(ctx, opts);
    const creds = await (await ctx.session()).login({ email, password, method: 'token', clientId: opts.clientId, savePassword: false });
    if (!ctx.globals.quiet) ctx.io.err(`New access token stored; it expires at ${new Date((creds.accessExpiresAt ?? 0) * 1000).toISOString()}.`);
  },
};

export const refresh: { run: Run<Record<string, never>> } = {
  run: async (_args, _opts, ctx) => {
    const token = await requireToken(ctx, { force: true });
    const exp = decodeJwt(token)?.claims.exp;
    if (!ctx.globals.quiet) ctx.io.err(`Access token renewed${exp ? `; it expires at ${new Date(exp * 1000).toISOString()}` : ''}.`);
  },
};

export const show: { run: Run<Record<string, never>> } = {
  run: async (_args, _opts, ctx) => {
    const session = await ctx.session();
    const creds = await session.current();
    const token = creds.accessToken;
    if (!token) throw new AuthError('no access token is stored', { hint: 'Run: trackctl login --method token (or both)' });
    const decoded = decodeJwt(token);
    if (!decoded) throw new AuthError('the stored access token is not a JWT', { hint: 'Run: trackctl login' });
    const { claims } = decoded;
    const record = {
      ...subjectIds(claims.sub),
      ...claims,
      secondsLeft: typeof claims.exp === 'number' ? claims.exp - Math.floor(ctx.clock.now() / 1000) : undefined,
      source: await session.source(),
    };
    await renderRecord(record, CLAIM_COLUMNS, await ctx.output());
  },
};

export const print: { run: Run<Record<string, never>> } = {
  run: async (_args, _opts, ctx) => {
    await ctx.io.out(`${await requireToken(ctx)}\n`);
  },
};
