/**
 * The live state, its clock and its store. Domain operations (service/*.ts) take a Db,
 * know nothing of HTTP and throw SandboxError for the router to render.
 */
import type { StoreAdapter } from '../store.js';
import type { SandboxState } from '../types.js';

export interface Lifetimes {
  /** Seconds. */
  access: number;
  refresh: number;
  session: number;
}

export class Db {
  /** Bumped on every committed change; caches of rendered replies key on it. */
  version = 0;
  /** Bumped on changes that can alter a unit record (unit lists key on it). */
  unitVersion = 0;
  private readonly cache = new Map<string, string | Buffer>();

  constructor(
    public state: SandboxState,
    private readonly store: StoreAdapter,
    public clockMs: () => number,
    public readonly ttl: Lifetimes,
    public readonly benchReports: number,
  ) {}

  /** The sandbox clock in unix seconds. */
  now(): number {
    return Math.floor(this.clockMs() / 1000);
  }

  /**
   * Record a change: invalidate caches and schedule a write of the state (a file store
   * writes changes together within a moment, and on close). `unitsUnchanged` keeps
   * rendered unit lists (sign-ins, shares, group names).
   */
  commit(unitsUnchanged = false): void {
    this.version++;
    if (!unitsUnchanged) this.unitVersion++;
    if (!unitsUnchanged) this.cache.clear();
    this.store.save(this.state);
  }

  /** Persist without invalidating rendered replies (token and session bookkeeping). */
  persist(): void {
    this.store.save(this.state);
  }

  /** A rendered reply cached per state version (or unit version) and clock second. */
  cached(key: string, render: () => string | Buffer, unitsOnly = false): string | Buffer {
    const full = `${key}@${unitsOnly ? `u${this.unitVersion}` : this.version}@${this.now()}`;
    let text = this.cache.get(full);
    if (text === undefined) {
      if (this.cache.size > 32) this.cache.clear();
      text = render();
      this.cache.set(full, text);
    }
    return text;
  }
}
