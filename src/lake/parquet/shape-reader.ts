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

/** Reports read by a shape so far (a test's measure that the shape, not the general reader, read them). */
export let shapeRows = 0;

export class ShapeReader {
  readonly tags: Uint8Array;
  readonly numbers: Float64Array;
  readonly texts: string[];
  /** Each text column's last text: the same text gives back the same string, and the match's new one is dropped. */
  private readonly last: string[];
  private readonly lat: number;
  private readonly lng: number;
  private plan: ShapePlan | undefined;
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
    const { bytes, at, reads, columns } = plan;
    const { tags, numbers, texts } = this;
    // The geometry's point is placed over the properties' lat/lng: the last report's must not count.
    if (plan.point) tags[this.lat] = tags[this.lng] = Tag.Absent;
    let pointLng = 0;
    let pointLat = 0;
    let j = start;
    const n = reads.length;
    for (let k = 0; k < n; k++) {
      // The bytes before the value: names and punctuation.
      const from = at[2 * k]!;
      const to = at[2 * k + 1]!;
      if (j + (to - from) >= end) return false;
      for (let p = from; p < to; p++, j++) if (b[j] !== bytes[p]) return false;
      const read = reads[k] as Read;
      const col = columns[k]!;
      // The learnt value, when the report has it too: its bytes, then the comma or bracket after every value (not 1001 of 10012).
      const sentEnd = at[2 * k + 2]!;
      if (sentEnd > to) {
        let p = to;
        let q = j;
        while (p < sentEnd && b[q] === bytes[p]) {
          p++;
          q++;
        }
        const after = b[q];
        if (p === sentEnd && (after === 0x2c || after === 0x7d || after === 0x5d)) {
          j = q;
          if (read !== Read.Skip) {
            tags[col] = plan.tags[k]!;
            numbers[col] = plan.numbers[k]!;
            texts[col] = plan.texts[k]!;
          }
          continue;
        }
      }
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
      const v = numberCell(read, readNumber(b, j, true));
      j = numberEnd.at;
      if (j < 0 || Number.isNaN(v)) return false;
      if (read === Read.PointLng) pointLng = v;
      else if (read === Read.PointLat) pointLat = v;
      else {
        numbers[col] = v;
        tags[col] = Tag.Number;
      }
    }
    // The bytes that close the report.
    const from = at[2 * n]!;
    if (end - j !== bytes.length - from) return false;
    for (let p = from; p < bytes.length; p++, j++) if (b[j] !== bytes[p]) return false;
    if (plan.point && !(this.place(this.lng, pointLng) && this.place(this.lat, pointLat))) return false;
    this.hits++;
    shapeRows++;
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
