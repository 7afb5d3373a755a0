/**
 * IO owns stdout, stderr and stdin, TTY detection, colour and width.
 * Commands receive it through the context; tests build one over buffers.
 * Only src/io/ writes to the terminal.
 */
import type { Readable, Writable } from 'node:stream';

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
  /** Write a message line to stderr. */
  err(text: string): void;
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

/**
 * Writes and waits for room (backpressure). When the reader has gone away
 * (`trackctl … | head`: EPIPE), the rest of the output is dropped quietly.
 */
function writeTo(stream: Writable, text: string): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const settle = (err?: Error | null): void => {
      stream.off('drain', settle);
      stream.off('close', settle);
      if (err && (err as NodeJS.ErrnoException).code !== 'EPIPE') reject(err);
      else resolve();
    };
    if (stream.write(text, (err) => err && settle(err))) resolve();
    else {
      stream.once('drain', settle);
      stream.once('close', settle);
    }
  });
}

export function systemIO(env: NodeJS.ProcessEnv = process.env): IO {
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  const stderrIsTTY = Boolean(process.stderr.isTTY);
  const io: IO = {
    stdout: process.stdout,
    stderr: process.stderr,
    // process.stdin is built on first use: creating it costs ~4 ms of start-up that most commands never need.
    get stdin() {
      return process.stdin;
    },
    stdoutIsTTY,
    stderrIsTTY,
    get stdinIsTTY() {
      return Boolean(process.stdin.isTTY);
    },
    columns: () => process.stdout.columns || process.stderr.columns || Number(env.COLUMNS) || 80,
    out: (text) => writeTo(process.stdout, text),
    err: (text) => {
      process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
    },
  };
  return io;
}
