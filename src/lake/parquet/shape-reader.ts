/**
 * A report's row read by the reply's usual shape (shape-plan.ts): the reports of a reply
 * mostly share one, and comparing a report with its template, reading only the values that
 * differ from the learnt report's, takes about half the time of reading it member by member
 * (row-reader.ts), which stays the way for every report that differs from the template
 * otherwise and for every value that does not fit its column.
 *
 * The shape is learnt from a report the general reader read, and learnt again (as the
 * splitter's check does, api/feature-match.ts) when the reply's reports change shape part-way;
 * a reply whose reports keep changing shape stops learning.
 *
 * Its cells are those the general reader gives for the same bytes, value for value (numbers
 * read by json-bytes.ts as there, the same checks decide whether they fit; a learnt value's
 * cell is the one its bytes gave); test/unit/parquet-shape-reader.test.ts holds the paths to
 * the same file.
 */
import type { ParquetColumn } from './kinds.js';
import { Tag } from './row-reader.js';
import { isDigit, literal, numberEnd, readNumber, skipValue } from '../../api/json-bytes.js';
import { numberCell, Read, shapePlan, type ShapePlan } from './shape-plan.js';

/** A shape that missed this many reports since it was learnt is learnt again, from the next report the general reader reads. */
const RELEARN_AFTER = 64;
/** Shapes replaced before they took RELEARN_AFTER reports: after this many, the reply has none worth learning. */
const MAX_FUTILE = 4;

export class ShapeReader {
  readonly tags: Uint8Array;
  readonly numbers: Float64Array;
  readonly texts: string[];
  /** Each text column's last text: the same text gives back the same string, and the match's new one is dropped. */
  private readonly last: string[];
  private readonly lat: number;
  private readonly lng: number;
  /** Reports this reader read by a shape (a test's measure that the shape, not the general reader, read them). */
  rows = 0;
  private plan: ShapePlan | undefined;
  /** The bytes of the last report read, and a view of them for eight at a time. */
  private source: Buffer | undefined;
  private view: DataView = new DataView(new ArrayBuffer(0));
  private untilLearn = 0;
  private hits = 0;
  private futile = 0;

  constructor(private readonly columns: readonly ParquetColumn[]) {
    const n = columns.length;
    this.tags = new Uint8Array(n);
    this.numbers = new Float64Array(n);
    this.texts = columns.map(() => '');
    this.last = columns.map(() => '');
    this.lat = columns.findIndex((c) => c.name === 'lat');
    this.lng = columns.findIndex((c) => c.name === 'lng');
  }

  /** The cells of the report in b[start, end) when it has the shape and every value fits its column; false otherwise. */
  read(b: Buffer, start: number, end: number): boolean {
    const plan = this.plan;
    if (plan === undefined) return false;
    if (b !== this.source) [this.source, this.view] = [b, new DataView(b.buffer, b.byteOffset, b.length)];
    const v = this.view;
    const { bytes, view: w, at, reads, columns } = plan;
    const size = bytes.length;
    const { tags, numbers, texts } = this;
    // The geometry's point is placed over the properties' lat/lng: the last report's must not count.
    if (plan.point) tags[this.lat] = tags[this.lng] = Tag.Absent;
    let pointLng = 0;
    let pointLat = 0;
    const n = reads.length;
    // The report's byte j stands where the template's byte p does; k is the value to come.
    let j = start;
    let p = 0;
    for (let k = 0; ; k++) {
      // As many bytes from here as are the template's (names, punctuation, the learnt values), eight at a time: eight bytes of
      // JSON text read as a double are equal exactly when the bytes are (they hold no zero byte, so never ±0; a NaN, from bytes
      // 0x7f or 0xf0-0xff, equals nothing and leaves those bytes to the single ones).
      const span = Math.min(size - p, end - j);
      let d = 0;
      while (d + 8 <= span && v.getFloat64(j + d, true) === w.getFloat64(p + d, true)) d += 8;
      while (d < span && b[j + d] === bytes[p + d]) d++;
      const m = p + d;
      // The values passed whole, with the byte after them: the learnt report's (not 1001 of 10012).
      for (; k < n && at[2 * k + 2]! < m && at[2 * k + 2]! > at[2 * k + 1]!; k++) {
        if (reads[k] === Read.Skip) continue;
        const col = columns[k]!;
        tags[col] = plan.tags[k]!;
        numbers[col] = plan.numbers[k]!;
        texts[col] = plan.texts[k]!;
      }
      if (k === n) {
        // The bytes that close the report, to its end.
        if (m !== size || j + d !== end) return false;
        break;
      }
      // Value k differs from the learnt one (or is read each time); the bytes before it must not.
      const valueAt = at[2 * k + 1]!;
      if (m < valueAt) return false;
      j += valueAt - p;
      if (j >= end) return false;
      p = at[2 * k + 2]!;
      const read = reads[k] as Read;
      const col = columns[k]!;
      const c = b[j] as number;
      if (read === Read.Skip) {
        j = skipValue(b, j, 1);
        if (j < 0 || c === 0x7b || c === 0x5b) return false; // scalars only, as the template was learnt
        continue;
      }
      if (c === 0x6e) {
        if (!literal(b, j, 'null') || read === Read.PointLng || read === Read.PointLat) return false;
        tags[col] = Tag.Null;
        j += 4;
        continue;
      }
      if (read === Read.Text) {
        j = this.text(b, j, col, c);
        if (j < 0) return false;
        continue;
      }
      if (c !== 0x2d && !isDigit(c)) return false; // a number sent as text: the tolerance pass's rules
      const value = numberCell(read, readNumber(b, j, true));
      j = numberEnd.at;
      if (j < 0 || Number.isNaN(value)) return false;
      if (read === Read.PointLng) pointLng = value;
      else if (read === Read.PointLat) pointLat = value;
      else {
        numbers[col] = value;
        tags[col] = Tag.Number;
      }
    }
    if (plan.point && !(this.place(this.lng, pointLng) && this.place(this.lat, pointLat))) return false;
    this.hits++;
    this.rows++;
    return true;
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
      if (d === 0x5c || !(d >= 0x20)) return -1; // an escape: the general reader decodes it
      high |= d;
    }
    // UTF-8: the quotes around are ASCII, so the string's bytes decode alone as they do within the report.
    if (high >= 0x80) texts[col] = b.toString('utf8', j + 1, e);
    else {
      const last = this.last[col]!;
      const size = e - j - 1;
      let k = 0;
      if (last.length === size) while (k < size && last.charCodeAt(k) === b[j + 1 + k]) k++;
      texts[col] = k === size && last.length === size ? last : (this.last[col] = b.toString('latin1', j + 1, e));
    }
    return e + 1;
  }

  /** The general reader read the report in b[start, end): it teaches the shape when one is due. */
  readGenerally(b: Buffer, start: number, end: number): void {
    if (--this.untilLearn > 0) return;
    if (this.plan !== undefined && this.hits < RELEARN_AFTER && ++this.futile > MAX_FUTILE) {
      this.plan = undefined;
      this.untilLearn = Infinity;
    } else {
      let feature: unknown;
      try {
        feature = JSON.parse(b.toString('utf8', start, end));
      } catch {
        feature = undefined;
      }
      this.plan = shapePlan(feature, this.columns);
      this.untilLearn = RELEARN_AFTER;
      // A column the shape has not stays absent: read() writes the others' cells.
      this.tags.fill(Tag.Absent);
    }
    this.hits = 0;
  }

  /** The geometry's coordinate in column `i`: a properties' value that differs is kept in `extra`, so that row is read the general way. */
  private place(i: number, v: number): boolean {
    if (this.tags[i] === Tag.Number && this.numbers[i] !== v) return false;
    this.tags[i] = Tag.Number;
    this.numbers[i] = v;
    return true;
  }
}
