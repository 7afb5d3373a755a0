/**
 * Where and as whom to reach S3, the way the AWS CLI and SDKs read it: the environment first
 * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION or
 * AWS_DEFAULT_REGION, AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL), then the profile
 * (AWS_PROFILE, else "default") of the shared credentials file (~/.aws/credentials or
 * AWS_SHARED_CREDENTIALS_FILE) and config file (~/.aws/config or AWS_CONFIG_FILE).
 * Pure but for reading those two files; every check runs before any request.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isLoopbackHost } from '../../api/http.js';
import { UsageError } from '../../errors.js';

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface S3Config {
  credentials: S3Credentials;
  region: string;
  /** An S3-compatible endpoint (path-style addressing); undefined: AWS itself (virtual-hosted). */
  endpoint: URL | undefined;
}

export interface S3Location {
  bucket: string;
  /** The key prefix, without leading or trailing slashes ('' for the bucket's root). */
  prefix: string;
}

type Env = Readonly<Record<string, string | undefined>>;
type Section = Record<string, string>;

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

const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);

function checkEndpoint(raw: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`invalid ${source} "${raw}": not a URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new UsageError(`invalid ${source} "${raw}": use https (plain http only for this machine)`);
  }
  return url;
}

/** The S3 settings from the environment and the shared files; a clear error when there are no credentials. */
export async function loadS3Config(env: Env, home = homedir()): Promise<S3Config> {
  const profile = nonEmpty(env.AWS_PROFILE) ?? nonEmpty(env.AWS_DEFAULT_PROFILE) ?? 'default';
  const [credentialsFile, configFile] = await Promise.all([
    readIni(nonEmpty(env.AWS_SHARED_CREDENTIALS_FILE) ?? join(home, '.aws', 'credentials')),
    readIni(nonEmpty(env.AWS_CONFIG_FILE) ?? join(home, '.aws', 'config')),
  ]);
  const fromCredentials = credentialsFile[profile] ?? {};
  const fromConfig = configFile[profile === 'default' ? 'default' : `profile ${profile}`] ?? {};
  const file = (key: string): string | undefined => nonEmpty(fromCredentials[key]) ?? nonEmpty(fromConfig[key]);

  let credentials: S3Credentials | undefined;
  const envKey = nonEmpty(env.AWS_ACCESS_KEY_ID);
  const envSecret = nonEmpty(env.AWS_SECRET_ACCESS_KEY);
  if (envKey !== undefined && envSecret !== undefined) {
    credentials = { accessKeyId: envKey, secretAccessKey: envSecret, ...(nonEmpty(env.AWS_SESSION_TOKEN) ? { sessionToken: nonEmpty(env.AWS_SESSION_TOKEN)! } : {}) };
  } else if (envKey !== undefined || envSecret !== undefined) {
    throw new UsageError(`${envKey === undefined ? 'AWS_SECRET_ACCESS_KEY' : 'AWS_ACCESS_KEY_ID'} is set without ${envKey === undefined ? 'AWS_ACCESS_KEY_ID' : 'AWS_SECRET_ACCESS_KEY'}`);
  } else {
    const id = file('aws_access_key_id');
    const secret = file('aws_secret_access_key');
    if (id !== undefined && secret !== undefined) {
      const token = file('aws_session_token');
      credentials = { accessKeyId: id, secretAccessKey: secret, ...(token ? { sessionToken: token } : {}) };
    }
  }
  if (credentials === undefined) {
    throw new UsageError('no AWS credentials for s3://', {
      hint: `Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or put them in the "${profile}" profile of ~/.aws/credentials (AWS_PROFILE chooses the profile).`,
    });
  }
  const region = nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION) ?? nonEmpty(fromConfig.region) ?? 'us-east-1';
  if (!/^[a-z0-9-]{2,40}$/.test(region)) throw new UsageError(`invalid AWS region "${region}"`);
  const endpointSource = nonEmpty(env.AWS_ENDPOINT_URL_S3) !== undefined ? 'AWS_ENDPOINT_URL_S3' : nonEmpty(env.AWS_ENDPOINT_URL) !== undefined ? 'AWS_ENDPOINT_URL' : 'endpoint_url';
  const endpointRaw = nonEmpty(env.AWS_ENDPOINT_URL_S3) ?? nonEmpty(env.AWS_ENDPOINT_URL) ?? nonEmpty(fromConfig.endpoint_url);
  const endpoint = endpointRaw === undefined ? undefined : checkEndpoint(endpointRaw, endpointSource);
  return { credentials, region, endpoint };
}
