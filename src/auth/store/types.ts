/**
 * The credential store contract. One record per profile, always saved whole,
 * so a reader never sees half of a token refresh.
 */

export interface StoredCredentials {
  email?: string;
  clientId?: string;
  aid?: number;
  uid?: number;
  accessToken?: string;
  /** Unix seconds. */
  accessExpiresAt?: number;
  refreshToken?: string;
  /** Unix seconds. */
  refreshExpiresAt?: number;
  /** The Cookie header value for the session. */
  cookies?: string;
  /** Unix seconds. */
  sessionCreatedAt?: number;
  /** Unix seconds: when the session cookie lapses, as its Max-Age or Expires said (none: not stated). */
  sessionExpiresAt?: number;
  /** Only when the user asked for --save-password. */
  password?: string;
}

export interface SecretStore {
  readonly kind: 'keychain' | 'file' | 'memory';
  /** Where secrets are, for `login status`: e.g. 'Secret Service (service trackctl)' or a file path. */
  readonly location: string;
  load(profile: string): Promise<StoredCredentials | undefined>;
  /** Replaces the whole record, atomically. */
  save(profile: string, creds: StoredCredentials): Promise<void>;
  /** Removes the record; no error when there is none. */
  remove(profile: string): Promise<void>;
  /** Profiles that have a record. */
  profiles?(): Promise<string[]>;
}

export interface OpenStoreOptions {
  mode: 'auto' | 'keychain' | 'file';
  dataDir: string;
  /** One-line warnings for the user (stderr); never secrets. None with -q: the one-time fallback warning then waits for a run that shows it. */
  warn?: (message: string) => void;
  /** Upper bound for the keychain probe and each keychain call. Default 3000. */
  timeoutMs?: number;
}

const STRING_FIELDS = ['email', 'clientId', 'accessToken', 'refreshToken', 'cookies', 'password'] as const;
const NUMBER_FIELDS = ['aid', 'uid', 'accessExpiresAt', 'refreshExpiresAt', 'sessionCreatedAt', 'sessionExpiresAt'] as const;

/**
 * Keeps the known fields with the right types from a parsed record; anything
 * else (a hand-edited file, another version's fields) is dropped.
 */
export function sanitizeCredentials(value: unknown): StoredCredentials | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const out: StoredCredentials = {};
  for (const key of STRING_FIELDS) {
    const v = record[key];
    if (typeof v === 'string') out[key] = v;
  }
  for (const key of NUMBER_FIELDS) {
    const v = record[key];
    if (typeof v === 'number' && Number.isFinite(v)) out[key] = v;
  }
  return out;
}
