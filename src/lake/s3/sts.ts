/**
 * AWS STS, the two calls that turn a role into temporary credentials: AssumeRole, signed with
 * the credentials of the source profile, and AssumeRoleWithWebIdentity, unsigned, that trades
 * a token (a Kubernetes service account's, under IRSA) for them. The Query API over POST, the
 * reply in XML.
 */
import aws4 from 'aws4';
import { ApiError, AuthError, NetworkError } from '../../errors.js';
import type { S3Credentials, TemporaryCredentials } from './refresh.js';
import { exchange, xmlValues, type RemoteLimits } from './wire.js';

export interface StsTarget {
  /** AWS_ENDPOINT_URL_STS (or AWS_ENDPOINT_URL, endpoint_url), else the region's https://sts.REGION.amazonaws.com. */
  endpoint: URL;
  region: string;
  /** --retries and --timeout: STS is a remote service, tried as hard as the object store. */
  limits: RemoteLimits;
}

export interface RoleRequest {
  roleArn: string;
  sessionName: string;
  durationSeconds?: number;
  externalId?: string;
}

/** The regional STS endpoint, as the SDKs use by default (China's partition has its own domain). */
export function stsEndpoint(region: string): URL {
  return new URL(`https://sts.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}/`);
}

function form(params: Record<string, string | undefined>): string {
  return Object.entries(params)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
}

async function call(target: StsTarget, action: string, body: string, sign: S3Credentials | undefined, roleArn: string): Promise<TemporaryCredentials> {
  const what = `STS ${action} ${roleArn} at ${target.endpoint.host}`;
  let headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' };
  if (sign !== undefined) {
    const signed = aws4.sign({ host: target.endpoint.host, path: target.endpoint.pathname, method: 'POST', service: 'sts', region: target.region, headers, body }, sign);
    headers = signed.headers as Record<string, string>;
  }
  let reply;
  try {
    reply = await exchange(target.endpoint, { method: 'POST', headers, body, timeoutMs: target.limits.timeoutMs, proxy: true, retries: target.limits.retries });
  } catch (err) {
    throw new NetworkError(`${what}: ${(err as Error).message}`, { cause: err });
  }
  if (reply.status !== 200) {
    const code = xmlValues(reply.body, 'Code')[0] ?? `HTTP ${reply.status}`;
    const message = xmlValues(reply.body, 'Message')[0];
    const text = `${what}: ${code}${message ? ` (${message})` : ''}`;
    if (reply.status >= 400 && reply.status < 500) throw new AuthError(text, { hint: 'Check the role\'s trust policy and the identity that assumes it.' });
    throw new ApiError(text, reply.status);
  }
  const [accessKeyId, secretAccessKey, sessionToken, expiration] = ['AccessKeyId', 'SecretAccessKey', 'SessionToken', 'Expiration'].map((t) => xmlValues(reply.body, t)[0]);
  const expires = expiration === undefined ? NaN : Date.parse(expiration);
  if (!accessKeyId || !secretAccessKey || !sessionToken || Number.isNaN(expires)) throw new ApiError(`${what}: the reply holds no credentials`, reply.status);
  return { accessKeyId, secretAccessKey, sessionToken, expiration: new Date(expires) };
}

export function assumeRole(target: StsTarget, source: S3Credentials, role: RoleRequest): Promise<TemporaryCredentials> {
  const body = form({
    Action: 'AssumeRole',
    Version: '2011-06-15',
    RoleArn: role.roleArn,
    RoleSessionName: role.sessionName,
    DurationSeconds: role.durationSeconds === undefined ? undefined : String(role.durationSeconds),
    ExternalId: role.externalId,
  });
  return call(target, 'AssumeRole', body, source, role.roleArn);
}

export function assumeRoleWithWebIdentity(target: StsTarget, token: string, role: RoleRequest): Promise<TemporaryCredentials> {
  const body = form({
    Action: 'AssumeRoleWithWebIdentity',
    Version: '2011-06-15',
    RoleArn: role.roleArn,
    RoleSessionName: role.sessionName,
    WebIdentityToken: token,
    DurationSeconds: role.durationSeconds === undefined ? undefined : String(role.durationSeconds),
  });
  return call(target, 'AssumeRoleWithWebIdentity', body, undefined, role.roleArn);
}
