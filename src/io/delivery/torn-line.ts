/**
 * Appending after a torn line. A stream killed mid-write leaves half a record at the
 * end of its file; a next run appended to it (`>> all.ndjson`, the cron pattern) would
 * glue its first record onto that half, and the file would hold one line no JSON
 * reader takes. When stdout is a regular file that does not end in a newline, the run
 * starts with one: the torn half stays a line of its own and every new record is whole.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** "\n" when `fd` is a non-empty regular file whose last byte is not a newline; otherwise "". */
export function newlineAfterTornLine(fd: number): string {
  let size: number;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return '';
    size = stat.size;
  } catch {
    return '';
  }
  if (size === 0) return '';
  const last = lastByte(fd, size);
  return last === undefined || last === 0x0a ? '' : '\n';
}

function lastByte(fd: number, size: number): number | undefined {
  const byte = Buffer.alloc(1);
  try {
    if (readSync(fd, byte, 0, 1, size - 1) === 1) return byte[0];
  } catch {
    // `>>` opens stdout write-only: read the same file through a descriptor of our own.
  }
  let own: number | undefined;
  try {
    own = openSync(`/proc/self/fd/${fd}`, 'r');
    return readSync(own, byte, 0, 1, size - 1) === 1 ? byte[0] : undefined;
  } catch {
    return undefined; // not Linux, or not readable: leave the file as it is
  } finally {
    if (own !== undefined) closeSync(own);
  }
}
