/**
 * The member names of a report's properties for the point reader (report-point.ts): which
 * wanted member a name is, and the names of the report before, by place, compared first.
 */
import { ws } from './json-bytes.js';
import { MAX_SHAPE } from './report-point-members.js';

/** Where the value after the name just read begins (module state: no allocation per name). */
export const nameEnd = { at: 0 };

/** Whether the member name at [from, from + name.length) is `name` (its first byte known to match). */
export function named(b: Buffer, from: number, name: string): boolean {
  for (let k = 1; k < name.length; k++) if (b[from + k] !== name.charCodeAt(k)) return false;
  return true;
}

/** Which wanted member the name at [from, to) is: 1 lat, 2 lng, 3 did, 4 date, 5 name, 6 speed, 7 address, 8 odometer, 9 reportType, 10 reportValue, 11 message, 0 none. */
function fieldOf(b: Buffer, from: number, to: number): number {
  const n = to - from;
  const c0 = b[from] as number;
  if (n === 3 && c0 === 0x6c) return named(b, from, 'lat') ? 1 : named(b, from, 'lng') ? 2 : 0;
  if (n === 3 && c0 === 0x64) return named(b, from, 'did') ? 3 : 0;
  if (n === 4 && c0 === 0x64) return named(b, from, 'date') ? 4 : 0;
  if (n === 4 && c0 === 0x6e) return named(b, from, 'name') ? 5 : 0;
  if (n === 5 && c0 === 0x73) return named(b, from, 'speed') ? 6 : 0;
  if (n === 7 && c0 === 0x61) return named(b, from, 'address') ? 7 : 0;
  if (n === 7 && c0 === 0x6d) return named(b, from, 'message') ? 11 : 0;
  if (n === 8 && c0 === 0x6f) return named(b, from, 'odometer') ? 8 : 0;
  if (n === 10 && c0 === 0x72) return named(b, from, 'reportType') ? 9 : 0;
  if (n === 11 && c0 === 0x72) return named(b, from, 'reportValue') ? 10 : 0;
  return 0;
}

/**
 * The member names of the last report's properties, in order, each with its closing quote,
 * and what each is (fieldOf). A service writes its reports alike, so the k-th name of a report
 * is most often the k-th of the one before: one comparison with those bytes, which were
 * checked when first read, both checks and tells it. Any other name is read and told the
 * long way, and takes its place here.
 */
const shapeNames: Buffer[] = [];
const shapeFields: number[] = [];

/** The member name at `j` (its opening quote) of the k-th member: what it is (fieldOf), nameEnd.at at its value; -1 when malformed or escaped. */
export function readName(b: Buffer, j: number, k: number): number {
  const from = j + 1;
  let to = -1;
  let field = 0;
  const expected = shapeNames[k];
  if (expected !== undefined) {
    const n = expected.length;
    let q = 0;
    while (q < n && b[from + q] === expected[q]) q++;
    if (q === n) {
      to = from + n - 1;
      field = shapeFields[k] as number;
    }
  }
  if (to < 0) {
    to = from;
    for (let c = b[to] as number; c !== 0x22; c = b[++to] as number) if (c === 0x5c || !(c >= 0x20)) return -1;
    field = fieldOf(b, from, to);
    if (k < MAX_SHAPE) {
      // a copy: the bytes are overwritten by the next chunk
      shapeNames[k] = Buffer.from(b.subarray(from, to + 1));
      shapeFields[k] = field;
    }
  }
  j = ws(b, to + 1);
  if (b[j] !== 0x3a) return -1;
  nameEnd.at = ws(b, j + 1);
  return field;
}

/** Which wanted member `name` is (as fieldOf tells it from bytes). */
export function fieldOfName(name: string): number {
  const b = Buffer.from(name, 'latin1');
  return fieldOf(b, 0, b.length);
}
