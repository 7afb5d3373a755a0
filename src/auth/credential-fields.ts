/**
 * The stored credentials a sign-in's reply gives (credential-session.ts saves them): an access
 * token with its expiry and subject ids from its claims, the account ids of a cookie login.
 */
import { decodeJwt, subjectIds } from './jwt.js';
import type { TokenReply } from './sign-in.js';
import type { StoredCredentials } from './store/index.js';

/** The refresh token's life, as the interface states it ("1 month"; the reply does not say): 30 days. */
export const REFRESH_LIFETIME_S = 30 * 86_400;

/** `held`: the credentials before the grant; a refresh token the reply hands back unchanged keeps its expiry. */
export function tokenFields(reply: TokenReply, nowS: number, held?: StoredCredentials): StoredCredentials {
  const claims = decodeJwt(reply.access_token)?.claims;
  const sameRefresh = held?.refreshToken === reply.refresh_token && held.refreshExpiresAt !== undefined;
  return {
    accessToken: reply.access_token,
    accessExpiresAt: typeof claims?.exp === 'number' ? claims.exp : nowS + reply.expires_in,
    refreshToken: reply.refresh_token,
    refreshExpiresAt: sameRefresh ? held.refreshExpiresAt : nowS + REFRESH_LIFETIME_S,
    ...subjectIds(claims?.sub),
  };
}

/** A new session's dates: made now, lapsing after `lifetimeS` when the cookie said (else no expiry is kept). */
export function sessionFields(nowS: number, lifetimeS: number | undefined): Pick<StoredCredentials, 'sessionCreatedAt' | 'sessionExpiresAt'> {
  return { sessionCreatedAt: nowS, sessionExpiresAt: lifetimeS === undefined ? undefined : nowS + lifetimeS };
}

export function withTokenExpiry(creds: StoredCredentials): StoredCredentials {
  const claims = creds.accessToken ? decodeJwt(creds.accessToken)?.claims : undefined;
  return { ...creds, accessExpiresAt: claims?.exp, ...subjectIds(claims?.sub) };
}

export function ids(data: { aid?: unknown; uid?: unknown }): { aid?: number; uid?: number } {
  return {
    ...(typeof data.aid === 'number' ? { aid: data.aid } : {}),
    ...(typeof data.uid === 'number' ? { uid: data.uid } : {}),
  };
}
