/**
 * IO owns stdout, stderr and stdin, TTY detection, colour and width.
 * Commands receive it through the context; tests build one over buffers.
 * Only src/io/ writes to the terminal.
 */
import { fstat, fstatSync, fsync, readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { DeliveryError, isLocalIOFailure, localIOError } from '../../errors.js';
import { newlineAfterTornLine } from './torn-line.js';

export interface IO {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdin: Readable;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  /** Terminal width for tables; 80 when unknown. */
  columns(): number;
  /** Write data (stdout). Resolves when the chunk is flushed or buffered below the high-water mark. */
  out(text: string): Promise<void>;
  /** Write data that is already UTF-8 bytes, as `out` does text (where absent, the bytes go to `out` as text). */
  outBytes?(bytes: Uint8Array): Promise<void>;
  /** Write a message line to stderr. */
  err(text: string): void;
  /** Resolves once everything written to stdout and stderr has been handed to the OS. */
  flush(): Promise<void>;
  /** True once a write to stdout failed because its reader went away (EPIPE). */
  readerLeft?(): boolean;
}

/** A failure that means the reader of a pipe went away (EPIPE), as itself or as the cause of a DeliveryError. */
export function isReaderGone(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED') return true;
  }
  return false;
}

export interface ColorEnv {
  NO_COLOR?: string | undefined;
  FORCE_COLOR?: string | undefined;
  TERM?: string | undefined;
}

/** The colour rule: FORCE_COLOR forces (unless "0"), NO_COLOR or --no-color disables, otherwise TTY only. */
export function colorWanted(isTTY: boolean, env: ColorEnv, noColorFlag: boolean): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  if (noColorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

/** The first failure of each output stream (a failed write, an 'error' event), kept for acknowledge(). */
const failures = new WeakMap<Writable, Error>();

function noteFailure(stream: Writable, err: Error): void {
  if (!failures.has(stream)) failures.set(stream, err);
}

/**
 * Writes and waits for room (backpressure). When the reader has gone away
 * (`trackctl … | head`: EPIPE), the rest of the output is dropped quietly: a listing
 * ends as it would have; a run that saves progress learns of it from acknowledge().
 */
function writeTo(stream: Writable, text: string | Uint8Array): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const settle = (err?: Error | null): void => {
      stream.off('drain', settle);
      stream.off('close', settle);
      if (err) noteFailure(stream, err);
      if (err && (err as NodeJS.ErrnoException).code !== 'EPIPE') reject(localIOError(err, 'stdout'));
      else resolve();
    };
    if (stream.write(text, (err) => err && settle(err))) resolve();
    else {
      stream.once('drain', settle);
      stream.once('close', settle);
    }
  });
}

/**
 * What "delivered" means before a run saves its progress: everything written to `stream`
 * so far was accepted by its target. Accepted is: handed to the OS without error, and on a
 * regular file also synced to disk. A pipe or socket holds accepted bytes for its reader;
 * whether the reader then reads them no writer can know, but a reader that left fails the
 * next write (EPIPE), and that failure is reported here for every acknowledgement after it.
 * Rejects with a DeliveryError when the target failed at any write so far. `sync` false
 * skips the fsync (a check between units; the run's last acknowledgement syncs).
 */
export async function acknowledge(stream: Writable, name = 'the output', sync = true): Promise<void> {
  const failed = (err: Error): Error => deliveryFailure(err, name);
  const earlier = failures.get(stream);
  if (earlier) throw failed(earlier);
  if (stream.destroyed || stream.writableEnded) throw failed(Object.assign(new Error('closed'), { code: 'ERR_STREAM_DESTROYED' }));
  await new Promise<void>((resolve, reject) => {
    stream.write('', (err) => {
      if (err) {
        noteFailure(stream, err);
        reject(failed(err));
      } else resolve();
    });
  });
  // An 'error' event of an earlier write is emitted a tick after its callback.
  await new Promise((resolve) => setImmediate(resolve));
  const late = failures.get(stream);
  if (late) throw failed(late);
  const fd = (stream as { fd?: unknown }).fd;
  if (sync && typeof fd === 'number') await syncIfFile(fd, failed);
}

/** A failed write as the run's error: the target's own words, named (a TrackctlError stays as it is). */
export function deliveryFailure(err: unknown, name = 'the output'): Error {
  if (err instanceof DeliveryError || !(err instanceof Error) || !('code' in err)) return err as Error;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED') return new DeliveryError(`${name} did not take everything written: its reader went away (EPIPE)`, { cause: err });
  // A local failure (a full disk) reads as every other local write failure does, naming what was written.
  if (isLocalIOFailure(err)) return new DeliveryError(localIOError(err, name === 'the output' ? 'stdout' : name).message, { cause: err });
  return new DeliveryError(`${name} did not take everything written: ${err.message}`, { cause: err });
}

/** fsync when fd is a regular file (a terminal, pipe or socket has nothing to sync). */
function syncIfFile(fd: number, failed: (err: Error) => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    fstat(fd, (err, st) => {
      if (err || !st.isFile()) return resolve();
      fsync(fd, (syncErr) => (syncErr ? reject(failed(syncErr)) : resolve()));
    });
  });
}

/**
 * A pipe or socket as delivery sees it. Bytes it accepted may still wait there for a reader that
 * then leaves without reading them (`| head`); but once `bound` more bytes were accepted after a
 * byte, the reader has read that byte (the pipe cannot hold more than `bound` unread).
 */
export interface Unread {
  /** The most the pipe or socket can hold unread, in bytes. */
  readonly bound: number;
  /** Bytes the pipe or socket accepted so far (call after an acknowledgement). */
  accepted(): number;
}

/** A pipe's largest size: what any unprivileged reader may set it to (F_SETPIPE_SZ). */
const PIPE_MAX = 1 << 20;
/** A socket's largest buffers when /proc does not tell. */
const SOCKET_MAX = 16 << 20;

/** A number from a /proc file (its `field`-th word), undefined when absent. */
function procNumber(path: string, field = 0): number | undefined {
  try {
    const n = Number(readFileSync(path, 'utf8').trim().split(/\s+/)[field]);
    return Number.isFinite(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** When fd is a pipe or socket: how much it may hold unread and how much it accepted (see Unread). */
export function unreadBound(stream: Writable): Unread | undefined {
  const fd = (stream as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return undefined;
  let st;
  try {
    st = fstatSync(fd);
  } catch {
    return undefined;
  }
  let bound: number;
  if (st.isFIFO()) {
    bound = procNumber('/proc/sys/fs/pipe-max-size') ?? PIPE_MAX;
  } else if (st.isSocket()) {
    // A buffer set with SO_SNDBUF/SO_RCVBUF may be twice the *mem_max; TCP's own tuning goes up to tcp_*mem's third field.
    const wmem = 2 * (procNumber('/proc/sys/net/core/wmem_max') ?? 0);
    if (typeof (stream as { remoteAddress?: unknown }).remoteAddress !== 'string') {
      // A Unix-domain socket (what a parent process's 'pipe' is): what waits unread counts against our send buffer.
      bound = wmem > 0 ? wmem : SOCKET_MAX;
    } else {
      const send = Math.max(wmem, procNumber('/proc/sys/net/ipv4/tcp_wmem', 2) ?? 0);
      const receive = Math.max(2 * (procNumber('/proc/sys/net/core/rmem_max') ?? 0), procNumber('/proc/sys/net/ipv4/tcp_rmem', 2) ?? 0);
      bound = send > 0 && receive > 0 ? send + receive : SOCKET_MAX;
    }
  } else {
    return undefined;
  }
  // A net.Socket (stdout on a pipe or socket) counts what it handed on; anything else confirms nothing.
  return {
    bound,
    accepted: () => {
      const n = (stream as { bytesWritten?: unknown }).bytesWritten;
      return typeof n === 'number' ? n : 0;
    },
  };
}

/** Resolves once the stream's queued writes are done: a write is processed only after those before it. */
function drained(stream: Writable): Promise<void> {
  if (stream.writableLength === 0 || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/**
 * The process's streams, each created on first use: process.stderr on a pipe costs
 * ~4 ms of start-up (it loads node:net), process.stdin ~4 ms, and most commands never
 * touch either. Each stream gets its error handler as it is created: `trackctl … | head`
 * (EPIPE) ends quietly, and messages to a closed stderr (`2>&1 | head`) are dropped while
 * the command still finishes (and saves renewed tokens).
 */
export function systemIO(env: NodeJS.ProcessEnv = process.env): IO {
  let stdoutReady = false;
  let stderrReady = false;
  const stdout = (): Writable => {
    if (!stdoutReady) {
      stdoutReady = true;
      // Noted, not printed: the failed write rejects (or, EPIPE, acknowledge() reports it), and that error is printed once.
      process.stdout.on('error', (err: NodeJS.ErrnoException) => noteFailure(process.stdout, err));
    }
    return process.stdout;
  };
  // Data starts on a line of its own, even appended after a killed run's torn line (torn-line.ts).
  let lineChecked = false;
  const data = (): Writable => {
    const stream = stdout();
    if (!lineChecked) {
      lineChecked = true;
      const newline = newlineAfterTornLine(1);
      if (newline !== '') stream.write(newline);
    }
    return stream;
  };
  const stderr = (): Writable => {
    if (!stderrReady) {
      stderrReady = true;
      process.stderr.on('error', () => undefined);
    }
    return process.stderr;
  };
  const io: IO = {
    get stdout() {
      return stdout();
    },
    get stderr() {
      return stderr();
    },
    get stdin() {
      return process.stdin;
    },
    get stdoutIsTTY() {
      return Boolean(process.stdout.isTTY);
    },
    get stderrIsTTY() {
      return Boolean(process.stderr.isTTY);
    },
    get stdinIsTTY() {
      return Boolean(process.stdin.isTTY);
    },
    columns: () => process.stdout.columns || process.stderr.columns || Number(env.COLUMNS) || 80,
    out: (text) => writeTo(data(), text),
    outBytes: (bytes) => writeTo(data(), bytes),
    err: (text) => {
      stderr().write(text.endsWith('\n') ? text : `${text}\n`);
    },
    readerLeft: () => stdoutReady && isReaderGone(failures.get(process.stdout)),
    // Only the streams written to: creating one to ask would cost what its laziness saves.
    flush: async () => {
      // A write's failure (EPIPE) is emitted a tick after the write returned: wait for it to be noted.
      if (stdoutReady) await drained(process.stdout).then(() => new Promise((resolve) => setImmediate(resolve)));
      if (stderrReady) await drained(process.stderr);
    },
  };
  return io;
}

