/**
 * The profile settings: their names, defaults and validation. Pure, no I/O,
 * so `config set` can refuse a bad value before anything is written and the
 * HTTP layer can reuse the URL and duration rules.
 */
import { UsageError } from '../errors.js';
import { validateTimeZone } from '../time-zone.js';

export const PROFILE_KEYS = [
  'base-url',
  'share-url',
  'output',
  'client-id',
  'timeout',
  'retries',
  'credential-store',
  'tz',
] as const;

export type ProfileKey = (typeof PROFILE_KEYS)[number];
export type ProfileSettings = Partial<Record<ProfileKey, string>>;

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'yaml'] as const;
export const CREDENTIAL_STORES = ['auto', 'keychain', 'file'] as const;
export type CredentialStoreMode = (typeof CREDENTIAL_STORES)[number];

/**
 * Values used when a profile does not set a key. `base-url` has none (the user
 * must choose a service); `share-url` falls back to base-url's origin; `output`
 * depends on whether stdout is a terminal, so it is decided by the output layer; `tz`
 * (the zone times are read and shown in, after --tz and TZ) falls back to the system's zone.
 */
export const DEFAULTS = {
  'client-id': 'trackctl',
  timeout: '30s',
  retries: '3',
  'credential-store': 'auto',
  output: undefined,
  'base-url': undefined,
  'share-url': undefined,
  tz: undefined,
} as const satisfies Record<ProfileKey, string | undefined>;

export function isProfileKey(key: string): key is ProfileKey {
  return (PROFILE_KEYS as readonly string[]).includes(key);
}

export function assertProfileKey(key: string): ProfileKey {
  if (isProfileKey(key)) return key;
  throw new UsageError(`unknown setting "${key}"; valid keys: ${PROFILE_KEYS.join(', ')}`);
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Profile names are JSON keys and keychain account names: keep them plain. */
export function validateProfileName(name: string): string {
  if (PROFILE_NAME.test(name)) return name;
  throw new UsageError(
    `invalid profile name "${name}": use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
  );
}

/** Validates one setting and returns the value to store (normalised). */
export function validateSetting(key: string, value: string): string {
  const k = assertProfileKey(key);
  const v = value.trim();
  switch (k) {
    case 'base-url':
    case 'share-url':
      return validateServiceUrl(k, v);
    case 'output':
      return oneOf(k, v, OUTPUT_FORMATS);
    case 'credential-store':
      return oneOf(k, v, CREDENTIAL_STORES);
    case 'client-id':
      if (v === '' || /[\s\x00-\x1f\x7f-\x9f]/.test(value)) {
        throw new UsageError(`invalid client-id "${value}": must be non-empty with no spaces or control characters`);
      }
      return v;
    case 'timeout': {
      const ms = parseDurationMs(v);
      if (ms <= 0) throw new UsageError(`invalid timeout "${value}": must be greater than zero, e.g. 30s, 500ms, 2m`);
      return formatDuration(ms);
    }
    case 'tz':
      return validateTimeZone(v, 'tz');
    case 'retries': {
      if (!/^\d{1,2}$/.test(v) || Number(v) > 10) {
        throw new UsageError(`invalid retries "${value}": must be a whole number from 0 to 10`);
      }
      return String(Number(v));
    }
  }
}

function oneOf(key: string, value: string, allowed: readonly string[]): string {
  const v = value.toLowerCase();
  if (allowed.includes(v)) return v;
  throw new UsageError(`invalid ${key} "${value}": must be one of ${allowed.join(', ')}`);
}

/** 127.0.0.0/8, ::1 and localhost: the only hosts plain http is allowed for. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const octets = h.split('.');
  return octets.length === 4 && octets[0] === '127' && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255);
}

/**
 * https for everything; http only for loopback hosts (the sandbox, a local
 * tunnel). No credentials in the URL (they would land in the config file), no
 * query or fragment. Returned without a trailing slash.
 */
export function validateServiceUrl(key: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`invalid ${key} "${value}": not a URL; expected e.g. https://tracking.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`invalid ${key} "${value}": must be an https:// URL`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `invalid ${key} "${value}": plain http is allowed only for loopback hosts (localhost, 127.0.0.0/8, ::1); use https://`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(`invalid ${key}: the URL must not contain a user name or password`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new UsageError(`invalid ${key} "${value}": must not have a query string or fragment`);
  }
  return url.href.replace(/\/+$/, '');
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * '500ms', '30s', '2m', '1h', '1d', compounds like '1m30s', decimals like
 * '1.5s'; a bare number is seconds.
 */
export function parseDurationMs(text: string): number {
  const t = text.trim().toLowerCase();
  const bad = (): UsageError =>
    new UsageError(`invalid duration "${text}": use a number with a unit (ms, s, m, h, d), e.g. 500ms, 30s, 2m`);
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(t)) throw bad();
  let total = 0;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) {
    total += Number(m[1]) * (UNIT_MS[m[2] ?? ''] ?? Number.NaN);
  }
  if (!Number.isFinite(total) || total > Number.MAX_SAFE_INTEGER) throw bad();
  return Math.round(total);
}

/** The canonical spelling: the largest unit that divides the value exactly. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const size = UNIT_MS[unit] ?? 1;
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/** Where share links point when share-url is not set: the service's origin. */
export function defaultShareUrl(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

/** A profile with defaults filled in (share-url from base-url's origin). */
export function withDefaults(settings: ProfileSettings): ProfileSettings {
  const out: ProfileSettings = {};
  for (const key of PROFILE_KEYS) {
    const value = settings[key] ?? DEFAULTS[key];
    if (value !== undefined) out[key] = value;
  }
  if (out['share-url'] === undefined && out['base-url'] !== undefined) {
    out['share-url'] = defaultShareUrl(out['base-url']);
  }
  return out;
}
