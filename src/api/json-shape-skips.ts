/**
 * The tables a template's reader (json-shape.ts) skips learnt values by: where the bytes of a
 * report equal the template's up to some byte, every learnt value that ends, with the byte after
 * it, before that byte is the learnt one, so all of them are passed at once rather than one
 * comparison a value. The Parquet shape reader (lake/parquet/shape-reader.ts) and the report
 * point reader (report-point-shape.ts) read by them.
 */
import type { JsonShape } from './json-shape.js';

export interface ShapeSkips {
  /** Per template byte: how many values end, with the byte after them, before it (the values the equal bytes up to it pass). */
  readonly passed: Uint16Array;
  /** Per value: the first from it on that is not learnt (read each time), or the number of values. */
  readonly nextRead: Uint16Array;
}

/** The skip tables of `shape`, or undefined when it has too many values for them (65,535 or more). */
export function shapeSkips(shape: JsonShape): ShapeSkips | undefined {
  const n = shape.slots.length;
  if (n >= 0xffff) return undefined;
  const { at, size } = shape;
  const passed = new Uint16Array(size + 1);
  for (let k = 0, pos = 0; pos <= size; pos++) {
    while (k < n && (at[2 * k + 2] as number) < pos) k++;
    passed[pos] = k;
  }
  const nextRead = new Uint16Array(n);
  for (let k = n - 1; k >= 0; k--) nextRead[k] = at[2 * k + 2] === at[2 * k + 1] ? k : k + 1 < n ? (nextRead[k + 1] as number) : n;
  return { passed, nextRead };
}
