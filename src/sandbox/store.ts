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
  save(state: SandboxState): void;
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
}

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

  save(state: SandboxState): void {
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
