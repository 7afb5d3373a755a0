/** What every checkpoint file (history, watch) checks first: JSON, an object, of its kind. */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';

export interface CheckpointText {
  data: Record<string, unknown>;
  /** A usage error for a file that cannot be used, saying how to start over. */
  bad(why: string): UsageError;
}

export function readCheckpointText(file: string, text: string, kind: string, startOver: string): CheckpointText {
  const bad = (why: string): UsageError => new UsageError(`checkpoint ${file} is not usable: ${why}`, { hint: `Delete it to start over (${startOver}).` });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw bad('it is not JSON');
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data) || (data as { kind?: unknown }).kind !== kind) throw bad(`it is not a ${kind}`);
  return { data: data as Record<string, unknown>, bad };
}

/** The file's text, or undefined when it does not exist yet (a first run); unreadable is a usage error. */
export async function readCheckpointFile(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read checkpoint ${file}: ${(err as Error).message}`);
  }
}
