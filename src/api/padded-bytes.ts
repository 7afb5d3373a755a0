/**
 * The bytes a byte reader reads (report-point.ts, Parquet's cut reader), copied into a buffer of
 * their own with zero bytes after them. No loop of those readers reads past a zero byte (it ends
 * a string, a number, a name and white space, and is no token), and none reads more than 5
 * bytes past the byte that stopped it, so no read falls outside the buffer: one out-of-bounds
 * read makes V8 recompile every read of those loops in a slower, generic form. A copy costs far
 * less than what the guard saves.
 */

/** Zero bytes after the bytes loaded. */
const GUARD = 8;

/** The largest buffer kept from one load to the next (a report spanning chunks is joined, and may be larger). */
const KEPT = 1 << 20;

export class PaddedBytes {
  /** The loaded bytes and the guard after them; made as large as the first load needs (a fleet run reads many replies side by side). */
  bytes = Buffer.alloc(GUARD);
  view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.length);
  /** How many bytes were loaded (the guard follows them). */
  length = 0;
  private kept = this.bytes;

  load(chunk: Buffer): void {
    const n = chunk.length;
    const bytes = this.kept.length >= n + GUARD ? this.kept : Buffer.alloc(n + GUARD);
    if (bytes !== this.bytes) this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    this.bytes = bytes;
    if (bytes.length <= KEPT) this.kept = bytes;
    chunk.copy(bytes, 0);
    bytes.fill(0, n, n + GUARD);
    this.length = n;
  }
}
