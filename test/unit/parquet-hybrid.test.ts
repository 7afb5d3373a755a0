/**
 * The levels and dictionary indexes of a page (lake/parquet/encode.ts writeHybrid): a run
 * known to be one value all through is written without looking at each value, in the same
 * bytes as hyparquet-writer's RLE/bit-packed encoder writes it, at every length and width.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteWriter } from 'hyparquet-writer';
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';
import { writeHybrid } from '../../src/lake/parquet/encode.js';

function bytes(write: (w: ByteWriter) => number): { bytes: Buffer; length: number } {
  const w = new ByteWriter(16);
  const length = write(w);
  return { bytes: Buffer.from(w.getBytes()), length };
}

test('a page of one value all through is written as the general encoder writes it', () => {
  const lengths = [1, 7, 8, 9, 63, 64, 127, 128, 1000, 16383, 16384, 50_000, 65_536];
  for (const n of lengths) {
    for (const [width, value] of [[1, 0], [1, 1], [4, 0], [8, 200], [12, 4095], [20, 1_000_000]] as const) {
      const values = width === 1 ? new Uint8Array(n).fill(value) : new Int32Array(n).fill(value);
      const fast = bytes((w) => writeHybrid(w, values, width, true));
      const general = bytes((w) => writeRleBitPackedHybrid(w, values, width));
      assert.deepEqual(fast, general, `${n} values of ${value}, width ${width}`);
    }
  }
});

test('values that are not all the same are left to the general encoder', () => {
  const values = Int32Array.from({ length: 1000 }, (_, i) => (i % 9 === 0 ? i % 15 : 0));
  assert.deepEqual(bytes((w) => writeHybrid(w, values, 4, false)), bytes((w) => writeRleBitPackedHybrid(w, values, 4)));
});
