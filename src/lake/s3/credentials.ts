/**
 * The AWS credential chain, in the order of the AWS SDK for JavaScript v3's default provider,
 * for s3:// targets only and only when no static keys are in the environment:
 *   1. the profile (AWS_PROFILE, else "default") of the shared files: its keys; role_arn with
 *      source_profile (profiles chain) or credential_source, assumed through STS; a
 *      web_identity_token_file; a credential_process; SSO (sso_session or sso_start_url);
 *   2. web identity: AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN (Kubernetes IRSA);
 *   3. the container endpoint (ECS, EKS Pod Identity), when AWS_CONTAINER_CREDENTIALS_* is set;
 *      else the EC2 instance metadata service, unless AWS_EC2_METADATA_DISABLED.
 * A source whose settings are there but that fails is an error, not a step to the next: a
 * broken IRSA setup should say so, not end in "no credentials". Temporary credentials are
 * fetched again before they expire (refresh.ts).
 * A small module of our own rather than @aws-sdk/credential-provider-node, by measurement
 * (docs/performance.md): a few KB against 645 KB of bundle, and ~200 ms to load it.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../errors.js';
import { containerCredentials, ECS_CONTAINER_HOST, imdsEndpoint, instanceCredentials, MetadataUnavailable, type ContainerSettings } from './metadata.js';
import { processCredentials } from './process.js';
import { fixedCredentials, refreshingCredentials, type CredentialProvider, type TemporaryCredentials } from './refresh.js';
import { ssoCredentials, ssoPortal } from './sso.js';
import { assumeRole, assumeRoleWithWebIdentity, stsEndpoint, type StsTarget } from './sts.js';
import { checkEndpoint, type RemoteLimits } from './wire.js';

export type Env = Readonly<Record<string, string | undefined>>;
export type Section = Record<string, string>;

export interface ChainSettings {
  env: Env;
  home: string;
  /** The profile to read, and whether AWS_PROFILE named it (then it must exist). */
  profile: string;
  profileNamed: boolean;
  /** Every profile of both shared files by name, the credentials file's keys over the config file's. */
  profiles: Readonly<Record<string, Section>>;
  /** The config file's [sso-session NAME] sections. */
  ssoSessions: Readonly<Record<string, Section>>;
  /** Where the two files are, for messages. */
  files: string;
  region: string;
  now: () => number;
  /** Where a relative container URI points; tests point it at a loopback server. */
  containerHost?: string;
  /** The run's --retries and --timeout, for every exchange that fetches credentials. */
  limits: RemoteLimits;
}

/** One place credentials can come from: a name for messages, and how to fetch them (again). */
interface Source {
  name: string;
  fetch: () => Promise<TemporaryCredentials>;
}

export const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);

function keysOf(section: Section): TemporaryCredentials | undefined {
  const id = nonEmpty(section.aws_access_key_id);
  const secret = nonEmpty(section.aws_secret_access_key);
  if (id === undefined || secret === undefined) return undefined;
  const token = nonEmpty(section.aws_session_token);
  return { accessKeyId: id, secretAccessKey: secret, ...(token ? { sessionToken: token } : {}) };
}

/** STS where the SDKs send it: AWS_ENDPOINT_URL_STS, AWS_ENDPOINT_URL, the profile's endpoint_url, else the region's endpoint. */
function stsTarget(s: ChainSettings): StsTarget {
  const own = nonEmpty(s.env.AWS_ENDPOINT_URL_STS);
  const global = nonEmpty(s.env.AWS_ENDPOINT_URL);
  const profile = nonEmpty(s.profiles[s.profile]?.endpoint_url);
  const endpoint =
    own !== undefined ? checkEndpoint(own, 'AWS_ENDPOINT_URL_STS') : global !== undefined ? checkEndpoint(global, 'AWS_ENDPOINT_URL') : profile !== undefined ? checkEndpoint(profile, 'endpoint_url') : stsEndpoint(s.region);
  return { endpoint, region: s.region, limits: s.limits };
}

function sessionName(s: ChainSettings, given: string | undefined): string {
  return given ?? `trackctl-${s.now()}`;
}

function webIdentitySource(s: ChainSettings, name: string, tokenFile: string, roleArn: string, session: string | undefined): Source {
  return {
    name,
    fetch: async () => {
      // Read on every fetch: Kubernetes rotates the projected token.
      let token: string;
      try {
        token = (await readFile(tokenFile, 'utf8')).trim();
      } catch (err) {
        throw new UsageError(`cannot read the web identity token ${tokenFile}: ${(err as Error).message}`);
      }
      return assumeRoleWithWebIdentity(stsTarget(s), token, { roleArn, sessionName: sessionName(s, session) });
    },
  };
}

function containerSettings(s: ChainSettings): ContainerSettings {
  return {
    relativeUri: nonEmpty(s.env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI),
    fullUri: nonEmpty(s.env.AWS_CONTAINER_CREDENTIALS_FULL_URI),
    token: nonEmpty(s.env.AWS_CONTAINER_AUTHORIZATION_TOKEN),
    tokenFile: nonEmpty(s.env.AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE),
    relativeHost: s.containerHost ?? ECS_CONTAINER_HOST,
    limits: s.limits,
  };
}

function imdsUrl(s: ChainSettings): URL {
  const profile = s.profiles[s.profile] ?? {};
  return imdsEndpoint(nonEmpty(s.env.AWS_EC2_METADATA_SERVICE_ENDPOINT) ?? nonEmpty(profile.ec2_metadata_service_endpoint), nonEmpty(s.env.AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE) ?? nonEmpty(profile.ec2_metadata_service_endpoint_mode));
}

/** A role profile's credential_source: where the credentials that assume the role come from. */
function credentialSource(s: ChainSettings, profile: string, value: string): Source {
  if (value === 'Environment') {
    const keys = keysOf({ aws_access_key_id: s.env.AWS_ACCESS_KEY_ID ?? '', aws_secret_access_key: s.env.AWS_SECRET_ACCESS_KEY ?? '', aws_session_token: s.env.AWS_SESSION_TOKEN ?? '' });
    if (keys === undefined) throw new UsageError(`the AWS profile "${profile}" has credential_source = Environment, but AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set`);
    return { name: 'the environment', fetch: () => Promise.resolve(keys) };
  }
  if (value === 'EcsContainer') return { name: 'container credentials', fetch: () => containerCredentials(containerSettings(s)) };
  if (value === 'Ec2InstanceMetadata') return { name: 'EC2 instance metadata', fetch: () => instanceCredentials(imdsUrl(s), s.limits) };
  throw new UsageError(`the AWS profile "${profile}" has credential_source = ${value}: use Environment, EcsContainer or Ec2InstanceMetadata`);
}

function ssoSource(s: ChainSettings, name: string, p: Section): Source {
  const sessionName = nonEmpty(p.sso_session);
  let startUrl = nonEmpty(p.sso_start_url);
  let region = nonEmpty(p.sso_region);
  if (sessionName !== undefined) {
    const session = s.ssoSessions[sessionName];
    if (session === undefined) throw new UsageError(`the AWS profile "${name}" names sso_session "${sessionName}", but there is no [sso-session ${sessionName}] in the config file`);
    startUrl = nonEmpty(session.sso_start_url);
    region = nonEmpty(session.sso_region);
  }
  const accountId = nonEmpty(p.sso_account_id);
  const roleName = nonEmpty(p.sso_role_name);
  if (startUrl === undefined || region === undefined || accountId === undefined || roleName === undefined) {
    throw new UsageError(`the AWS profile "${name}" is an SSO profile without sso_start_url, sso_region, sso_account_id and sso_role_name (directly or through its sso_session)`);
  }
  const own = nonEmpty(s.env.AWS_ENDPOINT_URL_SSO);
  const global = nonEmpty(s.env.AWS_ENDPOINT_URL);
  const endpoint = own !== undefined ? checkEndpoint(own, 'AWS_ENDPOINT_URL_SSO') : global !== undefined ? checkEndpoint(global, 'AWS_ENDPOINT_URL') : ssoPortal(region);
  const settings = { profile: name, session: sessionName, startUrl, region, accountId, roleName, endpoint, home: s.home, limits: s.limits };
  return { name: `SSO (the AWS profile "${name}")`, fetch: () => ssoCredentials(settings, s.now()) };
}

/**
 * What a profile holds, as the SDK reads it: a role (assumed with its source_profile's or
 * credential_source's credentials; a source profile with keys gives those keys, even when it
 * is the role profile itself), keys, a web identity token file, a credential_process, SSO.
 * undefined: none of these (a profile with only a region).
 */
function profileSource(s: ChainSettings, name: string, visited: readonly string[]): Source | undefined {
  const p = s.profiles[name];
  const via = visited.length > 0 ? ` (source_profile of "${visited[visited.length - 1]}")` : '';
  if (p === undefined) throw new UsageError(`the AWS profile "${name}"${via} is in neither of ${s.files}`);
  const keys = keysOf(p);
  if (visited.length > 0 && keys !== undefined) return { name: `the AWS profile "${name}"`, fetch: () => Promise.resolve(keys) };
  if (visited.includes(name)) throw new UsageError(`the AWS profiles loop through source_profile: ${[...visited, name].map((n) => `"${n}"`).join(' -> ')}`);
  const roleArn = nonEmpty(p.role_arn);
  const sourceProfile = nonEmpty(p.source_profile);
  const sourceSetting = nonEmpty(p.credential_source);
  if (roleArn !== undefined && (sourceProfile !== undefined || sourceSetting !== undefined)) {
    if (sourceProfile !== undefined && sourceSetting !== undefined) throw new UsageError(`the AWS profile "${name}" has both source_profile and credential_source: keep one`);
    if (nonEmpty(p.mfa_serial) !== undefined) {
      throw new UsageError(`the AWS profile "${name}" needs an MFA code (mfa_serial), which an unattended run cannot ask for`, { hint: 'Use a profile without mfa_serial, or credentials from `aws sts get-session-token` or `aws configure export-credentials`.' });
    }
    const base = sourceProfile !== undefined ? profileSource(s, sourceProfile, [...visited, name]) : credentialSource(s, name, sourceSetting!);
    if (base === undefined) throw new UsageError(`the AWS profile "${sourceProfile}" (source_profile of "${name}") holds no credentials`);
    const duration = nonEmpty(p.duration_seconds);
    if (duration !== undefined && !/^\d+$/.test(duration)) throw new UsageError(`the AWS profile "${name}" has duration_seconds = ${duration}: not a number of seconds`);
    const externalId = nonEmpty(p.external_id);
    const role = { roleArn, sessionName: sessionName(s, nonEmpty(p.role_session_name)), ...(duration ? { durationSeconds: Number(duration) } : {}), ...(externalId ? { externalId } : {}) };
    return { name: `the role ${roleArn} (the AWS profile "${name}", from ${base.name})`, fetch: async () => assumeRole(stsTarget(s), await base.fetch(), role) };
  }
  if (keys !== undefined) return { name: `the AWS profile "${name}"`, fetch: () => Promise.resolve(keys) };
  const tokenFile = nonEmpty(p.web_identity_token_file);
  if (tokenFile !== undefined && roleArn !== undefined) return webIdentitySource(s, `web identity (the AWS profile "${name}", ${roleArn})`, tokenFile, roleArn, nonEmpty(p.role_session_name));
  const command = nonEmpty(p.credential_process);
  if (command !== undefined) return { name: `the credential_process of the AWS profile "${name}"`, fetch: () => processCredentials(name, command, s.now()) };
  if (['sso_session', 'sso_start_url', 'sso_account_id', 'sso_role_name', 'sso_region'].some((k) => nonEmpty(p[k]) !== undefined)) return ssoSource(s, name, p);
  if (roleArn !== undefined) throw new UsageError(`the AWS profile "${name}" has role_arn but no source_profile, credential_source or web_identity_token_file`);
  return undefined;
}

async function start(s: ChainSettings, source: Source): Promise<CredentialProvider> {
  const first = await source.fetch();
  return first.expiration === undefined ? fixedCredentials(source.name, first) : refreshingCredentials(source.name, source.fetch, first, s.now);
}

/** The credentials of the first source whose settings are there; a UsageError naming every source tried when none is. */
export async function findCredentials(s: ChainSettings): Promise<CredentialProvider> {
  const { env } = s;
  const tried = ['the environment (AWS_ACCESS_KEY_ID)'];
  if (s.profiles[s.profile] === undefined && s.profileNamed) throw new UsageError(`the AWS profile "${s.profile}" (AWS_PROFILE) is in neither of ${s.files}`);
  if (s.profiles[s.profile] !== undefined) {
    const source = profileSource(s, s.profile, []);
    if (source !== undefined) return start(s, source);
  }
  tried.push(`the "${s.profile}" profile of ${s.files}`);

  const tokenFile = nonEmpty(env.AWS_WEB_IDENTITY_TOKEN_FILE);
  const roleArn = nonEmpty(env.AWS_ROLE_ARN);
  if (tokenFile !== undefined && roleArn !== undefined) return start(s, webIdentitySource(s, `web identity (AWS_WEB_IDENTITY_TOKEN_FILE, ${roleArn})`, tokenFile, roleArn, nonEmpty(env.AWS_ROLE_SESSION_NAME)));
  if (tokenFile !== undefined || roleArn !== undefined) throw new UsageError(`${tokenFile === undefined ? 'AWS_ROLE_ARN' : 'AWS_WEB_IDENTITY_TOKEN_FILE'} is set without ${tokenFile === undefined ? 'AWS_WEB_IDENTITY_TOKEN_FILE' : 'AWS_ROLE_ARN'}`);
  tried.push('web identity (AWS_WEB_IDENTITY_TOKEN_FILE)');

  const container = containerSettings(s);
  if (container.relativeUri !== undefined || container.fullUri !== undefined) return start(s, { name: 'container credentials', fetch: () => containerCredentials(container) });
  tried.push('container credentials (AWS_CONTAINER_CREDENTIALS_FULL_URI, _RELATIVE_URI)');

  const disabled = nonEmpty(env.AWS_EC2_METADATA_DISABLED);
  if (disabled !== undefined && disabled.toLowerCase() !== 'false') tried.push('EC2 instance metadata (off: AWS_EC2_METADATA_DISABLED)');
  else {
    const endpoint = imdsUrl(s);
    try {
      return await start(s, { name: 'EC2 instance metadata', fetch: () => instanceCredentials(endpoint, s.limits) });
    } catch (err) {
      if (!(err instanceof MetadataUnavailable)) throw err;
      tried.push(err.message);
    }
  }
  throw new UsageError(`no AWS credentials for s3://: tried ${tried.join('; ')}`, {
    hint: `Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give the "${s.profile}" profile credentials (keys, role_arn, credential_process, SSO), or run where AWS hands them out (IRSA, Pod Identity, ECS, EC2). AWS_PROFILE chooses the profile.`,
  });
}
