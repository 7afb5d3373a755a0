/**
 * Profiles in `<configDir>/config.json`:
 *   { "current-profile"?: string, "profiles": { "<name>": { "base-url": ..., ... } } }
 *
 * Reads are on every command's path, so they parse the file with
 * fs.readFileSync and never load `conf` (~60-150 ms of ajv at import).
 * Writes are rare and go through `conf`, imported on demand, which writes
 * atomically (temp file + rename) with mode 0600.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import {
  PROFILE_KEYS,
  assertProfileKey,
  validateProfileName,
  validateSetting,
  type ProfileSettings,
} from './schema.js';

export interface ConfigFile {
  'current-profile'?: string;
  profiles?: Record<string, ProfileSettings>;
  /** Command aliases (name → expansion), shared by every profile. */
  aliases?: Record<string, string>;
}

export interface ConfigStore {
  readonly path: string;
  /** The stored settings of one profile (no defaults); {} when absent. */
  read(profile: string): ProfileSettings;
  /** Validates, stores and returns the normalised value. */
  set(profile: string, key: string, value: string): Promise<string>;
  /** Validates the key; false when it was not set. */
  unset(profile: string, key: string): Promise<boolean>;
  /** Names of the profiles in the file, sorted. */
  profiles(): string[];
  /** The `current-profile` entry, if any. */
  currentProfile(): string | undefined;
  /** Sets (or with undefined, clears) `current-profile`. */
  setCurrentProfile(profile: string | undefined): Promise<void>;
  /** The aliases, by name (entries that are not strings are left out). */
  aliases(): Record<string, string>;
  /** Stores an alias; the caller validated the name and the expansion. */
  setAlias(name: string, expansion: string): Promise<void>;
  /** false when there was no such alias. */
  deleteAlias(name: string): Promise<boolean>;
}

export const CONFIG_FILE_NAME = 'config.json';

type ConfModule = typeof import('conf');

class FileConfigStore implements ConfigStore {
  readonly path: string;
  readonly #dir: string;

  constructor(configDir: string) {
    this.#dir = configDir;
    this.path = join(configDir, CONFIG_FILE_NAME);
  }

  read(profile: string): ProfileSettings {
    validateProfileName(profile);
    return pickSettings(profileRecord(this.#load(), profile));
  }

  profiles(): string[] {
    const profiles = this.#load().profiles;
    return profiles ? Object.keys(profiles).sort() : [];
  }

  currentProfile(): string | undefined {
    const current = this.#load()['current-profile'];
    return typeof current === 'string' && current !== '' ? current : undefined;
  }

  async set(profile: string, key: string, value: string): Promise<string> {
    validateProfileName(profile);
    const k = assertProfileKey(key);
    const stored = validateSetting(k, value);
    await this.#update((file) => {
      const profiles = file.profiles ?? {};
      const existing = profileRecord(file, profile);
      profiles[profile] = { ...(isObject(existing) ? existing : {}), [k]: stored };
      file.profiles = profiles;
    });
    return stored;
  }

  async unset(profile: string, key: string): Promise<boolean> {
    validateProfileName(profile);
    const k = assertProfileKey(key);
    if (this.read(profile)[k] === undefined) return false;
    let removed = false;
    await this.#update((file) => {
      const settings = file.profiles?.[profile];
      if (settings && Object.hasOwn(settings, k)) {
        delete settings[k];
        removed = true;
      }
    });
    return removed;
  }

  async setCurrentProfile(profile: string | undefined): Promise<void> {
    if (profile !== undefined) validateProfileName(profile);
    await this.#update((file) => {
      if (profile === undefined) delete file['current-profile'];
      else file['current-profile'] = profile;
    });
  }

  aliases(): Record<string, string> {
    return aliasesOf(this.#load());
  }

  async setAlias(name: string, expansion: string): Promise<void> {
    await this.#update((file) => {
      file.aliases = { ...aliasesOf(file), [name]: expansion };
    });
  }

  async deleteAlias(name: string): Promise<boolean> {
    if (!Object.hasOwn(this.aliases(), name)) return false;
    await this.#update((file) => {
      const aliases = aliasesOf(file);
      delete aliases[name];
      file.aliases = aliases;
    });
    return true;
  }

  #load(): ConfigFile {
    return readConfigFile(this.path);
  }

  async #update(change: (file: ConfigFile) => void): Promise<void> {
    // Parse with our own reader first so a malformed file gets the same error as read().
    const file = readConfigFile(this.path);
    const { default: Conf } = (await import('conf')) as ConfModule;
    const conf = new Conf<Record<string, unknown>>({
      cwd: this.#dir,
      configName: 'config',
      fileExtension: 'json',
      projectName: 'trackctl',
      configFileMode: 0o600,
      // Profile names may contain dots; keys are never paths.
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
    });
    change(file);
    conf.store = { ...file } as Record<string, unknown>;
  }
}

function aliasesOf(file: ConfigFile): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  if (isObject(file.aliases)) for (const [name, expansion] of Object.entries(file.aliases)) if (typeof expansion === 'string') out[name] = expansion;
  return out;
}

function profileRecord(file: ConfigFile, profile: string): unknown {
  const profiles = file.profiles;
  return profiles && Object.hasOwn(profiles, profile) ? profiles[profile] : undefined;
}

/** Keeps only known keys with string values; ignores anything else in the file. */
function pickSettings(record: unknown): ProfileSettings {
  const out: ProfileSettings = {};
  if (!isObject(record)) return out;
  for (const key of PROFILE_KEYS) {
    const value = record[key];
    if (typeof value === 'string') out[key] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') out[key] = String(value);
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses config.json; a missing (or empty) file is an empty config. */
export function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`cannot read config file ${path}: ${(err as Error).message}`, { cause: err });
  }
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`config file ${path} is not valid JSON: ${(err as Error).message}`, {
      cause: err,
      hint: `fix or remove ${path}`,
    });
  }
  if (!isObject(parsed)) {
    throw new UsageError(`config file ${path} must hold a JSON object`, { hint: `fix or remove ${path}` });
  }
  const file: ConfigFile = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (key === 'profiles') continue;
    (file as Record<string, unknown>)[key] = value;
  }
  if (isObject(parsed['profiles'])) {
    const profiles: Record<string, ProfileSettings> = Object.create(null) as Record<string, ProfileSettings>;
    for (const [name, record] of Object.entries(parsed['profiles'])) {
      // Keep unknown keys a newer trackctl may have written; read() filters them.
      if (isObject(record)) profiles[name] = record as ProfileSettings;
    }
    file.profiles = profiles;
  }
  return file;
}

export function openConfig(configDir: string): ConfigStore {
  return new FileConfigStore(configDir);
}
