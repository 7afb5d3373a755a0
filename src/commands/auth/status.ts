import { AuthError, TrackctlError } from '../../errors.js';
import type { Context } from '../../context.js';
import type { LoginData } from '../../api/auth.js';
import { renderRecord, type Column } from '../../io/formats/output.js';
import type { Run } from '../action.js';

interface Status extends Record<string, unknown> {
  profile: string;
  source: string;
  store?: string;
  email?: string;
  accessTokenExpiresAt?: number;
  accessTokenSecondsLeft?: number;
  refreshToken: boolean;
  /** From the interface's stated lifetime (a month), counted from the grant that issued it. */
  refreshTokenExpiresAt?: number;
  sessionCookie: boolean;
  /** As the cookie's Max-Age or Expires said; absent when it said nothing. */
  sessionExpiresAt?: number;
  passwordSaved: boolean;
  login?: LoginData;
  loginError?: string;
}

const COLUMNS: Column[] = [
  { key: 'profile', header: 'PROFILE' },
  { key: 'source', header: 'CREDENTIALS FROM' },
  { key: 'store', header: 'STORE' },
  { key: 'email', header: 'E-MAIL' },
  { key: 'accessTokenExpiresAt', header: 'ACCESS TOKEN EXPIRES', kind: 'age', none: '—' },
  { key: 'accessTokenSecondsLeft', header: 'ACCESS TOKEN LEFT', kind: 'duration' },
  { key: 'refreshToken', header: 'REFRESH TOKEN', kind: 'bool' },
  { key: 'refreshTokenExpiresAt', header: 'REFRESH TOKEN EXPIRES', kind: 'age', none: '—' },
  { key: 'sessionCookie', header: 'SESSION COOKIE', kind: 'bool' },
  { key: 'sessionExpiresAt', header: 'SESSION EXPIRES', kind: 'age', none: '—' },
  { key: 'passwordSaved', header: 'PASSWORD SAVED', kind: 'bool' },
  { key: 'loginName', header: 'SIGNED IN AS', value: (r) => (r.login as LoginData | undefined)?.name },
  { key: 'sessionCheck', header: 'SESSION CHECK', value: (r) => r.loginError ?? (r.login ? 'ok' : 'not checked') },
];

async function currentLogin(ctx: Context): Promise<{ login?: LoginData; loginError?: string }> {
  try {
    const api = await ctx.api();
    return { login: (await api.json({ method: 'GET', path: '/login/', auth: 'session' })) as LoginData };
  } catch (err) {
    if (err instanceof TrackctlError) return { loginError: err.message };
    throw err;
  }
}

export const run: Run<{ tz?: string }> = async (_args, _opts, ctx) => {
  const settings = await ctx.settings();
  const session = await ctx.session();
  const creds = await session.current();
  const source = await session.source();
  const status: Status = {
    profile: settings.profile,
    source,
    refreshToken: Boolean(creds.refreshToken),
    sessionCookie: Boolean(creds.cookies),
    passwordSaved: Boolean(creds.password),
  };
  if (source === 'keychain' || source === 'file') status.store = (await ctx.secrets()).location;
  if (creds.email) status.email = creds.email;
  if (creds.accessToken && creds.accessExpiresAt !== undefined) {
    status.accessTokenExpiresAt = creds.accessExpiresAt;
    status.accessTokenSecondsLeft = creds.accessExpiresAt - Math.floor(ctx.clock.now() / 1000);
  }
  if (creds.refreshToken && creds.refreshExpiresAt !== undefined) status.refreshTokenExpiresAt = creds.refreshExpiresAt;
  if (creds.cookies && creds.sessionExpiresAt !== undefined) status.sessionExpiresAt = creds.sessionExpiresAt;
  const signedIn = Boolean(creds.accessToken || creds.cookies || source === 'environment' || source === 'sandbox');
  if (signedIn) Object.assign(status, await currentLogin(ctx));
  await renderRecord(status, COLUMNS, await ctx.output());
  if (!signedIn) throw new AuthError('not signed in', { hint: 'Run: trackctl login' });
};
