/**
 * Where and as whom to reach S3, the way the AWS CLI and SDKs read it: the environment first
 * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION or
 * AWS_DEFAULT_REGION, AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL), then the profile
 * (AWS_PROFILE, else "default") of the shared credentials file (~/.aws/credentials or
 * AWS_SHARED_CREDENTIALS_FILE) and config file (~/.aws/config or AWS_CONFIG_FILE), then the
 * rest of the AWS credential chain (credentials.ts). Every check runs, and the first
 * credentials are fetched, before any request to S3.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../errors.js';
import { findCredentials, nonEmpty, type Env, type Section } from './credentials.js';
import { fixedCredentials, type CredentialProvider } from './refresh.js';
import { checkEndpoint, type RemoteLimits } from './wire.js';

export interface S3Config {
  credentials: CredentialProvider;
  region: string;
  /** An S3-compatible endpoint (path-style addressing); undefined: AWS itself (virtual-hosted). */
  endpoint: URL | undefined;
}

export interface S3Location {
  bucket: string;
  /** The key prefix, without leading or trailing slashes ('' for the bucket's root). */
  prefix: string;
}

/** `s3://bucket/prefix` → its parts; a bucket name is checked as S3 names them. */
export function parseS3Url(url: string): S3Location {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url);
  if (!m) throw new UsageError(`invalid --out-dir "${url}": use s3://bucket/prefix`);
  const bucket = m[1]!;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new UsageError(`invalid --out-dir "${url}": "${bucket}" is not an S3 bucket name`);
  const prefix = m[2]!.replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((s) => s === '.' || s === '..' || s === '') && prefix !== '') {
    throw new UsageError(`invalid --out-dir "${url}": the prefix has an empty, "." or ".." segment`);
  }
  return { bucket, prefix };
}

/** An INI file of [sections] and key = value lines (the AWS shared files); {} when it does not exist. */
export function parseIni(text: string): Record<string, Section> {
  const sections: Record<string, Section> = {};
  let current: Section | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*(.+?)\s*\]$/.exec(line);
    if (header) {
      current = sections[header[1]!] ??= {};
      continue;
    }
    const kv = /^([^=]+?)\s*=\s*(.*)$/.exec(line);
    if (kv && current) current[kv[1]!.toLowerCase()] = kv[2]!;
  }
  return sections;
}

async function readIni(path: string): Promise<Record<string, Section>> {
  try {
    return parseIni(await readFile(path, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`cannot read ${path}: ${(err as Error).message}`);
  }
}

/**
 * The profiles of both files by name, as the SDKs merge them: the config file's [default] and
 * [profile NAME], then the credentials file's [NAME] over them key by key; and the config
 * file's [sso-session NAME] sections.
 */
function mergeProfiles(credentialsFile: Record<string, Section>, configFile: Record<string, Section>): { profiles: Record<string, Section>; ssoSessions: Record<string, Section> } {
  const profiles: Record<string, Section> = {};
  const ssoSessions: Record<string, Section> = {};
  for (const [header, section] of Object.entries(configFile)) {
    const named = /^(profile|sso-session)\s+(.+)$/.exec(header);
    if (header === 'default') profiles.default = { ...section };
    else if (named?.[1] === 'profile') profiles[named[2]!] = { ...profiles[named[2]!], ...section };
    else if (named?.[1] === 'sso-session') ssoSessions[named[2]!] = section;
  }
  for (const [name, section] of Object.entries(credentialsFile)) profiles[name] = { ...profiles[name], ...section };
  return { profiles, ssoSessions };
}

/** Without the run's limits (a caller other than a command): two tries more, 30 s a wait. */
const DEFAULT_LIMITS: RemoteLimits = { retries: 2, timeoutMs: 30_000 };

export interface LoadOptions {
  home?: string;
  /** The clock that decides when temporary credentials are due again. */
  now?: () => number;
  /** Where a relative container credentials URI points (169.254.170.2); tests point it at a loopback server. */
  containerHost?: string;
  /** The run's --retries and --timeout for STS, SSO and the credential endpoints; the service client's defaults otherwise. */
  limits?: RemoteLimits;
}

/** The S3 settings from the environment and the shared files, and the first credentials; a clear error when there are none. */
export async function loadS3Config(env: Env, opts: LoadOptions = {}): Promise<S3Config> {
  // HOME of the environment given, as os.homedir() reads it from the process's: the same for the binary, and a run in-process sees its own.
  const home = opts.home ?? nonEmpty(env.HOME) ?? homedir();
  const named = nonEmpty(env.AWS_PROFILE) ?? nonEmpty(env.AWS_DEFAULT_PROFILE);
  const profile = named ?? 'default';
  const credentialsPath = nonEmpty(env.AWS_SHARED_CREDENTIALS_FILE) ?? join(home, '.aws', 'credentials');
  const configPath = nonEmpty(env.AWS_CONFIG_FILE) ?? join(home, '.aws', 'config');
  const [credentialsFile, configFile] = await Promise.all([readIni(credentialsPath), readIni(configPath)]);
  const { profiles, ssoSessions } = mergeProfiles(credentialsFile, configFile);
  const fromProfile = profiles[profile] ?? {};

  const region = nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION) ?? nonEmpty(fromProfile.region) ?? 'us-east-1';
  if (!/^[a-z0-9-]{2,40}$/.test(region)) throw new UsageError(`invalid AWS region "${region}"`);
  const endpointSource = nonEmpty(env.AWS_ENDPOINT_URL_S3) !== undefined ? 'AWS_ENDPOINT_URL_S3' : nonEmpty(env.AWS_ENDPOINT_URL) !== undefined ? 'AWS_ENDPOINT_URL' : 'endpoint_url';
  const endpointRaw = nonEmpty(env.AWS_ENDPOINT_URL_S3) ?? nonEmpty(env.AWS_ENDPOINT_URL) ?? nonEmpty(fromProfile.endpoint_url);
  const endpoint = endpointRaw === undefined ? undefined : checkEndpoint(endpointRaw, endpointSource);

  const envKey = nonEmpty(env.AWS_ACCESS_KEY_ID);
  const envSecret = nonEmpty(env.AWS_SECRET_ACCESS_KEY);
  let credentials: CredentialProvider;
  if (envKey !== undefined && envSecret !== undefined) {
    const token = nonEmpty(env.AWS_SESSION_TOKEN);
    credentials = fixedCredentials('the environment (AWS_ACCESS_KEY_ID)', { accessKeyId: envKey, secretAccessKey: envSecret, ...(token ? { sessionToken: token } : {}) });
  } else if (envKey !== undefined || envSecret !== undefined) {
    throw new UsageError(`${envKey === undefined ? 'AWS_SECRET_ACCESS_KEY' : 'AWS_ACCESS_KEY_ID'} is set without ${envKey === undefined ? 'AWS_ACCESS_KEY_ID' : 'AWS_SECRET_ACCESS_KEY'}`);
  } else {
    credentials = await findCredentials({
      env,
      home,
      profile,
      profileNamed: named !== undefined,
      profiles,
      ssoSessions,
      files: `${credentialsPath} and ${configPath}`,
      region,
      now: opts.now ?? Date.now,
      limits: opts.limits ?? DEFAULT_LIMITS,
      ...(opts.containerHost !== undefined ? { containerHost: opts.containerHost } : {}),
    });
  }
  return { credentials, region, endpoint };
}
