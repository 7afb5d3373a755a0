/**
 * The sign-in endpoints: the OAuth password and refresh grants (the refresh
 * grant is a GET with a JSON body) and the cookie login.
 */
import { ApiError, AuthError } from '../errors.js';
import type { LoginData, SignIn, TokenReply } from '../auth/sign-in.js';
import type { HttpClient, HttpResponse } from './http.js';
import { excerpt, parseJsonObject } from './reply.js';

export type { LoginData, TokenReply };

/** The sign-in calls over `http`, as the session takes them (it knows no HTTP layer). */
export function signInOver(http: HttpClient): SignIn {
  return {
    passwordGrant: (p) => passwordGrant(http, p),
    refreshGrant: (p) => refreshGrant(http, p),
    cookieLogin: (p) => cookieLogin(http, p),
  };
}

function tokenReply(res: HttpResponse, what: string): TokenReply {
  if (res.status === 400 || res.status === 401 || res.status === 403) {
    throw new AuthError(`${what} was refused (${res.status}): ${messageOf(res)}`, { hint: 'Sign in again with: trackctl login' });
  }
  if (res.status < 200 || res.status >= 300) throw new ApiError(`${what} failed (${res.status}): ${messageOf(res)}`, res.status);
  const body = parseJsonObject(res);
  if (typeof body.access_token !== 'string' || typeof body.refresh_token !== 'string' || typeof body.expires_in !== 'number') {
    throw new ApiError(`${what}: the token reply lacks access_token, refresh_token or expires_in`, res.status);
  }
  return body as unknown as TokenReply;
}

function messageOf(res: HttpResponse): string {
  try {
    const body = JSON.parse(res.text) as { message?: unknown };
    if (typeof body.message === 'string') return excerpt(body.message);
  } catch {
    // fall through
  }
  return excerpt(res.text);
}

export async function passwordGrant(http: HttpClient, p: { clientId: string; email: string; password: string }): Promise<TokenReply> {
  const res = await http.send({
    method: 'POST',
    path: '/v2/access-token/',
    body: { grant_type: 'password', scope: 'all', client_id: p.clientId, username: p.email, password: p.password },
  });
  return tokenReply(res, 'sign-in (password grant)');
}

export async function refreshGrant(http: HttpClient, p: { clientId: string; refreshToken: string }): Promise<TokenReply> {
  const res = await http.send({
    method: 'GET',
    path: '/v2/access-token/',
    body: { grant_type: 'refresh_token', scope: 'all', client_id: p.clientId, refresh_token: p.refreshToken },
  });
  return tokenReply(res, 'token refresh');
}

/** POST /api/login/: returns the login data and the Cookie header to send from now on. */
export async function cookieLogin(http: HttpClient, p: { email: string; password: string }): Promise<{ data: LoginData; cookies: string; lifetimeS?: number }> {
  const res = await http.send({ method: 'POST', path: '/api/login/', body: { email: p.email, password: p.password } });
  if (res.status === 400 || res.status === 401 || res.status === 403) {
    throw new AuthError(`sign-in was refused (${res.status}): ${messageOf(res)}`, { hint: 'Check the e-mail address and password.' });
  }
  if (res.status < 200 || res.status >= 300) throw new ApiError(`sign-in failed (${res.status}): ${messageOf(res)}`, res.status);
  const data = parseJsonObject(res) as LoginData;
  const cookies = cookieHeader(res.headers['set-cookie']);
  if (!cookies) throw new ApiError('sign-in succeeded but the service set no session cookie', res.status);
  return { data, cookies, lifetimeS: cookieLifetime(res.headers['set-cookie'], res.headers.date) };
}

/**
 * Seconds until the first of the cookies lapses: its Max-Age, else its Expires counted from the
 * reply's Date (else this machine's clock); undefined when none says (a cookie for the session).
 */
export function cookieLifetime(setCookie: string | string[] | undefined, date: string | string[] | undefined): number | undefined {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  const sent = Date.parse(String(Array.isArray(date) ? date[0] : (date ?? '')));
  const now = Number.isNaN(sent) ? Date.now() : sent;
  let least: number | undefined;
  for (const cookie of list) {
    const attrs = cookie.split(';').slice(1).map((a) => a.trim());
    const maxAge = attrs.find((a) => /^max-age=/i.test(a));
    const expires = attrs.find((a) => /^expires=/i.test(a));
    let seconds: number | undefined;
    if (maxAge !== undefined && /^-?\d+$/.test(maxAge.slice(8))) seconds = Math.max(0, Number(maxAge.slice(8)));
    else if (expires !== undefined && !Number.isNaN(Date.parse(expires.slice(8)))) seconds = Math.max(0, Math.round((Date.parse(expires.slice(8)) - now) / 1000));
    if (seconds !== undefined && (least === undefined || seconds < least)) least = seconds;
  }
  return least;
}

/** "a=1; Path=/; HttpOnly", "b=2" → "a=1; b=2" */
export function cookieHeader(setCookie: string | string[] | undefined): string {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  return list
    .map((c) => c.split(';')[0]?.trim() ?? '')
    .filter((pair) => pair.includes('='))
    .join('; ');
}
