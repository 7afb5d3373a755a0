/**
 * Atomic file writes for credentials and checkpoints: a 0600 temp file beside
 * the target, flushed, renamed over it, and the directory synced, so a crash
 * leaves either the old file or the new one, never a torn one.
 */
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { randomHex } from './random.js';

export async function writeFileAtomic(path: string, data: string): Promise<void> {
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
