/**
 * A report's row read straight out of its bytes as the service sent them: the typed cells of
 * the report columns, without JSON.parse, the tolerance pass or an object per report. Parsing
 * every feature whole and then picking its properties apart was most of an export's time.
 *
 * It reads what is usual and gives up (read() returns false, and the caller appends the parsed
 * feature: columns.ts) on whatever would make the row differ from that path's in any way: a
 * property the interface does not name, a value that fits no column (it goes to `extra`), a
 * number sent as text, a non-Point geometry, a properties' lat/lng that differs from the
 * geometry's, a member name with an escape, a repeated `properties` or `geometry`. So every
 * row it reads is the row the parsed feature gives, with `extra` null;
 * test/unit/parquet-row-reader.test.ts holds the two paths to the same cells.
 *
 * The bytes are those of a report the reply reader already checked or parsed (api/history.ts:
 * a malformed one fails before its batch is written), so the reading stays within them; it
 * still checks each token it reads and gives up on a surprise.
 */
import { isDigit, literal, numberEnd, readNumber, skipValue, ws } from '../../api/json-bytes.js';
import type { ColumnKind, ParquetColumn } from './kinds.js';

/** What a cell of the row read holds. */
export const enum Tag { Absent, Null, Number, Text }

const KIND: Record<ColumnKind, number> = { double: 0, int64: 1, int32: 2, timestamp: 3, string: 4 };
const [INT64, INT32, TIMESTAMP, STRING] = [1, 2, 3, 4];
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/** Whole seconds whose milliseconds an INT64 holds exactly (as columns.ts). */
const MAX_SECONDS = Number.MAX_SAFE_INTEGER / 1000;

const PROPERTIES = Buffer.from('properties');
const GEOMETRY = Buffer.from('geometry');
const TYPE = Buffer.from('type');
const COORDINATES = Buffer.from('coordinates');
const POINT = Buffer.from('Point');

/** Whether the bytes [from, to) are `name`. */
function equals(b: Buffer, from: number, to: number, name: Uint8Array): boolean {
  if (to - from !== name.length) return false;
  for (let k = 0; k < name.length; k++) if (b[from + k] !== name[k]) return false;
  return true;
}

/**
 * Reads one report's cells into tags, numbers and texts, by the position of the report
 * columns it is given (columns.ts). One reader serves every row: its arrays are overwritten
 * by each read().
 */
export class RowReader {
  readonly tags: Uint8Array;
  readonly numbers: Float64Array;
  readonly texts: string[];
  /** Each text column's last ASCII text: the same bytes give back the same string (a unit's name, the type, an address while parked). */
  private readonly last: string[];
  private readonly names: readonly Uint8Array[];
  private readonly kinds: Int8Array;
  private readonly lat: number;
  private readonly lng: number;
  /** Where the value or name just read ended; -1 when the reader gave up. */
  private pos = 0;
  /** The geometry's point, when it had one. */
  private pointLng = 0;
  private pointLat = 0;
  /** The column the next property name is tried against first: the service sends them in the interface's order. */
  private next = 0;

  constructor(columns: readonly ParquetColumn[]) {
    const n = columns.length;
    this.tags = new Uint8Array(n);
    this.numbers = new Float64Array(n);
    this.texts = columns.map(() => '');
    this.last = columns.map(() => '');
    this.names = columns.map((c) => Buffer.from(c.name, 'latin1'));
    this.kinds = Int8Array.from(columns, (c) => KIND[c.kind]);
    this.lat = columns.findIndex((c) => c.name === 'lat');
    this.lng = columns.findIndex((c) => c.name === 'lng');
  }

  /** The cells of the report in b[start, end); false when the report is unusual (see above) and must be read parsed. */
  read(b: Buffer, start: number, end: number): boolean {
    this.tags.fill(Tag.Absent);
    if (b[start] !== 0x7b) return false;
    let properties = false;
    let point = false;
    let geometry = false;
    let j = ws(b, start + 1);
    if (b[j] === 0x7d) return false; // no properties
    for (;;) {
      const from = j + 1;
      const to = this.name(b, j);
      if (to < 0) return false;
      j = ws(b, to + 1);
      if (b[j] !== 0x3a) return false;
      j = ws(b, j + 1);
      if (equals(b, from, to, PROPERTIES)) {
        if (properties || b[j] !== 0x7b) return false;
        properties = true;
        j = this.properties(b, j);
      } else if (equals(b, from, to, GEOMETRY)) {
        if (geometry) return false;
        geometry = true;
        if (b[j] === 0x6e) j = literal(b, j, 'null') ? j + 4 : -1;
        else {
          point = true;
          j = this.geometry(b, j);
        }
      } else j = skipValue(b, j, 1);
      if (j < 0) return false;
      j = ws(b, j);
      const c = b[j] as number;
      if (c === 0x7d) break;
      if (c !== 0x2c) return false;
      j = ws(b, j + 1);
    }
    if (!properties || j + 1 !== end) return false;
    if (point) return this.place(this.lng, this.pointLng) && this.place(this.lat, this.pointLat);
    return true;
  }

  /** The geometry's coordinate in column `i`: a properties' value that differs is kept in `extra`, so that row is read parsed. */
  private place(i: number, v: number): boolean {
    const tag = this.tags[i];
    if (tag === Tag.Number && this.numbers[i] !== v) return false;
    this.tags[i] = Tag.Number;
    this.numbers[i] = v;
    return true;
  }

  /** The closing quote of the member name whose opening quote is at `j`; -1 for anything but plain text. */
  private name(b: Buffer, j: number): number {
    if (b[j] !== 0x22) return -1;
    let to = j + 1;
    for (let c = b[to] as number; c !== 0x22; c = b[++to] as number) if (c === 0x5c || !(c >= 0x20)) return -1;
    return to;
  }

  /** The `properties` object at `i`, its cells read; past it, or -1. */
  private properties(b: Buffer, i: number): number {
    let j = ws(b, i + 1);
    if (b[j] === 0x7d) return j + 1;
    for (;;) {
      const from = j + 1;
      const to = this.name(b, j);
      if (to < 0) return -1;
      const col = this.column(b, from, to);
      if (col < 0) return -1; // a property the interface does not name goes to extra
      j = ws(b, to + 1);
      if (b[j] !== 0x3a) return -1;
      j = this.cell(b, ws(b, j + 1), col);
      if (j < 0) return -1;
      j = ws(b, j);
      const c = b[j] as number;
      if (c === 0x7d) return j + 1;
      if (c !== 0x2c) return -1;
      j = ws(b, j + 1);
    }
  }

  /** The column named by b[from, to), or -1. */
  private column(b: Buffer, from: number, to: number): number {
    const names = this.names;
    const n = names.length;
    for (let k = 0, i = this.next; k < n; k++, i = i + 1 === n ? 0 : i + 1) {
      if (equals(b, from, to, names[i]!)) {
        this.next = i + 1 === n ? 0 : i + 1;
        return i;
      }
    }
    return -1;
  }

  /** The value at `j` as column `col`'s cell; past it, or -1 where it would not be the parsed path's cell without extra. */
  private cell(b: Buffer, j: number, col: number): number {
    const c = b[j] as number;
    const kind = this.kinds[col];
    if (c === 0x22) {
      if (kind !== STRING) return -1; // a number sent as text: the tolerance pass's rules
      this.texts[col] = this.text(b, j, col);
      this.tags[col] = Tag.Text;
      return this.pos;
    }
    if (c === 0x6e) {
      this.tags[col] = Tag.Null;
      return literal(b, j, 'null') ? j + 4 : -1;
    }
    if (c === 0x74 || c === 0x66) {
      if (kind !== STRING) return -1;
      const word = c === 0x74 ? 'true' : 'false';
      this.texts[col] = word;
      this.tags[col] = Tag.Text;
      return literal(b, j, word) ? j + word.length : -1;
    }
    if (c !== 0x2d && !isDigit(c)) return -1; // an object or an array: extra
    let v = this.number(b, j);
    if (this.pos < 0 || !Number.isFinite(v)) return -1;
    if (kind === STRING) {
      this.texts[col] = String(v);
      this.tags[col] = Tag.Text;
      return this.pos;
    }
    if (kind === INT64 ? !Number.isSafeInteger(v) : kind === INT32 ? !(Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX) : kind === TIMESTAMP && !(Math.abs(v) <= MAX_SECONDS)) return -1;
    if (kind === TIMESTAMP) v = Math.round(v * 1000);
    this.numbers[col] = v;
    this.tags[col] = Tag.Number;
    return this.pos;
  }

  /** The string at `i` (its opening quote), decoded; pos past it. */
  private text(b: Buffer, i: number, col: number): string {
    let j = i + 1;
    let high = 0;
    let escaped = false;
    for (let c = b[j] as number; c !== 0x22; c = b[++j] as number) {
      if (c === 0x5c) {
        escaped = true;
        j++; // the escaped byte (a quote, at most, matters here); JSON.parse checks the escape below
      } else if (!(c >= 0x20)) return ((this.pos = -1), '');
      high |= c;
    }
    this.pos = j + 1;
    if (escaped) {
      try {
        return JSON.parse(b.toString('utf8', i, j + 1)) as string;
      } catch {
        return ((this.pos = -1), '');
      }
    }
    // UTF-8: the quotes around are ASCII, so the string's bytes decode alone as they do within the report.
    if (high >= 0x80) return b.toString('utf8', i + 1, j);
    const last = this.last[col]!;
    const n = j - i - 1;
    if (last.length === n) {
      let k = 0;
      while (k < n && last.charCodeAt(k) === b[i + 1 + k]) k++;
      if (k === n) return last;
    }
    return (this.last[col] = b.toString('latin1', i + 1, j));
  }

  /** The JSON number at `i`, read exactly as JSON.parse reads it (json-bytes.ts); pos past it, -1 when malformed. */
  private number(b: Buffer, i: number): number {
    const v = readNumber(b, i, true);
    this.pos = numberEnd.at;
    return v;
  }

  /** The geometry at `i`: a Point with two finite numbers first in its coordinates, read into pointLng, pointLat; past it, or -1. */
  private geometry(b: Buffer, i: number): number {
    if (b[i] !== 0x7b) return -1;
    let isPoint = false;
    let coordinates = false;
    let j = ws(b, i + 1);
    if (b[j] === 0x7d) return -1;
    for (;;) {
      const from = j + 1;
      const to = this.name(b, j);
      if (to < 0) return -1;
      j = ws(b, to + 1);
      if (b[j] !== 0x3a) return -1;
      j = ws(b, j + 1);
      if (equals(b, from, to, TYPE)) {
        if (b[j] !== 0x22) return -1;
        const end = this.name(b, j); // a plain string, as a name is
        if (end < 0 || isPoint) return -1;
        isPoint = equals(b, j + 1, end, POINT);
        if (!isPoint) return -1;
        j = end + 1;
      } else if (equals(b, from, to, COORDINATES)) {
        if (coordinates) return -1;
        coordinates = true;
        j = this.coordinates(b, j);
      } else j = skipValue(b, j, 2);
      if (j < 0) return -1;
      j = ws(b, j);
      const c = b[j] as number;
      if (c === 0x7d) return isPoint && coordinates ? j + 1 : -1;
      if (c !== 0x2c) return -1;
      j = ws(b, j + 1);
    }
  }

  private coordinates(b: Buffer, i: number): number {
    if (b[i] !== 0x5b) return -1;
    let j = ws(b, i + 1);
    for (let k = 0; ; k++) {
      const c = b[j] as number;
      if (k < 2) {
        if (c !== 0x2d && !isDigit(c)) return -1;
        const v = this.number(b, j);
        if (this.pos < 0 || !Number.isFinite(v)) return -1;
        if (k === 0) this.pointLng = v;
        else this.pointLat = v;
        j = this.pos;
      } else j = skipValue(b, j, 3);
      if (j < 0) return -1;
      j = ws(b, j);
      const d = b[j] as number;
      if (d === 0x5d) return k >= 1 ? j + 1 : -1;
      if (d !== 0x2c) return -1;
      j = ws(b, j + 1);
    }
  }
}
