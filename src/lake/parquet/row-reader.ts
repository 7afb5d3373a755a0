/**
 * A report's row read straight out of its bytes as the service sent them: the typed cells of
 * the report columns, without JSON.parse, the tolerance pass or an object per report. Parsing
 * every feature whole and then picking its properties apart was most of an export's time.
 *
 * It reads what is usual and gives up (read() returns -1: the splitter scans the report and it
 * is parsed, buffers.ts appends the parsed feature) on whatever would make the row differ from that path's in any way: a
 * property the interface does not name, a value that fits no column (it goes to `extra`), a
 * number sent as text, a non-Point geometry, a properties' lat/lng that differs from the
 * geometry's, a member name with an escape, a repeated `properties` or `geometry`. So every
 * row it reads is the row the parsed feature gives, with `extra` null;
 * test/unit/parquet-row-reader.test.ts holds the two paths to the same cells.
 *
 * It reads a report where the splitter finds its opening brace, in place of the splitter's check
 * (cut-reader.ts), so it checks each token it reads and gives up on anything malformed: what it
 * takes, JSON.parse takes (test/unit/parquet-cut-reader.test.ts). A Point geometry is read by
 * point-geometry.ts, and what fits a column is decided by cells.ts, as for the shape reader.
 */
import { isDigit, literal, numberEnd, readNumber, skipValue, ws } from '../../api/json-bytes.js';
import { equals, plainStringEnd } from './byte-names.js';
import { LastTexts, numberCell, Read, READ_OF_KIND, Tag } from './cells.js';
import type { ParquetColumn } from './kinds.js';
import { point, pointEnd } from './point-geometry.js';

const PROPERTIES = Buffer.from('properties');
const GEOMETRY = Buffer.from('geometry');

/**
 * Reads one report's cells into tags, numbers and texts, by the position of the report
 * columns it is given (columns.ts). One reader serves every row: its arrays are overwritten
 * by each read().
 */
export class RowReader {
  readonly tags: Uint8Array;
  readonly numbers: Float64Array;
  readonly texts: string[];
  private readonly last: LastTexts;
  private readonly names: readonly Uint8Array[];
  private readonly reads: Int8Array;
  private readonly lat: number;
  private readonly lng: number;
  /** Where the string just read ended; -1 when the reader gave up. */
  private pos = 0;
  /** The column the next property name is tried against first: the service sends them in the interface's order. */
  private next = 0;

  constructor(columns: readonly ParquetColumn[]) {
    const n = columns.length;
    this.tags = new Uint8Array(n);
    this.numbers = new Float64Array(n);
    this.texts = columns.map(() => '');
    this.last = new LastTexts(n);
    this.names = columns.map((c) => Buffer.from(c.name, 'latin1'));
    this.reads = Int8Array.from(columns, (c) => READ_OF_KIND[c.kind]);
    this.lat = columns.findIndex((c) => c.name === 'lat');
    this.lng = columns.findIndex((c) => c.name === 'lng');
  }

  /**
   * The cells of the report at `start` in b (zero bytes after it, as padded-bytes.ts loads it):
   * where it ends, or -1 when the report is unusual (see above) or malformed and must be read parsed.
   */
  read(b: Buffer, start: number): number {
    this.tags.fill(Tag.Absent);
    if (b[start] !== 0x7b) return -1;
    let properties = false;
    let isPoint = false;
    let geometry = false;
    let j = ws(b, start + 1);
    if (b[j] === 0x7d) return -1; // no properties
    for (;;) {
      const from = j + 1;
      const to = plainStringEnd(b, j);
      if (to < 0) return -1;
      j = ws(b, to + 1);
      if (b[j] !== 0x3a) return -1;
      j = ws(b, j + 1);
      if (equals(b, from, to, PROPERTIES)) {
        if (properties || b[j] !== 0x7b) return -1;
        properties = true;
        j = this.properties(b, j);
      } else if (equals(b, from, to, GEOMETRY)) {
        if (geometry) return -1;
        geometry = true;
        if (b[j] === 0x6e) j = literal(b, j, 'null') ? j + 4 : -1;
        else {
          isPoint = true;
          j = pointEnd(b, j);
        }
      } else j = skipValue(b, j, 1);
      if (j < 0) return -1;
      j = ws(b, j);
      const c = b[j] as number;
      if (c === 0x7d) break;
      if (c !== 0x2c) return -1;
      j = ws(b, j + 1);
    }
    if (!properties) return -1;
    if (isPoint && !(this.place(this.lng, point.lng) && this.place(this.lat, point.lat))) return -1;
    return j + 1;
  }

  /** The geometry's coordinate in column `i`: a properties' value that differs is kept in `extra`, so that row is read parsed. */
  private place(i: number, v: number): boolean {
    const tag = this.tags[i];
    if (tag === Tag.Number && this.numbers[i] !== v) return false;
    this.tags[i] = Tag.Number;
    this.numbers[i] = v;
    return true;
  }

  /** The `properties` object at `i`, its cells read; past it, or -1. */
  private properties(b: Buffer, i: number): number {
    let j = ws(b, i + 1);
    if (b[j] === 0x7d) return j + 1;
    for (;;) {
      const from = j + 1;
      const to = plainStringEnd(b, j);
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
    const read = this.reads[col] as Read;
    if (c === 0x22) {
      if (read !== Read.Text) return -1; // a number sent as text: the tolerance pass's rules
      this.texts[col] = this.text(b, j, col);
      this.tags[col] = Tag.Text;
      return this.pos;
    }
    if (c === 0x6e) {
      this.tags[col] = Tag.Null;
      return literal(b, j, 'null') ? j + 4 : -1;
    }
    if (c === 0x74 || c === 0x66) {
      if (read !== Read.Text) return -1;
      const word = c === 0x74 ? 'true' : 'false';
      this.texts[col] = word;
      this.tags[col] = Tag.Text;
      return literal(b, j, word) ? j + word.length : -1;
    }
    if (c !== 0x2d && !isDigit(c)) return -1; // an object or an array: extra
    const v = readNumber(b, j, true);
    const end = numberEnd.at;
    if (end < 0 || !Number.isFinite(v)) return -1;
    if (read === Read.Text) {
      this.texts[col] = String(v);
      this.tags[col] = Tag.Text;
      return end;
    }
    const cell = numberCell(read, v);
    if (Number.isNaN(cell)) return -1;
    this.numbers[col] = cell;
    this.tags[col] = Tag.Number;
    return end;
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
    return high >= 0x80 ? b.toString('utf8', i + 1, j) : this.last.text(b, i + 1, j, col);
  }
}
