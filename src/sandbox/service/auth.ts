/**
 * Authentication: OAuth password and refresh grants issuing HS256 JWTs (signed with
 * node:crypto HMAC, secret kept in state), rotating opaque refresh tokens, and cookie sessions.
 * Expiry follows the sandbox clock.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { badRequest, invalidValue, unauthorized } from '../errors.js';
import type { Principal, UserEntry } from '../types.js';
import { type Body, objectBody, onlyFields, requiredString } from '../validate.js';
import type { Db } from './db.js';
import { findUserByEmail } from './users.js';

export const SESSION_COOKIE = 'track_session';

const b64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');

function sign(secret: string, input: string): string {
  return createHmac('sha256', Buffer.from(secret, 'hex')).update(input).digest('base64url');
}

export function issueAccessToken(db: Db, user: UserEntry, clientId: string): string {
  const now = db.now();
  const header = b64url(JSON.stringify({ typ: 'JWT', alg: 'HS256' }));
  const payload = b64url(
    JSON.stringify({
      aud: clientId,
      jti: randomUUID().replace(/-/g, ''),
      iat: now,
      nbf: now,
      exp: now + db.ttl.access,
      sub: `${db.state.aid}:${user.uid}`,
      scopes: ['all'],
    }),
  );
  return `${header}.${payload}.${sign(db.state.secret, `${header}.${payload}`)}`;
}

/** The principal a bearer token names, or a 401 saying what is wrong with it. */
export function verifyAccessToken(db: Db, token: string): Principal {
  const parts = token.split('.');
  if (parts.length !== 3) throw unauthorized('malformed access token (expected a JWT)');
  const [h, p, s] = parts as [string, string, string];
  const expected = Buffer.from(sign(db.state.secret, `${h}.${p}`));
  const given = Buffer.from(s);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw unauthorized('invalid access token signature');
  }
  let claims: { exp?: unknown; nbf?: unknown; sub?: unknown };
  try {
    const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as { alg?: unknown };
    if (header.alg !== 'HS256') throw new Error('alg');
    claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    throw unauthorized('malformed access token');
  }
  const now = db.now();
  if (typeof claims.exp !== 'number' || now >= claims.exp) throw unauthorized('access token has expired');
  if (typeof claims.nbf !== 'number' || now < claims.nbf) throw unauthorized('access token is not valid yet');
  const m = typeof claims.sub === 'string' ? /^(\d+):(\d+)$/.exec(claims.sub) : null;
  if (!m) throw unauthorized('malformed access token subject');
  const uid = Number(m[2]);
  if (Number(m[1]) !== db.state.aid || !db.state.users[uid]) throw unauthorized('the user of this access token no longer exists');
  return { aid: db.state.aid, uid, via: 'bearer' };
}

function issueRefreshToken(db: Db, uid: number, clientId: string): string {
  const token = randomBytes(32).toString('base64url');
  db.state.refreshTokens[token] = { uid, clientId, exp: db.now() + db.ttl.refresh };
  return token;
}

function checkGrant(body: Body, grant: string): string {
  const g = requiredString(body, 'grant_type');
  if (g !== grant) throw invalidValue(`grant_type must be ${grant} for this request, got "${g}"`, 'grant_type');
  const scope = requiredString(body, 'scope');
  if (scope !== 'all') throw invalidValue(`scope must be "all", got "${scope}"`, 'scope');
  return requiredString(body, 'client_id');
}

function tokenReply(db: Db, user: UserEntry, clientId: string, success: string): Record<string, unknown> {
  const access = issueAccessToken(db, user, clientId);
  const refresh = issueRefreshToken(db, user.uid, clientId);
  db.persist();
  return { token_type: 'Bearer', expires_in: db.ttl.access, access_token: access, refresh_token: refresh, success };
}

function checkPassword(db: Db, address: string, password: string): UserEntry {
  const user = findUserByEmail(db, address);
  const stored = user ? db.state.passwords[user.uid] : undefined;
  if (!user || stored === undefined || stored !== password) throw unauthorized('wrong e-mail address or password');
  if (user.isActive !== 1) throw unauthorized('this user is not active');
  return user;
}

export function passwordGrant(db: Db, raw: unknown): Record<string, unknown> {
  const body = objectBody(raw);
  onlyFields(body, ['grant_type', 'scope', 'client_id', 'username', 'password']);
  const clientId = checkGrant(body, 'password');
  const user = checkPassword(db, requiredString(body, 'username'), requiredString(body, 'password'));
  return tokenReply(db, user, clientId, 'Access token has been issued successfully!');
}

/** The refresh grant rotates: the presented refresh token stops working. */
export function refreshGrant(db: Db, raw: unknown): Record<string, unknown> {
  if (raw === undefined) throw badRequest('the refresh grant needs a JSON body (GET with a body)');
  const body = objectBody(raw);
  onlyFields(body, ['grant_type', 'scope', 'client_id', 'refresh_token']);
  const clientId = checkGrant(body, 'refresh_token');
  const token = requiredString(body, 'refresh_token');
  const entry = db.state.refreshTokens[token];
  if (!entry) throw unauthorized('unknown or already used refresh token');
  delete db.state.refreshTokens[token];
  if (db.now() >= entry.exp) {
    db.persist();
    throw unauthorized('refresh token has expired');
  }
  if (entry.clientId !== clientId) throw unauthorized('refresh token was issued to another client_id');
  const user = db.state.users[entry.uid];
  if (!user) throw unauthorized('the user of this refresh token no longer exists');
  return tokenReply(db, user, clientId, 'Access token has been refreshed successfully!');
}

export function loginData(db: Db, user: UserEntry, withDid: boolean, success: string): Record<string, unknown> {
  const rec: Record<string, unknown> = { success, aid: db.state.aid, uid: user.uid };
  if (withDid) rec.did = user.did ?? 0;
  Object.assign(rec, {
    name: user.name,
    accountState: 'Active',
    accountType: 'Business',
    userType: user.userType,
    loginLevel: user.loginLevel,
    hasDevice: user.did !== undefined,
  });
  return rec;
}

/** Cookie sign-in: returns the login data and the new session id. */
export function sessionLogin(db: Db, raw: unknown): { data: Record<string, unknown>; session: string } {
  const body = objectBody(raw);
  onlyFields(body, ['email', 'password']);
  const user = checkPassword(db, requiredString(body, 'email'), requiredString(body, 'password'));
  const session = randomBytes(24).toString('base64url');
  db.state.sessions[session] = { uid: user.uid, exp: db.now() + db.ttl.session };
  user.lastLoginTime = db.now();
  db.commit(true);
  return { data: loginData(db, user, false, 'Logged in successfully!'), session };
}

export function verifySession(db: Db, session: string): Principal {
  const entry = db.state.sessions[session];
  if (!entry) throw unauthorized('unknown session cookie; sign in with POST /api/login/');
  if (db.now() >= entry.exp) throw unauthorized('session has expired; sign in again with POST /api/login/');
  if (!db.state.users[entry.uid]) throw unauthorized('the user of this session no longer exists');
  return { aid: db.state.aid, uid: entry.uid, via: 'cookie' };
}
