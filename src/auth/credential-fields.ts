/**
 * The stored credentials a sign-in's reply gives (credential-session.ts saves them): an access
 * token with its expiry and subject ids from its claims, the account ids of a cookie login.
 */
import { decodeJwt, subjectIds } from './jwt.js';
import type { TokenReply } from './sign-in.js';
import type { StoredCredentials } from './store/index.js';

export function tokenFields(reply: TokenReply, nowS: number): StoredCredentials {
  const claims = decodeJwt(reply.access_token)?.claims;
  return {
    accessToken: reply.access_token,
    accessExpiresAt: typeof claims?.exp === 'number' ? claims.exp : nowS + reply.expires_in,
    refreshToken: reply.refresh_token,
    ...subjectIds(claims?.sub),
  };
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
