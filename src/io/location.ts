/**
 * Where a path option points. `--out-dir s3://lake/x` taken as a local path would
 * make `./s3:/lake/x` and report success; a value of the form `scheme://…` is a
 * location on some other storage, refused unless the option supports that scheme.
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//;

/**
 * 'local' for a path, or the scheme (lower case) when `supported` lists it;
 * any other `scheme://` value is a UsageError naming the option (nothing was sent yet).
 */
export function locationScheme<S extends string>(value: string, option: string, supported: readonly S[] = []): 'local' | S {
  const m = SCHEME.exec(value.trim());
  if (!m) return 'local';
  const scheme = (m[1] as string).toLowerCase();
  if ((supported as readonly string[]).includes(scheme)) return scheme as S;
  const instead = supported.length === 0 ? 'a local path' : `a local path or ${supported.map((s) => `${s}://`).join(', ')}`;
  throw new UsageError(`${option} ${value}: ${scheme}:// locations are not supported; use ${instead}`);
}

/**
 * A local path option checked before any request: refused (exit 2, naming the option)
 * when it has a scheme, when a file is where a directory must be (`--checkpoint
 * notes.txt/cp.json`), or when a file option names a directory. What cannot be
 * known before writing (a full disk, permissions) fails at the write, naming the path.
 */
export function checkLocalPath(value: string, option: string, kind: 'file' | 'directory'): void {
  locationScheme(value, option);
  const path = resolve(value);
  const own = statOf(path);
  if (own?.isDirectory() && kind === 'file') throw new UsageError(`${option} ${value}: is a directory, not a file`);
  if (own && !own.isDirectory() && kind === 'directory') throw new UsageError(`${option} ${value}: is a file, not a directory`);
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const stat = statOf(dir);
    if (stat) {
      if (!stat.isDirectory()) throw new UsageError(`${option} ${value}: ${dir} is a file, not a directory`);
      return;
    }
    if (dirname(dir) === dir) return;
  }
}

/** The entry at `path`, or undefined when there is none (missing, or a file where a directory would be). */
function statOf(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw err;
  }
}
