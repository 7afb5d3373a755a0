/**
 * Where a path option points. `--out-dir s3://lake/x` taken as a local path would
 * make `./s3:/lake/x` and report success; a value of the form `scheme://…` is a
 * location on some other storage, refused unless the option supports that scheme.
 */
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
