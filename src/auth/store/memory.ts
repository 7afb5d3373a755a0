/** An in-memory store for tests and --sandbox: nothing touches the disk or keychain. */
import type { SecretStore, StoredCredentials } from './types.js';

export class MemoryStore implements SecretStore {
  readonly kind = 'memory' as const;
  readonly location = 'memory (discarded on exit)';
  readonly #records = new Map<string, StoredCredentials>();

  constructor(initial?: Record<string, StoredCredentials>) {
    for (const [profile, creds] of Object.entries(initial ?? {})) this.#records.set(profile, { ...creds });
  }

  async load(profile: string): Promise<StoredCredentials | undefined> {
    const creds = this.#records.get(profile);
    return creds === undefined ? undefined : { ...creds };
  }

  async save(profile: string, creds: StoredCredentials): Promise<void> {
    this.#records.set(profile, { ...creds });
  }

  async remove(profile: string): Promise<void> {
    this.#records.delete(profile);
  }

  async profiles(): Promise<string[]> {
    return [...this.#records.keys()].sort();
  }
}
