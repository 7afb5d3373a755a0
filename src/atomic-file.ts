/**
 * Atomic file writes for credentials and checkpoints: a 0600 temp file beside
 * the target, flushed, renamed over it, and the directory synced, so a crash
 * leaves either the old file or the new one, never a torn one. A symbolic link
 * is followed to its file, which is replaced there (the link stays a link);
 * anything but a regular file (a device, a FIFO) is refused, never replaced.
 */
import { lstat, open, readlink, rename, stat, unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { randomHex } from './random.js';

export async function writeFileAtomic(given: string, data: string): Promise<void> {
  const path = await linkTarget(given);
  const existing = await stat(path).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? undefined : Promise.reject(err)));
  if (existing !== undefined && !existing.isFile()) throw Object.assign(new Error(`${given} is not a regular file`), { code: 'EINVAL' });
  const tmp = `${path}.${process.pid}-${await randomHex(4)}.tmp`;
  try {
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await syncDir(dirname(path));
}

/** Makes a rename durable; not every platform can open a directory, which is fine. */
export async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort
  }
}

/** The file a chain of symbolic links ends at (which may not exist yet: writing to the link creates it). */
export async function linkTarget(path: string): Promise<string> {
  let current = resolve(path);
  // Linux's own bound on links followed in one lookup.
  for (let hops = 0; hops < 40; hops++) {
    const entry = await lstat(current).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? undefined : Promise.reject(err)));
    if (!entry?.isSymbolicLink()) return current;
    current = resolve(dirname(current), await readlink(current));
  }
  throw Object.assign(new Error(`${path}: too many levels of symbolic links`), { code: 'ELOOP' });
}
