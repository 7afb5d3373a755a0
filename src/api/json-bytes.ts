/**
 * Reading JSON straight from a reply's bytes, without JSON.parse: white space, literals,
 * strings and numbers checked against JSON's grammar, values skipped. The report reader
 * (report-point.ts) and the Parquet row reader (lake/parquet/row-reader.ts) are built on it.
 *
 * No loop here reads past a zero byte (it ends a string, a number and white space, and is no
 * token), and none reads more than 5 bytes past the byte that stopped it: a caller that keeps
 * a few zero bytes after its bytes never reads outside them (one out-of-bounds read makes V8
 * recompile every read of these loops in a slower, generic form).
 */

/** Deeper values are left to JSON.parse. */
export const MAX_DEPTH = 64;

/** 10^0 … 10^22: every one an exact double. */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/** Where the number just read ended, -1 when it was malformed (module state: no allocation per value). */
export const numberEnd = { at: 0 };

export const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);

/** Past the white space at `i`. */
export function ws(b: Buffer, i: number): number {
  let c = b[i] as number;
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++i] as number;
  return i;
}

/** Whether the literal `word` is at `i`. */
export function literal(b: Buffer, i: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word.charCodeAt(k)) return false;
  return true;
}

/** The last byte of the escape whose backslash is at `j`, or -1. */
export function escapeEnd(b: Buffer, j: number): number {
  const e = b[j + 1] as number;
  if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) return j + 1;
  if (e === 0x75 && isHex(b[j + 2] as number) && isHex(b[j + 3] as number) && isHex(b[j + 4] as number) && isHex(b[j + 5] as number)) return j + 5;
  return -1;
}

/** Past the string whose opening quote is at `i`, or -1. Bytes from 0x80 are content, as JSON.parse sees them after UTF-8 decoding. */
export function skipString(b: Buffer, i: number): number {
  for (let j = i + 1; ; j++) {
    const c = b[j] as number;
    if (c === 0x22) return j + 1;
    if (c === 0x5c) {
      j = escapeEnd(b, j);
      if (j < 0) return -1;
    } else if (!(c >= 0x20)) return -1; // a control character, or the end of the bytes
  }
}

/**
 * The number at `i`, checked against JSON's grammar (its value only when `keep`); numberEnd.at
 * past it, -1 when malformed. With up to 15 digits and no exponent, the digits make an exact
 * integer m and the value is m / 10^k with k ≤ 22, one correctly rounded division of two
 * exact doubles: the double JSON.parse gives (Clinger's fast path). Other numbers go
 * through Number(), which reads a JSON number as JSON.parse does.
 */
export function readNumber(b: Buffer, i: number, keep: boolean): number {
  let j = i;
  let c = b[j] as number;
  const negative = c === 0x2d;
  if (negative) c = b[++j] as number;
  if (!isDigit(c)) return ((numberEnd.at = -1), 0);
  let m = 0;
  let digits = 0;
  let fraction = 0;
  if (c === 0x30) {
    c = b[++j] as number;
    if (isDigit(c)) return ((numberEnd.at = -1), 0); // a leading zero
  } else {
    do {
      m = m * 10 + (c - 0x30);
      digits++;
      c = b[++j] as number;
    } while (isDigit(c));
  }
  if (c === 0x2e) {
    c = b[++j] as number;
    if (!isDigit(c)) return ((numberEnd.at = -1), 0);
    do {
      m = m * 10 + (c - 0x30);
      digits++;
      fraction++;
      c = b[++j] as number;
    } while (isDigit(c));
  }
  if (c === 0x65 || c === 0x45) {
    c = b[++j] as number;
    if (c === 0x2b || c === 0x2d) c = b[++j] as number;
    if (!isDigit(c)) return ((numberEnd.at = -1), 0);
    do c = b[++j] as number;
    while (isDigit(c));
    numberEnd.at = j;
    return keep ? Number(b.toString('latin1', i, j)) : 0;
  }
  numberEnd.at = j;
  if (!keep) return 0;
  if (digits > 15 || fraction > 22) return Number(b.toString('latin1', i, j));
  const v = fraction === 0 ? m : m / (POW10[fraction] as number);
  return negative ? -v : v;
}

/** Past the value at `i` (checked, not kept), or -1. */
export function skipValue(b: Buffer, i: number, depth: number): number {
  const c = b[i] as number;
  if (c === 0x22) return skipString(b, i);
  if (c === 0x7b) return skipObject(b, i, depth + 1);
  if (c === 0x5b) return skipArray(b, i, depth + 1);
  if (c === 0x74) return literal(b, i, 'true') ? i + 4 : -1;
  if (c === 0x66) return literal(b, i, 'false') ? i + 5 : -1;
  if (c === 0x6e) return literal(b, i, 'null') ? i + 4 : -1;
  readNumber(b, i, false);
  return numberEnd.at;
}

function skipObject(b: Buffer, i: number, depth: number): number {
  if (depth > MAX_DEPTH) return -1;
  let j = ws(b, i + 1);
  if (b[j] === 0x7d) return j + 1;
  for (;;) {
    if (b[j] !== 0x22) return -1;
    j = skipString(b, j);
    if (j < 0) return -1;
    j = ws(b, j);
    if (b[j] !== 0x3a) return -1;
    j = skipValue(b, ws(b, j + 1), depth);
    if (j < 0) return -1;
    j = ws(b, j);
    const c = b[j] as number;
    if (c === 0x7d) return j + 1;
    if (c !== 0x2c) return -1;
    j = ws(b, j + 1);
  }
}

function skipArray(b: Buffer, i: number, depth: number): number {
  if (depth > MAX_DEPTH) return -1;
  let j = ws(b, i + 1);
  if (b[j] === 0x5d) return j + 1;
  for (;;) {
    j = skipValue(b, j, depth);
    if (j < 0) return -1;
    j = ws(b, j);
    const c = b[j] as number;
    if (c === 0x5d) return j + 1;
    if (c !== 0x2c) return -1;
    j = ws(b, j + 1);
  }
}
