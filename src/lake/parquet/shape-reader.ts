/**
 * A report's row read by one match of the reply's usual shape (shape-plan.ts): the reports
 * of a reply mostly share one, and a native match that finds every value at once takes less
 * than half the time of reading the report member by member (row-reader.ts), which stays the
 * way for every report the shape does not match and for every value the match found that
 * does not fit its column.
 *
 * The shape is learnt from a report the general reader read, and learnt again (as the
 * splitter's check does, api/feature-match.ts) when the reply's reports change shape part-way;
 * a reply whose reports keep changing shape stops learning.
 *
 * Its cells are those the general reader gives for the same bytes, value for value (numbers:
 * `+text` is JSON.parse's double for a JSON number, and the same checks decide whether it
 * fits); test/unit/parquet-shape-reader.test.ts holds the paths to the same file.
 */
import type { ParquetColumn } from './kinds.js';
import { Tag } from './row-reader.js';
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
  /** The latin1 text of the bytes the last report came from (a chunk of the body holds many reports). */
  private source: Buffer | undefined;
  private text = '';
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
    if (b !== this.source) {
      this.source = b;
      this.text = b.toString('latin1');
    }
    const re = plan.re;
    re.lastIndex = start;
    let m: RegExpExecArray | null;
    try {
      m = re.exec(this.text);
    } catch {
      return false; // the expression's backtracking stack ran out: the general reader decides
    }
    if (m === null || re.lastIndex !== end) return false;
    if (!this.cells(plan, m)) return false;
    this.hits++;
    shapeRows++;
    return true;
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
    }
    this.hits = 0;
  }

  /** The match's captures as cells; false when a value does not fit its column (as row-reader.ts decides). */
  private cells(plan: ShapePlan, m: RegExpExecArray): boolean {
    const { tags, numbers, texts } = this;
    tags.fill(Tag.Absent);
    const { reads, columns, valueGroups, scalarGroups, nullGroups } = plan;
    let pointLng = 0;
    let pointLat = 0;
    for (let k = 0; k < reads.length; k++) {
      const col = columns[k]!;
      const read = reads[k] as Read;
      let s = m[valueGroups[k]!];
      if (read === Read.Text) {
        if (s !== undefined) {
          const last = this.last[col]!;
          texts[col] = s === last ? last : (this.last[col] = s);
          tags[col] = Tag.Text;
          continue;
        }
        s = m[scalarGroups[k]!];
        if (s !== undefined) {
          const c = s.charCodeAt(0);
          if (c === 0x74 || c === 0x66) texts[col] = s; // true, false
          else {
            const v = +s;
            if (!Number.isFinite(v)) return false;
            texts[col] = String(v);
          }
          tags[col] = Tag.Text;
          continue;
        }
      }
      if (s === undefined) {
        // Matched as the learnt report had it, or null.
        const nullGroup = nullGroups[k]!;
        if (nullGroup > 0 && m[nullGroup] !== undefined) tags[col] = Tag.Null;
        else {
          tags[col] = plan.tags[k]!;
          numbers[col] = plan.numbers[k]!;
          texts[col] = plan.texts[k]!;
        }
        continue;
      }
      const v = numberCell(read, +s);
      if (Number.isNaN(v)) return false;
      if (read === Read.PointLng) pointLng = v;
      else if (read === Read.PointLat) pointLat = v;
      else {
        numbers[col] = v;
        tags[col] = Tag.Number;
      }
    }
    return !plan.point || (this.place(this.lng, pointLng) && this.place(this.lat, pointLat));
  }

  /** The geometry's coordinate in column `i`: a properties' value that differs is kept in `extra`, so that row is read the general way. */
  private place(i: number, v: number): boolean {
    if (this.tags[i] === Tag.Number && this.numbers[i] !== v) return false;
    this.tags[i] = Tag.Number;
    this.numbers[i] = v;
    return true;
  }
}
