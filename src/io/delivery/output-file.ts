/**
 * `--output-file FILE`: where the data that would go to stdout goes instead, written the
 * way a shell's `> FILE` would treat what FILE is, but never leaving a torn file:
 * - a regular file, or a new path: the data goes to a temporary file beside it
 *   (`FILE.<pid>-<hex>.tmp`), renamed over it (synced first) only once it is whole. A run
 *   that fails or is interrupted (SIGINT, SIGTERM) leaves FILE as it was and removes the
 *   temporary file: its signal handlers are in place before the file is created. Only a
 *   SIGKILL (or a crash) leaves one behind, and every later run to the same FILE removes
 *   the temporaries of runs that are no longer alive;
 * - a symbolic link: followed to the file it names, which is replaced there the same way
 *   (the temporary beside that file): the link stays a link;
 * - a character or block device, a FIFO or a socket (/dev/null, /dev/full, a named pipe, a
 *   logging socket): opened and written through, as they cannot be replaced without
 *   destroying them; their errors (ENOSPC of /dev/full) are the run's errors;
 * - our own stdout (/dev/stdout, /proc/self/fd/1, the file stdout is redirected to): the
 *   caller writes to stdout itself (namesStdout), keeping `>>`'s append.
 * The file is opened before any request, so a directory that cannot be written fails first.
 */
import { createWriteStream, fstatSync, statSync, unlinkSync } from 'node:fs';
import { constants, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { processAlive } from '../../lock.js';
import { randomHex } from '../../random.js';
import type { IO } from './streams.js';
import { linkTarget, syncDir } from '../../atomic-file.js';
import { localIOError } from '../../errors.js';

export interface OutputFile {
  readonly path: string;
  /** The temporary file's stream (or the device's, FIFO's or socket's). */
  readonly stream: Writable;
  /** Flushes, syncs and closes the temporary file, then renames it over the file; a device is flushed and closed. */
  commit(): Promise<void>;
  /** Abandons the temporary file (what a device took stays taken); a no-op after commit(). */
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

/**
 * Whether `path` is the file, pipe, socket or terminal this process's stdout is open on:
 * /dev/stdout, /proc/self/fd/1, or the very file a shell redirected stdout to.
 */
export function namesStdout(path: string): boolean {
  try {
    const named = statSync(path);
    const open = fstatSync(1);
    return named.dev === open.dev && named.ino === open.ino;
  } catch {
    return false;
  }
}

export async function openOutputFile(path: string): Promise<OutputFile> {
  // stat follows links, magic ones too (/proc/self/fd/3 naming a pipe cannot be followed by name).
  const kind = await stat(path).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? undefined : Promise.reject(err)));
  if (kind?.isDirectory()) throw Object.assign(new Error(`${path} is a directory`), { code: 'EISDIR' });
  if (kind !== undefined && !kind.isFile()) return kind.isSocket() ? connectSocket(path) : openDevice(path);
  return openReplacing(await linkTarget(path));
}

/**
 * A device or FIFO, written through. Opened without O_CREAT or O_TRUNC: nothing is created
 * or cut should it have been replaced since it was looked at. A FIFO's open waits for its
 * reader, as a shell's `> fifo` does.
 */
async function openDevice(path: string): Promise<OutputFile> {
  const handle = await open(path, constants.O_WRONLY);
  return throughStream(path, createWriteStream('', { fd: handle, autoClose: true }));
}

/** A Unix socket is not opened but connected to (open() of one is ENXIO). */
async function connectSocket(path: string): Promise<OutputFile> {
  const { createConnection } = await import('node:net');
  const socket = createConnection({ path });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return throughStream(path, socket);
}

function throughStream(path: string, stream: Writable): OutputFile {
  stream.on('error', () => undefined); // each write reports its own failure
  let done = false;
  return {
    path,
    stream,
    async commit() {
      if (done) return;
      done = true;
      await writeChunk(stream, '');
      await closeStream(stream);
    },
    async discard() {
      if (done) return;
      done = true;
      await closeStream(stream).catch(() => undefined);
    },
  };
}

function closeStream(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.closed) return resolve();
    stream.once('close', () => resolve());
    stream.once('error', reject);
    stream.end();
  });
}

/** A regular file or a new path: a temporary file beside it, renamed over it once whole. */
async function openReplacing(path: string): Promise<OutputFile> {
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
  return {
    path,
    stream,
    async commit() {
      if (state !== 'open') return;
      await writeChunk(stream, '');
      await handle.sync();
      await closeStream(stream);
      await rename(tmp, path);
      state = 'committed';
      release();
      await syncDir(dirname(path));
    },
    async discard() {
      if (state !== 'open') return;
      state = 'discarded';
      release();
      await closeStream(stream).catch(() => undefined);
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
    // The reports as sent go to the file as bytes, as they go to stdout: no text decoded and encoded again.
    outBytes: (bytes) => writeChunk(stream, bytes).catch((err: unknown) => Promise.reject(localIOError(err, target))),
    err: (text) => base.err(text),
    flush: async () => {
      await writeChunk(stream, '').catch((err: unknown) => Promise.reject(localIOError(err, target)));
      await base.flush();
    },
  };
}
