/**
 * Where a page goes: stdout when it is a file or a pipe; on a terminal, where markup
 * would only scroll past, a new file in the current directory, named on stderr.
 */
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { OutputOptions } from '../../formats/output.js';

/** trackctl-history-20261121-100405.html (UTC), in the current directory. */
export function pageFileName(kind: string, nowMs: number): string {
  const stamp = new Date(nowMs).toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return `trackctl-${kind}-${stamp}.html`;
}

/** Writes the pieces to stdout, or (stdout on a terminal) to a new file; returns that file's path, if any. */
export async function writePage(pieces: Iterable<string>, out: OutputOptions, kind: string): Promise<string | undefined> {
  if (!out.tty) {
    for (const piece of pieces) await out.io.out(piece);
    return undefined;
  }
  const base = pageFileName(kind, out.now());
  let path = resolve(base);
  let file;
  // Never overwrite: a second page in the same second gets a suffix.
  for (let n = 1; ; n++) {
    try {
      file = await open(path, 'wx', 0o600);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || n > 50) throw err;
      path = resolve(base.replace(/\.html$/, `-${n}.html`));
    }
  }
  let bytes = 0;
  try {
    for (const piece of pieces) {
      const buf = Buffer.from(piece);
      bytes += buf.length;
      await file.write(buf);
    }
  } finally {
    await file.close();
  }
  out.io.err(`Wrote the map to ${path} (${formatSize(bytes)}); open it in a browser, or use trackctl map … to open it at once.`);
  return path;
}

export function formatSize(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
