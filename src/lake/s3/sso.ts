/**
 * IAM Identity Center (SSO): the access token that `aws sso login` left in
 * ~/.aws/sso/cache/<sha1 of the session name, or of the start URL for a legacy profile>.json,
 * traded at the SSO portal for the role's credentials. trackctl never signs in itself nor
 * renews that token: when it has expired, `aws sso login` again.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError, AuthError, NetworkError, UsageError } from '../../errors.js';
import type { TemporaryCredentials } from './refresh.js';
import { exchange, type RemoteLimits } from './wire.js';

export interface SsoSettings {
  profile: string;
  /** The [sso-session NAME] the profile names, undefined for a legacy profile (sso_start_url in the profile). */
  session: string | undefined;
  startUrl: string;
  region: string;
  accountId: string;
  roleName: string;
  /** AWS_ENDPOINT_URL_SSO (or AWS_ENDPOINT_URL), else https://portal.sso.REGION.amazonaws.com. */
  endpoint: URL;
  home: string;
  /** --retries and --timeout: the portal is a remote service, tried as hard as the object store. */
  limits: RemoteLimits;
}

export function ssoPortal(region: string): URL {
  return new URL(`https://portal.sso.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}/`);
}

async function cachedToken(s: SsoSettings, now: number): Promise<string> {
  const file = join(s.home, '.aws', 'sso', 'cache', `${createHash('sha1').update(s.session ?? s.startUrl).digest('hex')}.json`);
  const login = `aws sso login --profile ${s.profile}`;
  let cached: { accessToken?: unknown; expiresAt?: unknown };
  try {
    cached = JSON.parse(await readFile(file, 'utf8')) as typeof cached;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new AuthError(`no SSO sign-in for the AWS profile "${s.profile}" (${file} does not exist)`, { hint: `Run \`${login}\`.` });
    throw new UsageError(`cannot read the SSO token cache ${file}: ${(err as Error).message}`);
  }
  const expires = typeof cached.expiresAt === 'string' ? Date.parse(cached.expiresAt) : NaN;
  if (typeof cached.accessToken !== 'string' || Number.isNaN(expires)) throw new UsageError(`the SSO token cache ${file} has no accessToken or expiresAt`);
  if (expires <= now) throw new AuthError(`the SSO sign-in for the AWS profile "${s.profile}" expired at ${new Date(expires).toISOString()}`, { hint: `Run \`${login}\`.` });
  return cached.accessToken;
}

export async function ssoCredentials(s: SsoSettings, now: number): Promise<TemporaryCredentials> {
  const token = await cachedToken(s, now);
  const url = new URL('federation/credentials', s.endpoint.href.endsWith('/') ? s.endpoint : `${s.endpoint.href}/`);
  url.searchParams.set('account_id', s.accountId);
  url.searchParams.set('role_name', s.roleName);
  const what = `SSO GetRoleCredentials ${s.roleName} in ${s.accountId} at ${url.host}`;
  let reply;
  try {
    reply = await exchange(url, { method: 'GET', headers: { 'x-amz-sso_bearer_token': token }, timeoutMs: s.limits.timeoutMs, proxy: true, retries: s.limits.retries });
  } catch (err) {
    throw new NetworkError(`${what}: ${(err as Error).message}`, { cause: err });
  }
  if (reply.status === 401 || reply.status === 403) throw new AuthError(`${what}: HTTP ${reply.status}, the sign-in was refused`, { hint: `Run \`aws sso login --profile ${s.profile}\`; check the account and role.` });
  if (reply.status !== 200) throw new ApiError(`${what}: HTTP ${reply.status}`, reply.status);
  let role: { accessKeyId?: unknown; secretAccessKey?: unknown; sessionToken?: unknown; expiration?: unknown } | undefined;
  try {
    role = (JSON.parse(reply.body) as { roleCredentials?: typeof role }).roleCredentials;
  } catch {
    throw new ApiError(`${what}: the reply is not JSON`, reply.status);
  }
  if (typeof role?.accessKeyId !== 'string' || typeof role.secretAccessKey !== 'string' || typeof role.sessionToken !== 'string' || typeof role.expiration !== 'number') {
    throw new ApiError(`${what}: the reply holds no credentials`, reply.status);
  }
  return { accessKeyId: role.accessKeyId, secretAccessKey: role.secretAccessKey, sessionToken: role.sessionToken, expiration: new Date(role.expiration) };
}
