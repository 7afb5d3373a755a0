/**
 * The file fallback: `<dataDir>/credentials.json`, readable only by its owner.
 *
 *   { "profiles": { "<name>": StoredCredentials } }
 *
 * Writes replace the file atomically (temp file created 0600 in the same
 * directory, then rename) under a short inter-process lock, so concurrent
 * saves for different profiles do not lose each other.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { TrackctlError } from '../../errors.js';
import { sanitizeCredentials, type SecretStore, type StoredCredentials } from './types.js';

export const CREDENTIALS_FILE_NAME = 'credentials.json';

type Records = Record<string, StoredCredentials>;

export class FileStore implements SecretStore {
  readonly kind = 'file' as const;
  readonly location: string;
  readonly #dir: string;
  readonly #warn: (message: string) => void;
  #warnedMode = false;

  constructor(dataDir: string, warn: (message: string) => void) {
    this.#dir = dataDir;
    this.#warn = warn;
    this.location = join(dataDir, CREDENTIALS_FILE_NAME);
  }

  async load(profile: string): Promise<StoredCredentials | undefined> {
    const records = await this.#read();
    return Object.hasOwn(records, profile) ? records[profile] : undefined;
  }

  async save(profile: string, creds: StoredCredentials): Promise<void> {
    await this.#update((records) => {
      records[profile] = { ...creds };
    });
  }

  async remove(profile: string): Promise<void> {
    if (!Object.hasOwn(await this.#read(), profile)) return;
    await this.#update((records) => {
      delete records[profile];
    });
  }

  async profiles(): Promise<string[]> {
    return Object.keys(await this.#read()).sort();
  }

  async #read(): Promise<Records> {
    let text: string;
    try {
      // Read synchronously, like the config: a small file, and node:fs/promises (which brings
      // readline and the file watchers along) would cost every command ~2 ms to load.
      text = readFileSync(this.location, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return Object.create(null) as Records;
      throw new TrackctlError(`cannot read credentials file ${this.location}: ${(err as Error).message}`, { cause: err });
    }
    await this.#checkMode();
    return parseRecords(text, this.location);
  }

  /** Warns (once per process) when group or others can read the file. */
  async #checkMode(): Promise<void> {
    if (this.#warnedMode || process.platform === 'win32') return;
    const mode = statSync(this.location).mode & 0o777;
    if ((mode & 0o077) === 0) return;
    this.#warnedMode = true;
    this.#warn(
      `credentials file ${this.location} is readable by others (mode ${mode.toString(8).padStart(4, '0')}); run: chmod 600 ${this.location}`,
    );
  }

  async #update(change: (records: Records) => void): Promise<void> {
    await ensurePrivateDir(this.#dir);
    const { withFileLock } = await import('../../lock.js');
    await withFileLock(`${this.location}.lock`, async () => {
      const records = await this.#read();
      change(records);
      await writeAtomic(this.location, `${JSON.stringify({ profiles: records }, undefined, 2)}\n`);
    }, { timeoutMs: 10_000, staleMs: 10_000 });
  }
}

function parseRecords(text: string, path: string): Records {
  const records = Object.create(null) as Records;
  if (text.trim() === '') return records;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new TrackctlError(`credentials file ${path} is not valid JSON`, {
      cause: err,
      hint: `remove ${path} and sign in again with: trackctl login`,
    });
  }
  const profiles = typeof parsed === 'object' && parsed !== null ? (parsed as { profiles?: unknown }).profiles : undefined;
  if (typeof profiles !== 'object' || profiles === null) return records;
  for (const [name, value] of Object.entries(profiles)) {
    const creds = sanitizeCredentials(value);
    if (creds !== undefined) records[name] = creds;
  }
  return records;
}

/**
 * Creates the directory 0700 when missing. An existing directory is left as
 * is (it may be one the user chose); the file itself is always 0600.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  const { mkdir } = await import('node:fs/promises');
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/** The credentials file, written atomically and readable by its owner only. */
async function writeAtomic(path: string, data: string): Promise<void> {
  try {
    const { writeFileAtomic } = await import('../../atomic-file.js');
    await writeFileAtomic(path, data);
  } catch (err) {
    throw new TrackctlError(`cannot write ${path}: ${(err as Error).message}`, { cause: err });
  }
}
