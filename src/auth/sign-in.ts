/**
 * What a session asks of the service to sign in and renew, as plain calls: the HTTP layer
 * (api/auth.ts) implements them and the context hands them to the session, so credentials
 * stay below the HTTP layer.
 */
export interface TokenReply {
  token_type: string;
  expires_in: number;
  access_token: string;
  refresh_token: string;
}

export interface LoginData {
  aid?: number;
  uid?: number;
  did?: number;
  name?: string;
  accountState?: string;
  accountType?: string;
  userType?: string;
  loginLevel?: string;
  hasDevice?: boolean;
  [key: string]: unknown;
}

export interface SignIn {
  /** The OAuth password grant. */
  passwordGrant(p: { clientId: string; email: string; password: string }): Promise<TokenReply>;
  /** The OAuth refresh grant. */
  refreshGrant(p: { clientId: string; refreshToken: string }): Promise<TokenReply>;
  /** The cookie login: the login data, the Cookie header to send from now on, and the seconds until the first of its cookies lapses (undefined: not stated). */
  cookieLogin(p: { email: string; password: string }): Promise<{ data: LoginData; cookies: string; lifetimeS?: number }>;
}
