/** An IO over memory for unit tests: what reaches stdout is kept as text. */
import { PassThrough } from 'node:stream';
import type { IO } from '../../src/io/delivery/streams.js';

export type MemoryIO = IO & { text(): string; writes: number };

export function memoryIO(tty = false, columns = 80): MemoryIO {
  const chunks: string[] = [];
  const io: MemoryIO = {
    stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(),
    stdoutIsTTY: tty, stderrIsTTY: false, stdinIsTTY: false,
    columns: () => columns,
    writes: 0,
    out: async (text) => {
      chunks.push(text);
      io.writes++;
    },
    outBytes: async (bytes) => {
      chunks.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
      io.writes++;
    },
    err: () => undefined,
    flush: async () => undefined,
    text: () => chunks.join(''),
  };
  (io.stdout as PassThrough).resume();
  return io;
}
