/**
 * Storage behind an adapter: memory (tests) or a JSON file written atomically
 * (temp file + rename) so a crash never leaves half a state behind.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SandboxState } from './types.js';

export interface StoreAdapter {
  /** The saved state, or undefined when there is none yet. */
  load(): SandboxState | undefined;
  /** Schedules a write of the state (writes are coalesced, see FileStore). */
  save(state: SandboxState): void;
  /** Writes any scheduled state now (on close). */
  flush(): void;
  readonly description: string;
}

export class MemoryStore implements StoreAdapter {
  readonly description = 'memory';
  load(): SandboxState | undefined {
    return undefined;
  }
  save(): void {
    // memory mode: the live state is the only copy
  }
  flush(): void {}
}

/** How long changes may wait to be written together: a bulk import commits thousands a second. */
const WRITE_DELAY_MS = 200;

export class FileStore implements StoreAdapter {
  readonly description: string;
  constructor(private readonly file: string) {
    this.description = `file ${file}`;
  }

  load(): SandboxState | undefined {
    if (!existsSync(this.file)) return undefined;
    const text = readFileSync(this.file, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new Error(`sandbox state file ${this.file} is not valid JSON (${(err as Error).message}); remove it with "trackctl sandbox reset"`);
    }
    if (typeof parsed !== 'object' || parsed === null || (parsed as { version?: unknown }).version !== 1) {
      throw new Error(`sandbox state file ${this.file} has an unknown format; remove it with "trackctl sandbox reset"`);
    }
    return parsed as SandboxState;
  }

  #pending: SandboxState | undefined;
  #timer: NodeJS.Timeout | undefined;

  /**
   * Writing the whole state on every change would make a bulk import quadratic, so
   * changes within WRITE_DELAY_MS are written together; close() flushes the last ones.
   */
  save(state: SandboxState): void {
    this.#pending = state;
    this.#timer ??= setTimeout(() => this.flush(), WRITE_DELAY_MS);
  }

  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const state = this.#pending;
    this.#pending = undefined;
    if (!state) return;
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}

/** Delete a persisted state (for `trackctl sandbox reset`). Returns whether a file was removed. */
export function resetState(file: string): boolean {
  const existed = existsSync(file);
  rmSync(file, { force: true });
  return existed;
}
