/**
 * A report's geometry read member by member from its bytes (for row-reader.ts): a Point with
 * two finite numbers first in its coordinates, whose figures become the row's lng/lat. Any
 * other geometry, or a Point with anything else, leaves the report to the parsed path.
 */
import { isDigit, numberEnd, readNumber, skipValue, ws } from '../../api/json-bytes.js';
import { equals, plainStringEnd } from './byte-names.js';

const TYPE = Buffer.from('type');
const COORDINATES = Buffer.from('coordinates');
const POINT = Buffer.from('Point');

/** The coordinates of the Point pointEnd() read last (no object a report). */
export const point = { lng: 0, lat: 0 };

/** The geometry at `i`: a Point with two finite numbers first in its coordinates, read into `point`; past it, or -1. */
export function pointEnd(b: Buffer, i: number): number {
  if (b[i] !== 0x7b) return -1;
  let isPoint = false;
  let coordinates = false;
  let j = ws(b, i + 1);
  if (b[j] === 0x7d) return -1;
  for (;;) {
    const from = j + 1;
    const to = plainStringEnd(b, j);
    if (to < 0) return -1;
    j = ws(b, to + 1);
    if (b[j] !== 0x3a) return -1;
    j = ws(b, j + 1);
    if (equals(b, from, to, TYPE)) {
      if (b[j] !== 0x22) return -1;
      const end = plainStringEnd(b, j); // a plain string, as a name is
      if (end < 0 || isPoint) return -1;
      isPoint = equals(b, j + 1, end, POINT);
      if (!isPoint) return -1;
      j = end + 1;
    } else if (equals(b, from, to, COORDINATES)) {
      if (coordinates) return -1;
      coordinates = true;
      j = coordinatesEnd(b, j);
    } else j = skipValue(b, j, 2);
    if (j < 0) return -1;
    j = ws(b, j);
    const c = b[j] as number;
    if (c === 0x7d) return isPoint && coordinates ? j + 1 : -1;
    if (c !== 0x2c) return -1;
    j = ws(b, j + 1);
  }
}

/** The coordinates array at `i`, its first two numbers read into `point`; past it, or -1. */
function coordinatesEnd(b: Buffer, i: number): number {
  if (b[i] !== 0x5b) return -1;
  let j = ws(b, i + 1);
  for (let k = 0; ; k++) {
    const c = b[j] as number;
    if (k < 2) {
      if (c !== 0x2d && !isDigit(c)) return -1;
      const v = readNumber(b, j, true);
      j = numberEnd.at;
      if (j < 0 || !Number.isFinite(v)) return -1;
      if (k === 0) point.lng = v;
      else point.lat = v;
    } else j = skipValue(b, j, 3);
    if (j < 0) return -1;
    j = ws(b, j);
    const d = b[j] as number;
    if (d === 0x5d) return k >= 1 ? j + 1 : -1;
    if (d !== 0x2c) return -1;
    j = ws(b, j + 1);
  }
}
