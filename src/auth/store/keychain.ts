/**
 * The OS keychain backend on @napi-rs/keyring (loaded only here, on demand).
 *
 * One entry per profile: service `trackctl`, account = profile name, secret =
 * the JSON of StoredCredentials. In the Secret Service the item carries the
 * attributes `service` and `username` (label `keyring:<profile>@trackctl`).
 * On Linux the entry is pinned to the Secret Service: the library's default
 * silently falls back to the kernel keyring, whose keys vanish.
 *
 * Every call uses the async API under a deadline, so a hung D-Bus call or an
 * unanswered unlock prompt becomes an error instead of a stuck command.
 */
import { TrackctlError } from '../../errors.js';
import { checkSessionBus } from './dbus.js';
import { sanitizeCredentials, type SecretStore, type StoredCredentials } from './types.js';
import { randomHex } from '../../random.js';

type KeyringModule = typeof import('@napi-rs/keyring');
type AsyncEntry = import('@napi-rs/keyring').AsyncEntry;

export const KEYCHAIN_SERVICE = 'trackctl';
/** Probe accounts are `__probe__-<pid>-<random>` so parallel processes never read each other's probe. */
export const PROBE_ACCOUNT_PREFIX = '__probe__';
const ENTRY_OPTIONS = { linux: { store: 'secret-service' } } as const;

export function keychainLocation(platform: NodeJS.Platform = process.platform): string {
  const name =
    platform === 'darwin' ? 'macOS Keychain' : platform === 'win32' ? 'Windows Credential Manager' : platform === 'linux' ? 'Secret Service' : 'OS keychain';
  return `${name} (service ${KEYCHAIN_SERVICE})`;
}

/** Runs `work` with an abort signal; rejects when it takes longer than `ms`. */
export async function withDeadline<T>(what: string, ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`${what} did not finish within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** The keychain cannot be used (no bus, locked, timed out): auto mode falls back on this. */
export class KeychainUnavailableError extends TrackctlError {}

/**
 * Verification is read-first, because each entry costs a Secret Service
 * session (~15-35 ms) and a write more: a read that returns a secret proves
 * the store works; only a null read (logged out, or a locked collection that
 * answers null) triggers the write probe. A save is verified by reading back.
 */
export class KeychainStore implements SecretStore {
  readonly kind = 'keychain' as const;
  readonly location = keychainLocation();
  readonly #keyring: KeyringModule;
  readonly #timeoutMs: number;
  readonly #entries = new Map<string, AsyncEntry>();
  readonly #onVerified: () => void;
  #verified = false;

  constructor(keyring: KeyringModule, timeoutMs: number, onVerified: () => void = () => undefined) {
    this.#keyring = keyring;
    this.#timeoutMs = timeoutMs;
    this.#onVerified = onVerified;
  }

  async load(profile: string): Promise<StoredCredentials | undefined> {
    const secret = await this.#call('read', profile, (entry, signal) => entry.getPassword(signal));
    if (secret === null || secret === undefined) {
      await this.verify();
      return undefined;
    }
    this.#markVerified();
    let parsed: unknown;
    try {
      parsed = JSON.parse(secret);
    } catch (err) {
      throw new TrackctlError(`the keychain entry for profile "${profile}" is not valid JSON`, {
        cause: err,
        hint: `sign in again: trackctl logout -p ${profile} && trackctl login -p ${profile}`,
      });
    }
    return sanitizeCredentials(parsed);
  }

  async save(profile: string, creds: StoredCredentials): Promise<void> {
    const secret = JSON.stringify(creds);
    const readBack = await this.#call('write', profile, async (entry, signal) => {
      await entry.setPassword(secret, signal);
      return entry.getPassword(signal);
    });
    if (readBack !== secret) {
      throw new KeychainUnavailableError('the keychain accepted a secret but does not return it (locked or missing collection?)', {
        hint: HINT,
      });
    }
    this.#markVerified();
  }

  async remove(profile: string): Promise<void> {
    // A failed deletion rejects (never resolves false), so no probe is needed.
    await this.#call('delete', profile, (entry, signal) => entry.deletePassword(signal));
  }

  async profiles(): Promise<string[]> {
    const found = await this.#guard('list', async (signal) => {
      // The Secret Service lists the items it holds, then each item is read: an item that another
      // process deleted in between (its write probe, or its logout) is gone when it is read, and
      // the whole listing fails. Listed again, it is not there.
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.#keyring.findCredentialsAsync(KEYCHAIN_SERVICE, undefined, signal);
        } catch (err) {
          if (attempt === LIST_ATTEMPTS || !VANISHED_ITEM.test(describeError(err))) throw err;
        }
      }
    });
    return found
      .map((c) => c.account)
      .filter((account) => !account.startsWith(PROBE_ACCOUNT_PREFIX))
      .sort();
  }

  /**
   * The write probe: write a throw-away entry, read it back, delete it.
   * Probe accounts are unique per call so parallel processes never read each
   * other's probe. Throws KeychainUnavailableError.
   */
  async verify(): Promise<void> {
    if (this.#verified) return;
    const account = `${PROBE_ACCOUNT_PREFIX}-${process.pid}-${await randomHex(4)}`;
    const nonce = await randomHex(12);
    const readBack = await this.#guard('probe', async (signal) => {
      const entry = newEntry(this.#keyring, account);
      try {
        await entry.setPassword(nonce, signal);
        return await entry.getPassword(signal);
      } finally {
        await entry.deletePassword(signal).catch(() => false);
      }
    });
    if (readBack !== nonce) {
      throw new KeychainUnavailableError(
        'a test entry written to the keychain could not be read back (locked or missing collection?)',
        { hint: HINT },
      );
    }
    this.#markVerified();
  }

  #markVerified(): void {
    if (this.#verified) return;
    this.#verified = true;
    this.#onVerified();
  }

  #call<T>(op: string, profile: string, work: (entry: AsyncEntry, signal: AbortSignal) => Promise<T>): Promise<T> {
    return this.#guard(`${op} for profile "${profile}"`, (signal) => {
      let entry = this.#entries.get(profile);
      if (entry === undefined) {
        entry = newEntry(this.#keyring, profile);
        this.#entries.set(profile, entry);
      }
      return work(entry, signal);
    });
  }

  async #guard<T>(what: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    try {
      return await withDeadline(`keychain ${what}`, this.#timeoutMs, work);
    } catch (err) {
      if (err instanceof TrackctlError) throw err;
      throw new KeychainUnavailableError(`keychain ${what} failed: ${describeError(err)}`, { cause: err, hint: HINT });
    }
  }
}

/** How many times a listing is tried when an item vanished while it was read. */
const LIST_ATTEMPTS = 5;
/** The bus's answer for an item object that no longer exists (zbus: UnknownMethod or UnknownObject, on an item's path). */
const VANISHED_ITEM = /(UnknownMethod|UnknownObject)\b.*\/org\/freedesktop\/secrets\/collection\/\S+\/\S+/;

const HINT = 'unlock the keychain (Secret Service) and retry, or run: trackctl config set credential-store file';

function newEntry(keyring: KeyringModule, account: string): AsyncEntry {
  return new keyring.AsyncEntry(KEYCHAIN_SERVICE, account, ENTRY_OPTIONS);
}

export function describeError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/\s+/g, ' ').trim();
}

/**
 * Checks the bus answers (Linux) and loads the native binding, within
 * `timeoutMs`. Throws with the reason when either fails. Nothing is trusted
 * yet: KeychainStore verifies on first use.
 */
export async function loadKeyring(timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<KeyringModule> {
  if (process.platform === 'linux') {
    const busProblem = await checkSessionBus(env, timeoutMs);
    if (busProblem !== undefined) throw new KeychainUnavailableError(busProblem, { hint: HINT });
  }
  try {
    const mod = (await import('@napi-rs/keyring')) as KeyringModule & { default?: KeyringModule };
    return typeof mod.AsyncEntry === 'function' ? mod : (mod.default ?? mod);
  } catch (err) {
    throw new KeychainUnavailableError(`cannot load the keychain library: ${describeError(err)}`, { cause: err, hint: HINT });
  }
}
