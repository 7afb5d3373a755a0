/**
 * Settings in effect: flag > environment > profile > default. The sandbox
 * (--sandbox or TRACKCTL_SANDBOX=1) replaces the base URL with an in-process
 * simulator on a loopback port, reached through the normal HTTP path.
 */
import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from './errors.js';
import { DEFAULTS, parseDurationMs, validateSetting, type ProfileSettings } from './config/index.js';
import { localTimeZone, validateTimeZone } from './time-zone.js';

/** Settings after flags, environment, profile and defaults are merged. */
export interface Settings {
  profile: string;
  baseUrl?: string;
  shareUrl?: string;
  clientId: string;
  timeoutMs: number;
  retries: number;
  credentialStore: 'auto' | 'keychain' | 'file';
  output?: string;
  sandbox: boolean;
}

/** What settings are made of: the global flags that set them, the environment, and the profile's stored values. */
export interface SettingSources {
  globals: { readonly baseUrl?: string; readonly sandbox?: boolean; readonly timeout?: string; readonly retries?: string };
  env: NodeJS.ProcessEnv;
  profile: string;
  stored: ProfileSettings;
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

export function resolveSettings({ globals, env, profile, stored }: SettingSources): Settings {
  const pick = (flag: string | undefined, envName: string, key: keyof typeof stored): string | undefined =>
    flag ?? (env[envName] || undefined) ?? stored[key];

  const timeout = pick(globals.timeout, 'TRACKCTL_TIMEOUT', 'timeout') ?? DEFAULTS.timeout;
  const retries = pick(globals.retries, 'TRACKCTL_RETRIES', 'retries') ?? DEFAULTS.retries;
  const baseUrl = pick(globals.baseUrl, 'TRACKCTL_BASE_URL', 'base-url');
  const shareUrl = (env.TRACKCTL_SHARE_URL || undefined) ?? stored['share-url'];
  const store = (env.TRACKCTL_CREDENTIAL_STORE || undefined) ?? stored['credential-store'] ?? DEFAULTS['credential-store'];
  return {
    profile,
    baseUrl: baseUrl === undefined ? undefined : validateSetting('base-url', baseUrl),
    shareUrl: shareUrl === undefined ? undefined : validateSetting('share-url', shareUrl),
    clientId: (env.TRACKCTL_CLIENT_ID || undefined) ?? stored['client-id'] ?? DEFAULTS['client-id'],
    timeoutMs: parseDurationMs(validateSetting('timeout', timeout)),
    retries: Number(validateSetting('retries', retries)),
    credentialStore: validateSetting('credential-store', store) as Settings['credentialStore'],
    output: stored.output,
    sandbox: Boolean(globals.sandbox) || truthy(env.TRACKCTL_SANDBOX),
  };
}

/**
 * The zone rule, one zone per invocation: --tz, else TZ, else the profile's tz, else the
 * system's. TZ is read as the C library reads a zone name (':Europe/Berlin', or a path under
 * zoneinfo) or a POSIX rule of a fixed offset in whole hours ('JST-9', read as Etc/GMT-9); an
 * empty TZ counts as unset. A zone Intl does not know is a usage error naming where it came from.
 */
/**
 * The IANA zone of a POSIX TZ rule without daylight saving whose offset is whole hours
 * ('JST-9', '<+03>-3', 'EST5'): Etc/GMT-9 and the like (POSIX and Etc/ both count hours west
 * as positive). Undefined for anything else (a zone name, a rule with DST or minutes, which
 * Intl cannot take: the usage error then says so).
 */
export function posixFixedZone(tz: string): string | undefined {
  const m = /^(?:[A-Za-z]{3,}|<[A-Za-z0-9+-]{1,}>)([+-]?)(\d{1,2})(?::00(?::00)?)?$/.exec(tz);
  if (!m) return undefined;
  const hours = Number(m[2]);
  if (hours === 0) return 'UTC';
  const west = m[1] !== '-';
  if (west ? hours > 12 : hours > 14) return undefined;
  return `Etc/GMT${west ? '+' : '-'}${hours}`;
}

export function resolveTimeZone(flag: string | undefined, env: NodeJS.ProcessEnv, stored: ProfileSettings): string {
  if (flag !== undefined) return validateTimeZone(flag, '--tz');
  const tz = env.TZ?.replace(/^:/, '').replace(/^.*\/zoneinfo\//, '');
  if (tz !== undefined && tz !== '') return validateTimeZone(posixFixedZone(tz) ?? tz, 'TZ');
  if (stored.tz !== undefined) return validateTimeZone(stored.tz, 'the profile\'s tz');
  return localTimeZone(zoneLink());
}

/** Where /etc/localtime points, if it is a link (it names the machine's zone). */
function zoneLink(): string | undefined {
  try {
    return readlinkSync('/etc/localtime');
  } catch {
    return undefined;
  }
}

/** The service's address; with --sandbox, an embedded sandbox's, keeping its state under `dataDir` and closed by `onDispose`. */
export async function resolveBaseUrl(settings: Settings, dataDir: string, onDispose: (close: () => Promise<void>) => void): Promise<string> {
  if (settings.sandbox) return startEmbeddedSandbox(dataDir, onDispose);
  if (settings.baseUrl) return settings.baseUrl;
  throw new UsageError('no service address is set for this profile', {
    hint: `Set one with: trackctl config set base-url https://… ${settings.profile === 'default' ? '' : `-p ${settings.profile} `}(or try --sandbox)`,
  });
}

async function startEmbeddedSandbox(dataDir: string, onDispose: (close: () => Promise<void>) => void): Promise<string> {
  const { startSandbox } = await import('./sandbox/index.js');
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    stateFile: join(dataDir, 'sandbox-state.json'),
    quiet: true,
  });
  onDispose(() => sandbox.close());
  return sandbox.url;
}
