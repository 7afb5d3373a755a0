/**
 * A report's row read by the reply's usual shape: the template of api/json-shape.ts (the
 * usual report's bytes between its values, and the learnt values as sent), compared with a
 * report eight bytes at a time (equalBytes), every learnt value the equal bytes pass taken at
 * once (api/json-shape-skips.ts), only the values that differ read. The reports of a reply
 * mostly share one shape, and this takes a fraction of the time of reading a report member by
 * member (row-reader.ts), which stays the way for every report that differs from the template
 * otherwise and for every value that does not fit its column.
 *
 * It reads where the splitter finds a report's opening brace (cut-reader.ts), in place of the
 * splitter's check: the template's bytes, and each value read as JSON.parse reads it, are the
 * check, and where the template ends the report ends.
 *
 * The shape is learnt from a report the member reader read, and learnt again after 64 misses
 * in a row (json-shape.ts's ShapeLearning, as the report point reader does); a reply whose
 * reports keep changing shape stops learning.
 *
 * Its cells are those the member reader gives for the same bytes, value for value: a value
 * that differs is read by the same rules (json-bytes.ts's numbers, cells.ts's fit), and a
 * learnt value's cell is what this reader read from the template's bytes of it.
 * test/unit/parquet-shape-reader.test.ts holds the paths to the same file.
 */
import { isDigit, literal, numberEnd, readNumber, skipValue } from '../../api/json-bytes.js';
import { equalBytes, jsonShape, Learn, ShapeLearning, Slot, type JsonShape, type ShapeRules } from '../../api/json-shape.js';
import { shapeSkips } from '../../api/json-shape-skips.js';
import { LastTexts, numberCell, Read, READ_OF_KIND, Tag, type LearntCells } from './cells.js';
import type { ParquetColumn } from './kinds.js';

/** How a value of the template is read: a property by its column's Read (cells.ts), or one of these. */
const enum Way { PointLng = 8, PointLat, Skip, NullGeometry }

/** Which values may stand in a template, and which are learnt, for the report columns `columns`. */
function shapeRules(columns: readonly ParquetColumn[]): ShapeRules {
  const reads = new Map(columns.map((c) => [c.name, READ_OF_KIND[c.kind]]));
  return {
    property: (name) => reads.has(name), // a property the interface does not name goes to extra: the parsed path's
    learn(slot, name, v) {
      if (slot === Slot.PointLng || slot === Slot.PointLat) return false; // a track's coordinates change from report to report
      if (typeof v === 'object' && v !== null) return undefined; // extra, a geometry other than a Point, or a member not read
      if (slot === Slot.Top) return name !== 'geometry' || v === null ? true : undefined;
      const read = reads.get(name);
      if (v === null || read === Read.Text) return true;
      return typeof v === 'number' && read !== undefined && !Number.isNaN(numberCell(read, v)) ? true : undefined;
    },
  };
}

export class ShapeReader {
  /** The cells of the last report read, in the columns it wrote (dirty); every other column's is the learnt one. */
  readonly tags: Uint8Array;
  readonly numbers: Float64Array;
  readonly texts: string[];
  /** Reports this reader read by a shape (a test's measure that the shape, not the member reader, read them). */
  rows = 0;
  /** The learnt report's cells (a new object for each shape learnt): a report's cells are these, but in its dirty columns. */
  learnt: LearntCells = { tags: new Uint8Array(0), numbers: new Float64Array(0), texts: [] };
  /** The columns whose cells the last read wrote (dirtyCount of them): only those differ from the learnt cells. */
  dirty = new Int8Array(0);
  dirtyCount = 0;
  private readonly rules: ShapeRules;
  private readonly last: LastTexts;
  private readonly lat: number;
  private readonly lng: number;
  /** Each report column's name and how its values are read. */
  private readonly names: readonly string[];
  private readonly reads: Int8Array;
  private shape: JsonShape | undefined;
  /** The shape has a Point geometry: its coordinates are placed in lat/lng. */
  private point = false;
  /** Per value of the shape: how it is read (a Read or a Way), its column (-1 none). */
  private ways = new Int8Array(0);
  private columns = new Int8Array(0);
  /** The skip tables (json-shape-skips.ts). */
  private passed: Uint16Array = new Uint16Array(1);
  private nextRead: Uint16Array = new Uint16Array(0);
  private readonly learning = new ShapeLearning();
  /** The geometry's point of the report being read. */
  private pointLng = 0;
  private pointLat = 0;

  constructor(columns: readonly ParquetColumn[]) {
    const n = columns.length;
    this.tags = new Uint8Array(n);
    this.numbers = new Float64Array(n);
    this.texts = columns.map(() => '');
    this.rules = shapeRules(columns);
    this.last = new LastTexts(n);
    this.lat = columns.findIndex((c) => c.name === 'lat');
    this.lng = columns.findIndex((c) => c.name === 'lng');
    this.names = columns.map((c) => c.name);
    this.reads = Int8Array.from(columns, (c) => READ_OF_KIND[c.kind]);
  }

  /**
   * The cells of the report at `start` in b (v a view of b; zero bytes after b[0, limit), as
   * padded-bytes.ts loads them) when it has the shape and every value fits its column: where
   * it ends, or -1.
   */
  read(b: Buffer, v: DataView, start: number, limit: number): number {
    const shape = this.shape;
    if (shape === undefined) return -1;
    const { at, view: w, size } = shape;
    const { passed, nextRead } = this;
    this.dirtyCount = 0;
    // j in b is t in the template; the bytes from there to equalTo in the template are the report's.
    let j = start;
    let t = 0;
    let equalTo = equalBytes(v, j, w, t, Math.min(size, limit - j));
    const n = this.ways.length;
    for (let k = 0; k < n; k++) {
      // The learnt values wholly within the equal bytes, each with the byte after it (it ended there), are the learnt ones.
      const m = Math.min(passed[equalTo] as number, nextRead[k] as number);
      if (m > k) {
        j += (at[2 * m] as number) - t;
        t = at[2 * m] as number;
        k = m;
        if (k === n) break;
      }
      const valueAt = at[2 * k + 1] as number;
      if (equalTo < valueAt) return -1; // a name or the punctuation differs
      // A value that differs from the learnt one, or one read each time.
      j += valueAt - t;
      if (j >= limit) return -1;
      j = this.value(b, j, k);
      if (j < 0) return -1;
      t = at[2 * k + 2] as number;
      equalTo = t + equalBytes(v, j, w, t, Math.min(size - t, limit - j));
    }
    if (equalTo < size) return -1;
    if (this.point && !(this.place(this.lng, this.pointLng) && this.place(this.lat, this.pointLat))) return -1;
    this.learning.hit();
    this.rows++;
    return j + size - t;
  }

  /**
   * Value k of the shape at `j` in b, its cell written; past it, or -1 where the member reader or
   * the parsed path must read the report. A number where one is read (a fix's figures, its date:
   * the values that differ from report to report) is read here; anything else by otherValue(),
   * which keeps the usual path short.
   */
  private value(b: Buffer, j: number, k: number): number {
    const way = this.ways[k] as number;
    const c = b[j] as number;
    if (way === Read.Text || way > Way.PointLat || (c !== 0x2d && !isDigit(c))) return this.otherValue(b, j, k, c);
    const v = readNumber(b, j, true);
    if (way === Way.PointLng || way === Way.PointLat) {
      if (!Number.isFinite(v)) return -1;
      if (way === Way.PointLng) this.pointLng = v;
      else this.pointLat = v;
      return numberEnd.at;
    }
    const col = this.columns[k] as number;
    this.dirty[this.dirtyCount++] = col;
    const cell = numberCell(way as Read, v);
    if (Number.isNaN(cell)) return -1;
    this.numbers[col] = cell;
    this.tags[col] = Tag.Number;
    return numberEnd.at;
  }

  /** Value k at `j` (its first byte `c`) when it is not a number read as one: a text, a null, a member not written; as value(). */
  private otherValue(b: Buffer, j: number, k: number, c: number): number {
    const way = this.ways[k] as number;
    if (way === Way.NullGeometry) return -1; // a geometry the template does not have
    if (way === Way.Skip) return c === 0x7b || c === 0x5b ? -1 : skipValue(b, j, 1); // scalars only, as the template was learnt
    if (way === Way.PointLng || way === Way.PointLat) return -1; // not a number
    const col = this.columns[k] as number;
    this.dirty[this.dirtyCount++] = col;
    if (c === 0x6e) {
      if (!literal(b, j, 'null')) return -1;
      this.tags[col] = Tag.Null;
      return j + 4;
    }
    // a number column's text: a number sent as text (the tolerance pass's rules), or no value
    return way === Read.Text ? this.text(b, j, col, c) : -1;
  }

  /** A text column's value at `j` (its first byte `c`): a string, a number or true/false, as row-reader.ts reads it; past it, or -1. */
  private text(b: Buffer, j: number, col: number, c: number): number {
    const { texts, tags } = this;
    tags[col] = Tag.Text;
    if (c === 0x74 || c === 0x66) {
      const word = c === 0x74 ? 'true' : 'false';
      texts[col] = word;
      return literal(b, j, word) ? j + word.length : -1;
    }
    if (c !== 0x22) {
      if (c !== 0x2d && !isDigit(c)) return -1;
      const v = readNumber(b, j, true);
      if (!Number.isFinite(v)) return -1;
      texts[col] = String(v);
      return numberEnd.at;
    }
    let e = j + 1;
    let high = 0;
    for (let d = b[e] as number; d !== 0x22; d = b[++e] as number) {
      if (d === 0x5c || !(d >= 0x20)) return -1; // an escape: the member reader decodes it
      high |= d;
    }
    // UTF-8: the quotes around are ASCII, so the string's bytes decode alone as they do within the report.
    texts[col] = high >= 0x80 ? b.toString('utf8', j + 1, e) : this.last.text(b, j + 1, e, col);
    return e + 1;
  }

  /** The member reader read the report in b[start, end): it teaches the shape when one is due. */
  readGenerally(b: Buffer, start: number, end: number): void {
    const learn = this.learning.missed(this.shape !== undefined);
    if (learn === Learn.Keep) return;
    this.shape = undefined;
    if (learn === Learn.Drop) return;
    let feature: unknown;
    try {
      feature = JSON.parse(b.toString('utf8', start, end));
    } catch {
      return;
    }
    const shape = jsonShape(feature, this.rules);
    const skips = shape && shapeSkips(shape);
    if (shape === undefined || skips === undefined || !this.learnCells(shape)) return;
    [this.passed, this.nextRead] = [skips.passed, skips.nextRead];
    this.shape = shape;
  }

  /** How each value of `shape` is read, and the learnt cells: what value() reads from the template's bytes of each learnt value (false: one does not read back). */
  private learnCells(shape: JsonShape): boolean {
    const n = shape.slots.length;
    this.ways = new Int8Array(n);
    this.columns = new Int8Array(n).fill(-1);
    this.tags.fill(Tag.Absent); // a column the shape has not stays absent
    // The template's bytes with zero bytes after them, as a report's bytes in a chunk are followed by more.
    const bytes = Buffer.alloc(shape.size + 8);
    shape.bytes.copy(bytes);
    for (let k = 0; k < n; k++) {
      const slot = shape.slots[k] as Slot;
      const name = shape.names[k] as string;
      const col = slot === Slot.Property ? this.names.indexOf(name) : -1;
      this.columns[k] = col;
      this.ways[k] = slot === Slot.PointLng ? Way.PointLng : slot === Slot.PointLat ? Way.PointLat : slot === Slot.Top ? (name === 'geometry' ? Way.NullGeometry : Way.Skip) : (this.reads[col] as number);
      const from = shape.at[2 * k + 1] as number;
      if (col >= 0 && (shape.at[2 * k + 2] as number) > from && this.value(bytes, from, k) < 0) return false;
    }
    this.point = shape.slots.includes(Slot.PointLng);
    this.learnt = { tags: this.tags.slice(), numbers: this.numbers.slice(), texts: this.texts.slice() };
    this.dirty = new Int8Array(n + 2);
    this.dirtyCount = 0;
    return true;
  }

  /** The geometry's coordinate in column `i`: a properties' value that differs is kept in `extra`, so that row is read the general way. */
  private place(i: number, v: number): boolean {
    // the properties' value: read from this report if it differs from the learnt one (only the dirty cells are this report's)
    let d = this.dirtyCount - 1;
    while (d >= 0 && this.dirty[d] !== i) d--;
    const { tags, numbers } = d >= 0 ? this : this.learnt;
    if (tags[i] === Tag.Number && numbers[i] !== v) return false;
    if (d < 0) this.dirty[this.dirtyCount++] = i;
    this.tags[i] = Tag.Number;
    this.numbers[i] = v;
    return true;
  }
}
