/**
 * `--output-file FILE`: the data that would go to stdout goes to a temporary file beside
 * FILE instead (`FILE.<pid>-<hex>.tmp`), renamed over FILE (synced first) only once it is
 * whole. A run that fails or is interrupted (SIGINT, SIGTERM) leaves FILE as it was and
 * removes the temporary file: its signal handlers are in place before the file is created.
 * Only a SIGKILL (or a crash) leaves one behind, and every later run to the same FILE
 * removes the temporaries of runs that are no longer alive. The file is opened before any
 * request, so a directory that cannot be written fails first.
 */
import { createWriteStream, unlinkSync } from 'node:fs';
import { open, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { processAlive } from '../auth/lock.js';
import { randomHex } from '../random.js';
import type { IO } from './streams.js';
import { syncDir } from '../atomic-file.js';
import { localIOError } from '../errors.js';

export interface OutputFile {
  readonly path: string;
  /** The temporary file's stream. */
  readonly stream: Writable;
  /** Flushes, syncs and closes the temporary file, then renames it over `path`. */
  commit(): Promise<void>;
  /** Abandons the temporary file; a no-op after commit(). */
  discard(): Promise<void>;
}


/** Resolves once the stream has taken the chunk (its callback): backpressure one write at a time. */
export function writeChunk(stream: Writable, chunk: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.destroyed || stream.writableEnded) {
      reject(Object.assign(new Error('the output stream is closed'), { code: 'EPIPE' }));
      return;
    }
    stream.write(chunk, (err) => (err ? reject(err) : resolve()));
  });
}

/**
 * Removes the temporary files of `path` (`<name>.<pid>-<hex>.tmp` beside it) left by runs
 * that are no longer alive: a pid that is gone, or our own (a killed run's pid, reused;
 * this run has made none yet).
 */
export async function sweepTemporaries(path: string): Promise<void> {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const pid = name.startsWith(prefix) ? /^(\d+)-[0-9a-f]+\.tmp$/.exec(name.slice(prefix.length))?.[1] : undefined;
      if (pid !== undefined && (Number(pid) === process.pid || !processAlive(Number(pid)))) await unlink(join(dir, name)).catch(() => undefined);
    }),
  );
}

export async function openOutputFile(path: string): Promise<OutputFile> {
  const tmp = `${path}.${process.pid}-${await randomHex(4)}.tmp`;
  // Interrupted from here on: remove the temporary file (if it exists yet), then let the signal do what it would have done.
  const onSignal = (signal: NodeJS.Signals): void => {
    release();
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    process.kill(process.pid, signal);
  };
  const release = (): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let handle;
  try {
    await sweepTemporaries(path);
    handle = await open(tmp, 'wx');
  } catch (err) {
    release();
    throw err;
  }
  const stream = createWriteStream('', { fd: handle, autoClose: true });
  stream.on('error', () => undefined); // each write reports its own failure
  let state: 'open' | 'committed' | 'discarded' = 'open';
  const close = (): Promise<void> =>
    new Promise((resolve, reject) => {
      if (stream.closed) return resolve();
      stream.once('close', () => resolve());
      stream.once('error', reject);
      stream.end();
    });
  return {
    path,
    stream,
    async commit() {
      if (state !== 'open') return;
      await writeChunk(stream, '');
      await handle.sync();
      await close();
      await rename(tmp, path);
      state = 'committed';
      release();
      await syncDir(dirname(path));
    },
    async discard() {
      if (state !== 'open') return;
      state = 'discarded';
      release();
      await close().catch(() => undefined);
      await unlink(tmp).catch(() => undefined);
    },
  };
}

/** An IO whose stdout is `stream` (not a terminal); stderr, stdin and width are `base`'s; `target` names it in errors. */
export function ioWithStdout(base: IO, stream: Writable, target = 'the output file'): IO {
  return {
    stdout: stream,
    get stderr() {
      return base.stderr;
    },
    get stdin() {
      return base.stdin;
    },
    stdoutIsTTY: false,
    get stderrIsTTY() {
      return base.stderrIsTTY;
    },
    get stdinIsTTY() {
      return base.stdinIsTTY;
    },
    columns: () => base.columns(),
    out: (text) => writeChunk(stream, text).catch((err: unknown) => Promise.reject(localIOError(err, target))),
    err: (text) => base.err(text),
    flush: async () => {
      await writeChunk(stream, '').catch((err: unknown) => Promise.reject(localIOError(err, target)));
      await base.flush();
    },
  };
}
