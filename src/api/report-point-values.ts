/**
 * The wanted values of a report's properties, read from its bytes as tolerantFeature leaves
 * them (numbers exactly as JSON.parse reads them, strings decoded as it decodes them, a numeric
 * string in a numeric field its number): shared by the point reader's member by member way
 * (report-point.ts) and its shape (report-point-shape.ts), so both give the same value for the
 * same bytes.
 */
import { toNumber } from './tolerant.js';
import { escapeEnd, isDigit, numberEnd, readNumber, skipValue } from './json-bytes.js';

/** Where the value just read ended, -1 when it was malformed (module state: no allocation per value). */
export const valueEnd = { at: 0 };

/** The string at `i` (its opening quote), decoded; valueEnd.at past it. */
function readString(b: Buffer, i: number): string {
  let j = i + 1;
  let high = 0;
  let escaped = false;
  for (let c = b[j] as number; c !== 0x22; c = b[++j] as number) {
    if (c === 0x5c) {
      j = escapeEnd(b, j);
      if (j < 0) return ((valueEnd.at = -1), '');
      escaped = true;
    } else if (!(c >= 0x20)) return ((valueEnd.at = -1), '');
    high |= c;
  }
  valueEnd.at = j + 1;
  if (escaped) return JSON.parse(b.toString('utf8', i, j + 1)) as string;
  // UTF-8: the quotes around are ASCII, so the string's bytes decode alone as they do within the report.
  return high < 0x80 ? plainString(b, i + 1, j) : b.toString('utf8', i + 1, j);
}

/**
 * Strings repeat from report to report (the unit's name, the type, an address while parked):
 * a small cache keyed by length and end bytes gives back the same string for the same bytes
 * instead of a new one each time.
 */
const cache: (string | undefined)[] = new Array(256).fill(undefined);

function plainString(b: Buffer, from: number, to: number): string {
  const n = to - from;
  const slot = (n * 31 + (n > 0 ? (b[from] as number) * 7 + (b[to - 1] as number) : 0)) & 255;
  const hit = cache[slot];
  if (hit !== undefined && hit.length === n) {
    let k = 0;
    while (k < n && hit.charCodeAt(k) === b[from + k]) k++;
    if (k === n) return hit;
  }
  const s = b.toString('latin1', from, to);
  cache[slot] = s;
  return s;
}

/** Whether the wanted member `field` (report-point-names.ts: 1 lat … 11 message) is numeric: lat, lng, did, date, speed, odometer. */
export const isNumeric = (field: number): boolean => field <= 4 || field === 6 || field === 8;

/** The wanted value at `i`, as tolerantFeature leaves it; valueEnd.at past it, -1 when malformed. */
export function readValue(b: Buffer, i: number, numeric: boolean): unknown {
  const c = b[i] as number;
  if (c === 0x22) {
    const s = readString(b, i);
    return numeric ? toNumber(s) : s;
  }
  if (c === 0x2d || isDigit(c)) {
    const v = readNumber(b, i, true);
    valueEnd.at = numberEnd.at;
    return v;
  }
  const end = skipValue(b, i, 2);
  valueEnd.at = end;
  if (end < 0) return undefined;
  return c === 0x6e ? null : c === 0x74 ? true : c === 0x66 ? false : JSON.parse(b.toString('utf8', i, end));
}
