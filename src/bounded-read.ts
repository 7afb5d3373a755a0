/**
 * Reading a local input whole, but never past its size limit. The file is read in chunks and
 * counted, and reading stops at the first byte over the limit: stat() cannot bound it, as it
 * says 0 for /dev/zero or a FIFO (which then feed for ever), and a file may grow while read.
 */
import { open } from 'node:fs/promises';

const CHUNK_BYTES = 1 << 20;

/** The file's text (UTF-8), or undefined when it holds more than `maxBytes` (then at most `maxBytes` + 1 were read). */
export async function readFileUpTo(path: string, maxBytes: number): Promise<string | undefined> {
  const handle = await open(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const want = Math.min(CHUNK_BYTES, maxBytes + 1 - total);
      const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(want), 0, want, null);
      if (bytesRead === 0) return Buffer.concat(chunks, total).toString('utf8');
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return undefined;
    }
  } finally {
    await handle.close();
  }
}

/** A stream's text (UTF-8, stdin), or undefined once it gives more than `maxBytes`: reading stops there. */
export async function readStreamUpTo(stream: AsyncIterable<unknown>, maxBytes: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    total += bytes.length;
    // Leaving the loop destroys the stream: nothing more is read.
    if (total > maxBytes) return undefined;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

/** "over the limit of 32 MB" for a limit in bytes. */
export function limitText(maxBytes: number): string {
  return `over the limit of ${maxBytes / 1048576} MB`;
}
