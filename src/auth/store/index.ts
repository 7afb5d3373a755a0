/**
 * Opens the credential store the profile asks for:
 *   file     → the 0600 file; the keychain is never touched.
 *   keychain → the OS keychain, proven by a probe; failure is an error.
 *   auto     → the keychain when the probe passes, else the file with a
 *              warning shown once (a marker file remembers it was shown).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TrackctlError } from '../../errors.js';
import { FileStore } from './file.js';
import { describeError, keychainLocation, openKeychain } from './keychain.js';
import type { OpenStoreOptions, SecretStore } from './types.js';

export { MemoryStore } from './memory.js';
export { FileStore, CREDENTIALS_FILE_NAME } from './file.js';
export { KEYCHAIN_SERVICE, KeychainStore } from './keychain.js';
export { sanitizeCredentials, type OpenStoreOptions, type SecretStore, type StoredCredentials } from './types.js';

export const FALLBACK_MARKER = '.keychain-fallback-warned';
export const DEFAULT_KEYCHAIN_TIMEOUT_MS = 3000;

export async function openSecretStore(opts: OpenStoreOptions): Promise<SecretStore> {
  const file = new FileStore(opts.dataDir, opts.warn);
  if (opts.mode === 'file') return file;
  const marker = join(opts.dataDir, FALLBACK_MARKER);
  let reason: string;
  try {
    const keychain = await openKeychain(opts.timeoutMs ?? DEFAULT_KEYCHAIN_TIMEOUT_MS);
    // Working again: forget the old warning so a future fallback is reported.
    if (opts.mode === 'auto') await rm(marker, { force: true }).catch(() => undefined);
    return keychain;
  } catch (err) {
    reason = describeError(err);
    if (opts.mode === 'keychain') {
      throw new TrackctlError(`the OS keychain is not usable: ${reason}`, {
        cause: err,
        hint: `start and unlock a keychain (${keychainLocation()}; e.g. gnome-keyring), or run: trackctl config set credential-store file`,
      });
    }
  }
  if (await markFirstFallback(opts.dataDir, marker, reason)) {
    opts.warn(
      `no usable OS keychain (${reason}); secrets are stored in ${file.location}, readable only by you. ` +
        'Start a Secret Service (e.g. gnome-keyring) or run "trackctl config set credential-store file" to silence this.',
    );
  }
  return file;
}

/** True the first time only: creates the marker exclusively. */
async function markFirstFallback(dataDir: string, marker: string, reason: string): Promise<boolean> {
  try {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await writeFile(marker, `${new Date().toISOString()} ${reason}\n`, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (err) {
    // EEXIST: warned before. Anything else (read-only disk): warn rather than stay silent.
    return (err as NodeJS.ErrnoException).code !== 'EEXIST';
  }
}
