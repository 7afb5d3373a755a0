/**
 * Credentials from the endpoints a platform runs beside the workload: the container endpoint
 * (ECS tasks, EKS Pod Identity: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI or _FULL_URI, with
 * AWS_CONTAINER_AUTHORIZATION_TOKEN or the _TOKEN_FILE that EKS rotates), and the EC2 instance
 * metadata service, IMDSv2 only (a session token first: the version that an SSRF cannot reach).
 * Never through a proxy: these addresses are link-local.
 */
import { readFile } from 'node:fs/promises';
import { isLoopbackHost } from '../../api/http.js';
import { ApiError, AuthError, NetworkError, UsageError } from '../../errors.js';
import type { TemporaryCredentials } from './refresh.js';
import { exchange, LINK_LOCAL_TIMEOUT_MS, type ExchangeOptions, type RemoteLimits, type ServiceReply } from './wire.js';

/** Where a relative container URI points: ECS's agent (ContainerSettings.relativeHost, which tests point at a loopback server). */
export const ECS_CONTAINER_HOST = 'http://169.254.170.2';
/** The plain-http hosts a full container URI may name, as the AWS SDKs allow: ECS's and EKS Pod Identity's agents. */
const CONTAINER_HOSTS = new Set(['169.254.170.2', '169.254.170.23', '[fd00:ec2::23]']);

/** The metadata endpoint did not answer, or this instance has no role: not an error, just not this source. */
export class MetadataUnavailable extends NetworkError {}

/** The four fields both endpoints answer with (Token, not SessionToken). */
function parseCredentials(what: string, reply: ServiceReply): TemporaryCredentials {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(reply.body) as Record<string, unknown>;
  } catch {
    throw new ApiError(`${what}: the reply is not JSON`, reply.status);
  }
  const { AccessKeyId, SecretAccessKey, Token, Expiration } = parsed;
  const expires = typeof Expiration === 'string' ? Date.parse(Expiration) : NaN;
  if (typeof AccessKeyId !== 'string' || typeof SecretAccessKey !== 'string' || typeof Token !== 'string' || Number.isNaN(expires)) {
    throw new ApiError(`${what}: the reply lacks AccessKeyId, SecretAccessKey, Token or Expiration`, reply.status);
  }
  return { accessKeyId: AccessKeyId, secretAccessKey: SecretAccessKey, sessionToken: Token, expiration: new Date(expires) };
}

function failure(what: string, reply: ServiceReply): Error {
  const text = `${what}: HTTP ${reply.status}${reply.body.trim() ? ` (${reply.body.trim().slice(0, 200)})` : ''}`;
  return reply.status >= 400 && reply.status < 500 ? new AuthError(text) : new ApiError(text, reply.status);
}

/** The run's retries; its --timeout, but never more than a link-local endpoint needs. */
function linkLocal(limits: RemoteLimits): RemoteLimits {
  return { retries: limits.retries, timeoutMs: Math.min(limits.timeoutMs, LINK_LOCAL_TIMEOUT_MS) };
}

async function send(url: URL, what: string, opts: Omit<ExchangeOptions, 'proxy'>): Promise<ServiceReply> {
  try {
    return await exchange(url, { ...opts, proxy: false });
  } catch (err) {
    throw new NetworkError(`${what}: ${(err as Error).message}`, { cause: err });
  }
}

export interface ContainerSettings {
  relativeUri: string | undefined;
  fullUri: string | undefined;
  token: string | undefined;
  tokenFile: string | undefined;
  /** ECS_CONTAINER_HOST but in tests. */
  relativeHost: string;
  limits: RemoteLimits;
}

/** The container endpoint's URL, checked as the SDKs check it: a relative URI wins; a full one is https, loopback or an agent's address. */
export function containerUrl(s: Pick<ContainerSettings, 'relativeUri' | 'fullUri' | 'relativeHost'>): URL {
  if (s.relativeUri !== undefined) return new URL(`${s.relativeHost}${s.relativeUri.startsWith('/') ? '' : '/'}${s.relativeUri}`);
  const raw = s.fullUri!;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`invalid AWS_CONTAINER_CREDENTIALS_FULL_URI "${raw}": not a URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (isLoopbackHost(url.hostname) || CONTAINER_HOSTS.has(url.hostname)))) {
    throw new UsageError(`invalid AWS_CONTAINER_CREDENTIALS_FULL_URI "${raw}": use https, or plain http to this machine or the ECS/EKS agent (169.254.170.2, 169.254.170.23, fd00:ec2::23)`);
  }
  return url;
}

export async function containerCredentials(s: ContainerSettings): Promise<TemporaryCredentials> {
  const url = containerUrl(s);
  const what = `container credentials at ${url.host}`;
  let token = s.token;
  // Read on every fetch: EKS Pod Identity rotates the file.
  if (s.tokenFile !== undefined) {
    try {
      token = (await readFile(s.tokenFile, 'utf8')).trim();
    } catch (err) {
      throw new UsageError(`cannot read AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE ${s.tokenFile}: ${(err as Error).message}`);
    }
  }
  if (token !== undefined && /[\r\n]/.test(token)) throw new UsageError('the container authorization token holds a line break');
  const reply = await send(url, what, { method: 'GET', headers: token === undefined ? {} : { Authorization: token }, ...linkLocal(s.limits) });
  if (reply.status !== 200) throw failure(what, reply);
  return parseCredentials(what, reply);
}

const TOKEN_TTL_SECONDS = '21600';
const CREDENTIALS_PATH = '/latest/meta-data/iam/security-credentials/';

/** The instance metadata endpoint: AWS_EC2_METADATA_SERVICE_ENDPOINT, else by AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE (IPv4 by default). */
export function imdsEndpoint(endpoint: string | undefined, mode: string | undefined): URL {
  if (endpoint !== undefined) {
    try {
      return new URL(endpoint);
    } catch {
      throw new UsageError(`invalid AWS_EC2_METADATA_SERVICE_ENDPOINT "${endpoint}": not a URL`);
    }
  }
  if (mode === undefined || mode.toLowerCase() === 'ipv4') return new URL('http://169.254.169.254');
  if (mode.toLowerCase() === 'ipv6') return new URL('http://[fd00:ec2::254]');
  throw new UsageError(`invalid AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE "${mode}": use IPv4 or IPv6`);
}

/**
 * The instance role's credentials: PUT a session token, then the role's name, then its credentials.
 * Off EC2 the token request finds nobody (refused, unreachable, or no connection within 1 s): MetadataUnavailable.
 */
export async function instanceCredentials(endpoint: URL, limits: RemoteLimits): Promise<TemporaryCredentials> {
  const at = (path: string): URL => new URL(path, endpoint);
  const what = `EC2 instance metadata at ${endpoint.host}`;
  let tokenReply: ServiceReply;
  try {
    tokenReply = await exchange(at('/latest/api/token'), { method: 'PUT', headers: { 'x-aws-ec2-metadata-token-ttl-seconds': TOKEN_TTL_SECONDS }, connectTimeoutMs: 1_000, timeoutMs: linkLocal(limits).timeoutMs, proxy: false, retries: 0 });
  } catch (err) {
    throw new MetadataUnavailable(`${what}: ${(err as Error).message}`, { cause: err });
  }
  // 403/404/405: something answers there but it is no IMDSv2 (or IMDS is turned off for this instance).
  if ([403, 404, 405].includes(tokenReply.status)) throw new MetadataUnavailable(`${what}: the token request got HTTP ${tokenReply.status}`);
  if (tokenReply.status !== 200) throw failure(what, tokenReply);
  const headers = { 'x-aws-ec2-metadata-token': tokenReply.body.trim() };
  const roles = await send(at(CREDENTIALS_PATH), what, { method: 'GET', headers, ...linkLocal(limits) });
  if (roles.status === 404) throw new MetadataUnavailable(`${what}: this instance has no IAM role`);
  if (roles.status !== 200) throw failure(what, roles);
  const role = roles.body.split('\n')[0]!.trim();
  if (role === '') throw new MetadataUnavailable(`${what}: this instance has no IAM role`);
  const reply = await send(at(`${CREDENTIALS_PATH}${encodeURIComponent(role)}`), what, { method: 'GET', headers, ...linkLocal(limits) });
  if (reply.status !== 200) throw failure(what, reply);
  return parseCredentials(`${what} (role ${role})`, reply);
}
