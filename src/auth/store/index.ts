/**
 * Opens the credential store the profile asks for:
 *   file     → the 0600 file; the keychain is never touched.
 *   keychain → the OS keychain; if it proves unusable, that is an error.
 *   auto     → the keychain while it works, else the file with a warning
 *              shown once (a marker file remembers it was shown).
 * The keychain is proven on first use, not here (see KeychainStore), so
 * for auto the backend in use is settled by the first operation.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { TrackctlError } from '../../errors.js';
import { FileStore } from './file.js';
import { AutoStore } from './auto.js';
import { KeychainStore, KeychainUnavailableError, describeError, keychainLocation, loadKeyring } from './keychain.js';
import type { OpenStoreOptions, SecretStore, StoredCredentials } from './types.js';

export { MemoryStore } from './memory.js';
export { FileStore, CREDENTIALS_FILE_NAME } from './file.js';
export { KEYCHAIN_SERVICE, KeychainStore, KeychainUnavailableError } from './keychain.js';
export { AutoStore } from './auto.js';
export { sanitizeCredentials, type OpenStoreOptions, type SecretStore, type StoredCredentials } from './types.js';

export const FALLBACK_MARKER = '.keychain-fallback-warned';
export const DEFAULT_KEYCHAIN_TIMEOUT_MS = 3000;

export async function openSecretStore(opts: OpenStoreOptions): Promise<SecretStore> {
  const warn = opts.warn;
  const file = new FileStore(opts.dataDir, warn ?? (() => undefined));
  if (opts.mode === 'file') return file;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_KEYCHAIN_TIMEOUT_MS;
  const marker = join(opts.dataDir, FALLBACK_MARKER);
  const fallBack = async (reason: string): Promise<void> => {
    if (warn && (await markFirstFallback(opts.dataDir, marker, reason))) {
      warn(
        `no usable OS keychain (${reason}); secrets are stored in ${file.location}, readable only by you. ` +
          'Start a Secret Service (e.g. gnome-keyring) or run "trackctl config set credential-store file" to silence this.',
      );
    }
  };
  let keyring: Awaited<ReturnType<typeof loadKeyring>>;
  try {
    keyring = await loadKeyring(timeoutMs);
  } catch (err) {
    if (opts.mode === 'keychain') throw unusable(err);
    await fallBack(describeError(err));
    return file;
  }
  if (opts.mode === 'keychain') return new StrictKeychainStore(keyring, timeoutMs);
  // Working (again): forget an old warning so a future fallback is reported.
  const onVerified = (): void => {
    try {
      rmSync(marker, { force: true });
    } catch {
      // Only a marker: at worst a future fallback is not re-announced.
    }
  };
  return new AutoStore(new KeychainStore(keyring, timeoutMs, onVerified), file, fallBack);
}

function unusable(err: unknown): TrackctlError {
  return new TrackctlError(`the OS keychain is not usable: ${describeError(err)}`, {
    cause: err,
    hint: `start and unlock a keychain (${keychainLocation()}; e.g. gnome-keyring), or run: trackctl config set credential-store file`,
  });
}

/** credential-store=keychain: same backend, failures reported as "not usable" errors. */
class StrictKeychainStore extends KeychainStore {
  override async load(profile: string): Promise<StoredCredentials | undefined> {
    return strict(() => super.load(profile));
  }
  override async save(profile: string, creds: StoredCredentials): Promise<void> {
    return strict(() => super.save(profile, creds));
  }
  override async remove(profile: string): Promise<void> {
    return strict(() => super.remove(profile));
  }
}

async function strict<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    throw err instanceof KeychainUnavailableError ? unusable(err) : err;
  }
}

/** True the first time only: creates the marker exclusively. */
async function markFirstFallback(dataDir: string, marker: string, reason: string): Promise<boolean> {
  try {
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await writeFile(marker, `${new Date().toISOString()} ${reason}\n`, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (err) {
    // EEXIST: warned before. Anything else (read-only disk): warn rather than stay silent.
    return (err as NodeJS.ErrnoException).code !== 'EEXIST';
  }
}
