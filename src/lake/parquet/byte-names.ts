/**
 * Member names told from a report's bytes, as the member-by-member readers (row-reader.ts,
 * point-geometry.ts) read them: only a plain name (no escape, no control byte) is read, so a
 * name compares with its bytes and an escaped one leaves the report to the parsed path.
 */

/** The closing quote of the plain string whose opening quote is at `j`; -1 for anything but plain text. */
export function plainStringEnd(b: Buffer, j: number): number {
  if (b[j] !== 0x22) return -1;
  let to = j + 1;
  for (let c = b[to] as number; c !== 0x22; c = b[++to] as number) if (c === 0x5c || !(c >= 0x20)) return -1;
  return to;
}

/** Whether the bytes [from, to) are `name`. */
export function equals(b: Buffer, from: number, to: number, name: Uint8Array): boolean {
  if (to - from !== name.length) return false;
  for (let k = 0; k < name.length; k++) if (b[from + k] !== name[k]) return false;
  return true;
}
