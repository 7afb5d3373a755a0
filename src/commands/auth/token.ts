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
  { key: 'secondsLeft', header: 'TIME LEFT', kind: 'duration', tone: (r) => (Number(r.secondsLeft) <= 0 ? 'bad' : undefined) },
  { key: 'source', header: 'SOURCE' },
  { key: 'nbf', header: 'VALID FROM', kind: 'age' },
  { key: 'jti', header: 'TOKEN ID' },
  { key: 'sub', header: 'SUBJECT' },
];

/** When a token lapses, for people: "in 59 min (2026-11-29 20:56 Asia/Tokyo)". */
async function expiryText(exp: number, ctx: Context): Promise<string> {
  const { formatClock, formatRelative } = await import('../../io/format-time.js');
  const zone = await ctx.timeZone();
  const { date, time } = formatClock(exp, zone);
  return `${formatRelative(exp, ctx.clock.now())} (${date} ${time} ${zone})`;
}

async function requireToken(ctx: Context, opts: { force?: boolean } = {}): Promise<string> {
  const token = await (await ctx.session()).accessToken(opts);
  if (!token) throw new AuthError('no access token is available', { hint: 'Run: trackctl login --method token (or both)' });
  return token;
}

export const create: { run: Run<CredentialFlags & { clientId?: string; tz?: string }> } = {
  run: async (_args, opts, ctx) => {
    const { email, password } = await emailAndPassword(ctx, opts);
    const creds = await (await ctx.session()).login({ email, password, method: 'token', clientId: opts.clientId, savePassword: false });
    if (!ctx.globals.quiet) ctx.io.err(`New access token stored; it expires ${await expiryText(creds.accessExpiresAt ?? 0, ctx)}.`);
  },
};

export const refresh: { run: Run<{ tz?: string }> } = {
  run: async (_args, _opts, ctx) => {
    const token = await requireToken(ctx, { force: true });
    const exp = decodeJwt(token)?.claims.exp;
    if (!ctx.globals.quiet) ctx.io.err(`Access token renewed${exp ? `; it expires ${await expiryText(exp, ctx)}` : ''}.`);
  },
};

export const show: { run: Run<{ tz?: string }> } = {
  run: async (_args, _opts, ctx) => {
    const session = await ctx.session();
    const source = await session.source();
    // Signed in by the environment or the sandbox: the token is got when first needed, so now.
    if (!(await session.current()).accessToken && (source === 'environment' || source === 'sandbox')) await session.accessToken();
    const token = (await session.current()).accessToken;
    if (!token) throw new AuthError('no access token is stored', { hint: 'Run: trackctl login --method token (or both)' });
    const decoded = decodeJwt(token);
    if (!decoded) throw new AuthError('the stored access token is not a JWT', { hint: 'Run: trackctl login' });
    const { claims } = decoded;
    const record = {
      ...subjectIds(claims.sub),
      ...claims,
      secondsLeft: typeof claims.exp === 'number' ? claims.exp - Math.floor(ctx.clock.now() / 1000) : undefined,
      source,
    };
    await renderRecord(record, CLAIM_COLUMNS, await ctx.output());
  },
};

export const print: { run: Run<Record<string, never>> } = {
  run: async (_args, _opts, ctx) => {
    await ctx.io.out(`${await requireToken(ctx)}\n`);
  },
};
