/**
 * --checkpoint FILE: a cursor saved between runs. Saved atomically (temporary file,
 * fsync, rename) and only after the run's output is flushed; a run that fails saves
 * nothing, so the next run starts again from the last good checkpoint.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../atomic-file.js';
import { localIOError, UsageError } from '../../errors.js';
import { Cursor } from './cursor.js';

const KIND = 'trackctl history checkpoint';
const VERSION = 1;

interface CheckpointFile {
  kind: string;
  version: number;
  unit: number;
  reportTypes: string[] | null;
  lastQueryTime: number;
  seen: string[];
  savedAt: string;
}

export interface CheckpointScope {
  unit: number;
  reportTypes: readonly string[] | undefined;
}

const typesText = (types: readonly string[] | null | undefined): string => (types && types.length > 0 ? [...types].sort().join(',') : 'all');

/** The saved cursor, or undefined when the file does not exist yet (first run). */
export async function loadCheckpoint(file: string, scope: CheckpointScope): Promise<Cursor | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read checkpoint ${file}: ${(err as Error).message}`);
  }
  const bad = (why: string): UsageError =>
    new UsageError(`checkpoint ${file} is not usable: ${why}`, { hint: 'Delete it to start over (the next run prints the default window again).' });
  let data: Partial<CheckpointFile>;
  try {
    data = JSON.parse(text) as Partial<CheckpointFile>;
  } catch {
    throw bad('it is not JSON');
  }
  if (data === null || typeof data !== 'object' || data.kind !== KIND) throw bad('it is not a trackctl history checkpoint');
  if (data.version !== VERSION) throw bad(`version ${String(data.version)} is not supported`);
  if (typeof data.lastQueryTime !== 'number' || !Number.isInteger(data.lastQueryTime) || data.lastQueryTime < 0) throw bad('lastQueryTime is missing');
  if (!Array.isArray(data.seen) || !data.seen.every((k) => typeof k === 'string')) throw bad('seen is missing');
  if (data.unit !== scope.unit || typesText(data.reportTypes) !== typesText(scope.reportTypes)) {
    throw new UsageError(
      `checkpoint ${file} belongs to unit ${String(data.unit)} with report types ${typesText(data.reportTypes)}, not unit ${scope.unit} with ${typesText(scope.reportTypes)}`,
      { hint: 'Use one checkpoint file per unit and --types filter.' },
    );
  }
  return new Cursor(data.lastQueryTime, new Set(data.seen));
}

/** Writes the cursor atomically: readers see the old file or the new one, never a mix. */
export async function saveCheckpoint(file: string, scope: CheckpointScope, cursor: Cursor, nowMs: number): Promise<void> {
  if (cursor.lastQueryTime === undefined) return;
  const data: CheckpointFile = {
    kind: KIND,
    version: VERSION,
    unit: scope.unit,
    reportTypes: scope.reportTypes && scope.reportTypes.length > 0 ? [...scope.reportTypes] : null,
    lastQueryTime: cursor.lastQueryTime,
    seen: [...cursor.seen],
    savedAt: new Date(nowMs).toISOString(),
  };
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFileAtomic(file, `${JSON.stringify(data)}\n`);
  } catch (err) {
    throw localIOError(err, `checkpoint ${file}`, 'save');
  }
}
