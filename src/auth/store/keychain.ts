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
import { randomBytes } from 'node:crypto';
import { TrackctlError } from '../../errors.js';
import { checkSessionBus } from './dbus.js';
import { sanitizeCredentials, type SecretStore, type StoredCredentials } from './types.js';

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

export class KeychainStore implements SecretStore {
  readonly kind = 'keychain' as const;
  readonly location = keychainLocation();
  readonly #keyring: KeyringModule;
  readonly #timeoutMs: number;

  constructor(keyring: KeyringModule, timeoutMs: number) {
    this.#keyring = keyring;
    this.#timeoutMs = timeoutMs;
  }

  async load(profile: string): Promise<StoredCredentials | undefined> {
    const secret = await this.#call('read', profile, (entry, signal) => entry.getPassword(signal));
    if (secret === null || secret === undefined) return undefined;
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
    await this.#call('write', profile, (entry, signal) => entry.setPassword(JSON.stringify(creds), signal));
  }

  async remove(profile: string): Promise<void> {
    await this.#call('delete', profile, (entry, signal) => entry.deletePassword(signal));
  }

  async profiles(): Promise<string[]> {
    const found = await this.#guard('list', () =>
      withDeadline('keychain list', this.#timeoutMs, (signal) =>
        this.#keyring.findCredentialsAsync(KEYCHAIN_SERVICE, undefined, signal),
      ),
    );
    return found
      .map((c) => c.account)
      .filter((account) => !account.startsWith(PROBE_ACCOUNT_PREFIX))
      .sort();
  }

  #call<T>(op: string, profile: string, work: (entry: AsyncEntry, signal: AbortSignal) => Promise<T>): Promise<T> {
    return this.#guard(`${op} for profile "${profile}"`, () =>
      withDeadline(`keychain ${op}`, this.#timeoutMs, (signal) => work(newEntry(this.#keyring, profile), signal)),
    );
  }

  async #guard<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw new TrackctlError(`keychain ${what} failed: ${describeError(err)}`, {
        cause: err,
        hint: 'unlock the keychain (Secret Service) and retry, or run: trackctl config set credential-store file',
      });
    }
  }
}

function newEntry(keyring: KeyringModule, account: string): AsyncEntry {
  return new keyring.AsyncEntry(KEYCHAIN_SERVICE, account, ENTRY_OPTIONS);
}

export function describeError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/\s+/g, ' ').trim();
}

/**
 * Loads the binding and proves the keychain works: write a probe entry, read
 * it back, delete it. A locked or missing collection can answer null instead
 * of failing, so only a round trip counts. Throws (with the reason) otherwise.
 */
export async function openKeychain(timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<KeychainStore> {
  const started = Date.now();
  if (process.platform === 'linux') {
    const busProblem = await checkSessionBus(env, timeoutMs);
    if (busProblem !== undefined) throw new Error(busProblem);
  }
  const left = Math.max(1, timeoutMs - (Date.now() - started));
  const keyring = await withDeadline('keychain probe', left, async (signal) => {
    const mod = (await import('@napi-rs/keyring')) as KeyringModule & { default?: KeyringModule };
    const binding: KeyringModule = typeof mod.AsyncEntry === 'function' ? mod : (mod.default ?? mod);
    const account = `${PROBE_ACCOUNT_PREFIX}-${process.pid}-${randomBytes(4).toString('hex')}`;
    const nonce = randomBytes(12).toString('hex');
    const entry = newEntry(binding, account);
    let readBack: string | null;
    try {
      await entry.setPassword(nonce, signal);
      readBack = await entry.getPassword(signal);
    } finally {
      await entry.deletePassword(signal).catch(() => false);
    }
    if (readBack !== nonce) {
      throw new Error('a test entry written to the keychain could not be read back (locked or missing collection?)');
    }
    return binding;
  });
  return new KeychainStore(keyring, timeoutMs);
}
