/**
 * What a session is: the interface through which the HTTP layer gets the credentials for a
 * request and commands sign in and out, and what one is built from (SessionDeps). The one
 * implementation, and where its credentials come from, is credential-session.ts.
 */
import type { SignIn } from './sign-in.js';
import type { SecretStore, StoredCredentials } from './store/index.js';

export type AuthMode = 'auto' | 'token' | 'session' | 'none';
export type CredentialSource = 'environment' | 'sandbox' | 'keychain' | 'file' | 'memory';

export interface AuthHeaders {
  authorization?: string;
  cookie?: string;
}

export interface Session {
  /** Where the credentials in use come from. */
  source(): Promise<CredentialSource>;
  /** What is held right now (after loading), for `login status` and `token show`. */
  current(): Promise<StoredCredentials>;
  credentialsFor(path: string, mode: AuthMode): Promise<AuthHeaders>;
  /** After a 401: renew what was sent. True when something new may be tried. */
  renew(used: AuthHeaders): Promise<boolean>;
  /** What to do when the service refuses the credentials in use for `path`: it depends on where they came from. */
  signInHint(path: string): string;
  /** A fresh access token (renewed first when it has under a minute left). */
  accessToken(opts?: { force?: boolean }): Promise<string | undefined>;
  login(p: LoginParams): Promise<StoredCredentials>;
  logout(all: boolean): Promise<string[]>;
}

export interface LoginParams {
  email: string;
  password: string;
  method: 'token' | 'session' | 'both';
  clientId?: string;
  savePassword: boolean;
}

/** What a session needs: plain values and the few services it calls, never the command's context. */
export interface SessionDeps {
  /** The service's sign-in calls. */
  signIn: SignIn;
  profile: string;
  clientId: string;
  sandbox: boolean;
  env: NodeJS.ProcessEnv;
  /** Milliseconds since the epoch (the context's clock). */
  now: () => number;
  secrets: () => Promise<SecretStore>;
  /** Where the profile's lock lives (`<dataDir>/locks`). */
  dataDir: string;
}
