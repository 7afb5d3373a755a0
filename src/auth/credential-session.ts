/**
 * Where credentials come from and how they stay fresh. First match wins:
 * environment (TRACKCTL_TOKEN; TRACKCTL_EMAIL + TRACKCTL_PASSWORD) → the secret
 * store (keychain, else the 0600 file). With an environment credential the
 * store is never opened. An access token with under a minute left is renewed
 * first; renewal of stored tokens happens under an inter-process lock so that
 * parallel processes refresh once.
 */
import { join } from 'node:path';
import { AuthError } from '../errors.js';
import { ids, sessionFields, tokenFields, withTokenExpiry } from './credential-fields.js';
import type { AuthHeaders, AuthMode, CredentialSource, LoginParams, Session, SessionDeps } from './session.js';
import type { SignIn, TokenReply } from './sign-in.js';
import type { SecretStore, StoredCredentials } from './store/index.js';

/** Seconds of life under which an access token is renewed before use. */
export const RENEW_MARGIN_S = 60;
const SANDBOX_LOGIN = { email: 'demo@example.com', password: 'demo' };

/** API v2 paths take the bearer token; the others take the session cookie only. */
export function isVersioned(path: string): boolean {
  return path.startsWith('/v2/');
}

export function createSession(deps: SessionDeps): Session {
  const env = deps.env;
  const envLogin = deps.sandbox
    ? SANDBOX_LOGIN
    : env.TRACKCTL_EMAIL && env.TRACKCTL_PASSWORD
      ? { email: env.TRACKCTL_EMAIL, password: env.TRACKCTL_PASSWORD }
      : undefined;
  return new CredentialSession(deps, {
    envToken: deps.sandbox ? undefined : env.TRACKCTL_TOKEN || undefined,
    envLogin,
    sandbox: deps.sandbox,
  });
}

class CredentialSession implements Session {
  private creds: StoredCredentials | undefined;
  private store: SecretStore | undefined;

  private readonly service: SignIn;
  private readonly profile: string;
  private readonly clientId: string;

  constructor(
    private readonly deps: SessionDeps,
    private readonly from: { envToken?: string; envLogin?: { email: string; password: string }; sandbox: boolean },
  ) {
    this.service = deps.signIn;
    this.profile = deps.profile;
    this.clientId = deps.clientId;
  }

  private get fromEnvironment(): boolean {
    return Boolean(this.from.envToken || this.from.envLogin);
  }

  private nowS(): number {
    return Math.floor(this.deps.now() / 1000);
  }

  private async secretStore(): Promise<SecretStore> {
    return (this.store ??= await this.deps.secrets());
  }

  async current(): Promise<StoredCredentials> {
    if (this.creds) return this.creds;
    if (this.from.envToken) return (this.creds = withTokenExpiry({ accessToken: this.from.envToken }));
    if (this.from.envLogin) return (this.creds = { email: this.from.envLogin.email });
    return (this.creds = (await (await this.secretStore()).load(this.profile)) ?? {});
  }

  async source(): Promise<CredentialSource> {
    if (this.from.sandbox) return 'sandbox';
    if (this.fromEnvironment) return 'environment';
    return (await this.secretStore()).kind;
  }

  private password(): string | undefined {
    return this.from.envLogin?.password ?? this.creds?.password;
  }

  private async save(next: StoredCredentials): Promise<void> {
    this.creds = next;
    if (!this.fromEnvironment) await (await this.secretStore()).save(this.profile, next);
  }

  async credentialsFor(path: string, mode: AuthMode): Promise<AuthHeaders> {
    const versioned = isVersioned(path);
    const creds = await this.current();
    const headers: AuthHeaders = {};
    if (mode === 'token' || (mode === 'auto' && versioned)) {
      const token = await this.accessToken();
      if (token) headers.authorization = `Bearer ${token}`;
    }
    if (mode === 'session' || mode === 'auto') {
      // Cookies go wherever they are held; a new cookie login only where nothing else will do.
      const needed = mode === 'session' || !headers.authorization;
      const cookies = creds.cookies ?? (needed && this.password() ? await this.cookieLogin() : undefined);
      if (cookies) headers.cookie = cookies;
    }
    if (!headers.authorization && !headers.cookie) throw this.notSignedIn(path, versioned, mode);
    if (!versioned && mode === 'auto' && !headers.cookie) throw this.notSignedIn(path, versioned, mode);
    return headers;
  }

  private notSignedIn(path: string, versioned: boolean, mode: AuthMode): AuthError {
    const held = this.creds?.accessToken || this.from.envToken;
    if (held && (!versioned || mode === 'session')) {
      return new AuthError(`${path} needs a session cookie, and only an access token is available`, {
        hint: 'Access tokens work for /v2/ endpoints only. Sign in with: trackctl login --method both (or set TRACKCTL_EMAIL and TRACKCTL_PASSWORD)',
      });
    }
    return new AuthError('not signed in', {
      hint: 'Run: trackctl login  (scripts: set TRACKCTL_TOKEN, or TRACKCTL_EMAIL and TRACKCTL_PASSWORD)',
    });
  }

  signInHint(path: string): string {
    if (this.from.envToken) return 'TRACKCTL_TOKEN was refused: set a current token (trackctl token print gives one), or unset it to use the stored sign-in';
    if (this.from.envLogin && !this.from.sandbox) return 'The credentials come from TRACKCTL_EMAIL and TRACKCTL_PASSWORD: check them';
    return isVersioned(path)
      ? 'Sign in again with: trackctl login'
      : 'This endpoint needs a session cookie. Sign in again with: trackctl login --method session (or both)';
  }

  /** A sign-in with environment credentials that fails says to check them, not to run `trackctl login`. */
  private async signIn<T>(path: string, attempt: () => Promise<T>): Promise<T> {
    try {
      return await attempt();
    } catch (err) {
      if (err instanceof AuthError && this.from.envLogin && !this.from.sandbox) err.hint = this.signInHint(path);
      throw err;
    }
  }

  async accessToken(opts: { force?: boolean } = {}): Promise<string | undefined> {
    const creds = await this.current();
    if (this.from.envToken) return this.from.envToken;
    const fresh = creds.accessToken && (creds.accessExpiresAt ?? 0) - this.nowS() > RENEW_MARGIN_S;
    if (fresh && !opts.force) return creds.accessToken;
    if (creds.refreshToken && !this.fromEnvironment) return this.refreshUnderLock(creds.accessToken);
    const password = this.password();
    const email = creds.email ?? this.from.envLogin?.email;
    if (password && email) {
      const reply = await this.signIn('/v2/', () => this.service.passwordGrant({ clientId: this.clientId, email, password }));
      await this.save({ ...creds, ...tokenFields(reply, this.nowS(), creds) });
      return this.creds?.accessToken;
    }
    return fresh ? creds.accessToken : undefined;
  }

  /** Renews a stored token once across processes: whoever holds the lock refreshes, the rest re-read. */
  private async refreshUnderLock(stale: string | undefined): Promise<string | undefined> {
    const store = await this.secretStore();
    const lockPath = join(this.deps.dataDir, 'locks', `${this.profile}.lock`);
    const { withFileLock } = await import('../lock.js');
    return withFileLock(lockPath, async () => {
      const latest = (await store.load(this.profile)) ?? {};
      const renewedElsewhere =
        latest.accessToken && latest.accessToken !== stale && (latest.accessExpiresAt ?? 0) - this.nowS() > RENEW_MARGIN_S;
      if (renewedElsewhere) {
        this.creds = latest;
        return latest.accessToken;
      }
      if (!latest.refreshToken) throw new AuthError('signed out meanwhile', { hint: 'Run: trackctl login' });
      let reply: TokenReply;
      try {
        reply = await this.service.refreshGrant({ clientId: latest.clientId ?? this.clientId, refreshToken: latest.refreshToken });
      } catch (err) {
        if (!(err instanceof AuthError) || !latest.password || !latest.email) throw err;
        reply = await this.service.passwordGrant({ clientId: latest.clientId ?? this.clientId, email: latest.email, password: latest.password });
      }
      await this.save({ ...latest, ...tokenFields(reply, this.nowS(), latest) });
      return this.creds?.accessToken;
    });
  }

  private async cookieLogin(): Promise<string> {
    const creds = await this.current();
    const email = creds.email ?? this.from.envLogin?.email;
    const password = this.password();
    if (!email || !password) throw new AuthError('the session expired and no password is available to renew it', { hint: 'Run: trackctl login' });
    const { data, cookies, lifetimeS } = await this.signIn('/login/', () => this.service.cookieLogin({ email, password }));
    await this.save({ ...(this.creds ?? {}), email, cookies, ...sessionFields(this.nowS(), lifetimeS), ...ids(data) });
    return cookies;
  }

  async renew(used: AuthHeaders): Promise<boolean> {
    if (used.authorization) {
      if (this.from.envToken) return false;
      const token = await this.accessToken({ force: true }).catch((err: unknown) => {
        if (err instanceof AuthError) return undefined;
        throw err;
      });
      if (token && `Bearer ${token}` !== used.authorization) return true;
    }
    if (used.cookie) {
      if (!this.password()) {
        if (this.creds?.cookies === used.cookie) await this.save({ ...this.creds, cookies: undefined });
        return false;
      }
      await this.cookieLogin();
      return true;
    }
    return false;
  }

  async login(p: LoginParams): Promise<StoredCredentials> {
    const clientId = p.clientId ?? this.clientId;
    // Signing in one way keeps the other way's credentials of the same account (stored below,
    // whatever the password's source: `token create` with TRACKCTL_PASSWORD keeps the cookie).
    const held = await (await this.secretStore()).load(this.profile);
    const next: StoredCredentials = held?.email === p.email && held.clientId === clientId ? { ...held } : { email: p.email, clientId };
    if (!p.savePassword) delete next.password;
    if (p.method !== 'session') Object.assign(next, tokenFields(await this.service.passwordGrant({ clientId, email: p.email, password: p.password }), this.nowS(), next));
    if (p.method !== 'token') {
      const { data, cookies, lifetimeS } = await this.service.cookieLogin({ email: p.email, password: p.password });
      Object.assign(next, { cookies, ...sessionFields(this.nowS(), lifetimeS), ...ids(data) });
    }
    if (p.savePassword) next.password = p.password;
    this.creds = next;
    await (await this.secretStore()).save(this.profile, next);
    return next;
  }

  async logout(all: boolean): Promise<string[]> {
    const store = await this.secretStore();
    const profiles = all ? ((await store.profiles?.()) ?? [this.profile]) : [this.profile];
    for (const name of profiles) await store.remove(name);
    this.creds = {};
    return profiles;
  }
}
