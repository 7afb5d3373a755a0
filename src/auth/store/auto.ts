/**
 * `credential-store=auto`: the keychain while it works, else the file.
 *
 * The keychain verifies itself on first use (see KeychainStore), so the
 * choice is made by the first operation: if the keychain turns out to be
 * unusable, this store switches to the file for good, warns (once, via the
 * caller's callback) and repeats the operation there. `kind` and `location`
 * describe the backend in use and are settled after the first operation.
 */
import { KeychainUnavailableError, type KeychainStore } from './keychain.js';
import type { FileStore } from './file.js';
import type { SecretStore, StoredCredentials } from './types.js';

export class AutoStore implements SecretStore {
  #current: SecretStore;
  readonly #file: FileStore;
  readonly #onFallback: (reason: string) => Promise<void>;

  constructor(keychain: KeychainStore, file: FileStore, onFallback: (reason: string) => Promise<void>) {
    this.#current = keychain;
    this.#file = file;
    this.#onFallback = onFallback;
  }

  get kind(): SecretStore['kind'] {
    return this.#current.kind;
  }

  get location(): string {
    return this.#current.location;
  }

  load(profile: string): Promise<StoredCredentials | undefined> {
    return this.#run((s) => s.load(profile));
  }

  save(profile: string, creds: StoredCredentials): Promise<void> {
    return this.#run((s) => s.save(profile, creds));
  }

  remove(profile: string): Promise<void> {
    return this.#run((s) => s.remove(profile));
  }

  profiles(): Promise<string[]> {
    return this.#run(async (s) => (await s.profiles?.()) ?? []);
  }

  async #run<T>(op: (store: SecretStore) => Promise<T>): Promise<T> {
    if (this.#current === this.#file) return op(this.#file);
    try {
      return await op(this.#current);
    } catch (err) {
      if (!(err instanceof KeychainUnavailableError)) throw err;
      this.#current = this.#file;
      await this.#onFallback(err.message);
      return op(this.#file);
    }
  }
}
