/**
 * A report's point read by the reply's usual shape (json-shape.ts): a reply's reports mostly
 * share one, and comparing a report with its template many bytes at a time, reading only the
 * values that differ from the learnt report's, skips the member by member way of the point
 * reader (report-point.ts: names told, white space skipped, a comparison a member), which stays
 * the way for every report that differs from the template otherwise.
 *
 * Its values are those the member reader gives for the same bytes: a value that differs is read
 * by the same function (report-point-values.ts), a learnt value is what that function read from
 * the learnt bytes, and a value not wanted is checked as the member reader checks it.
 * test/unit/report-point-shape.test.ts holds the two readers to the same points.
 */
import type { ReportPoint } from './types.js';
import { isDigit, numberEnd, readNumber, skipString, skipValue } from './json-bytes.js';
import { equalBytes, jsonShape, Learn, ShapeLearning, Slot, type JsonShape, type ShapeRules } from './json-shape.js';
import { shapeSkips } from './json-shape-skips.js';
import { blank, setField } from './report-point-members.js';
import { fieldOfName } from './report-point-names.js';
import { isNumeric, readValue, valueEnd } from './report-point-values.js';

/** Every property may stand in the template; every value but the point's coordinates (a track's change each report) is learnt. */
const RULES: ShapeRules = {
  property: () => true,
  learn: (slot) => slot !== Slot.PointLng && slot !== Slot.PointLat,
};

/** Reports read by a shape so far (a test's measure that the shape, not the member reader, read them). */
export let shapeReads = 0;

/** A copy of `l`, made as blank() makes new properties: one object shape for every point, whichever way it was read. */
function copy(l: ReportPoint['properties']): ReportPoint['properties'] {
  return {
    did: l.did, name: l.name, lat: l.lat, lng: l.lng, speed: l.speed, date: l.date,
    odometer: l.odometer, address: l.address, reportType: l.reportType, reportValue: l.reportValue, message: l.message,
  };
}

export class ShapePoints {
  /** Where the report just read by the shape ended. */
  end = 0;
  private shape: JsonShape | undefined;
  /** Per value: the wanted member it is (report-point-names.ts; 0 none), the nesting it stands at. */
  private fields = new Uint8Array(0);
  private depths = new Uint8Array(0);
  /** Per template byte: how many values end, with the byte after them, before it (the values the equal bytes up to it pass). */
  private passed: Uint16Array = new Uint16Array(1);
  /** Per value: the first from it on that is not learnt (read each time), or the number of values. */
  private nextRead: Uint16Array = new Uint16Array(0);
  /** The learnt values of the wanted members, the others undefined: each point starts as a copy (copy()), not eleven members set. */
  private learnt = blank();
  private readonly learning = new ShapeLearning();

  /** The properties of the report at `start` in b (zero bytes after its bytes) when it has the shape; undefined otherwise. */
  read(b: Buffer, v: DataView, start: number): ReportPoint['properties'] | undefined {
    const shape = this.shape;
    if (shape === undefined) return undefined;
    const { at, view: w, size } = shape;
    const fields = this.fields;
    const l = this.learnt;
    const p = copy(l);
    // j in b is t in the template; the bytes from there to equalTo in the template are the report's
    let j = start;
    let t = 0;
    let equalTo = equalBytes(v, j, w, t, Math.min(size, b.length - j));
    const n = fields.length;
    const { passed, nextRead } = this;
    for (let k = 0; k < n; k++) {
      // The learnt values wholly within the equal bytes, each with the byte after it (the next
      // member's comma or a closing bracket: it ended there), are those values: skipped at once.
      const m = Math.min(passed[equalTo] as number, nextRead[k] as number);
      if (m > k) {
        j += (at[2 * m] as number) - t;
        t = at[2 * m] as number;
        k = m;
        if (k === n) break;
      }
      const value = at[2 * k + 1] as number;
      if (equalTo < value) return undefined; // a name or the punctuation differs
      // A value that differs from the learnt one, or one not learnt.
      j += value - t;
      const field = fields[k] as number;
      const c = b[j] as number;
      if (c === 0x2d || isDigit(c)) {
        // a number (most changed values: positions, dates), as readValue reads one, without its dispatch
        const read = readNumber(b, j, field !== 0);
        j = numberEnd.at;
        if (field !== 0 && j >= 0) setField(p, field, read);
      } else if (field !== 0) {
        const read = readValue(b, j, isNumeric(field));
        j = valueEnd.at;
        if (j >= 0) setField(p, field, read);
      } else if (c === 0x22) j = skipString(b, j);
      else j = skipValue(b, j, this.depths[k] as number);
      if (j < 0) return undefined;
      t = at[2 * k + 2] as number;
      equalTo = t + equalBytes(v, j, w, t, Math.min(size - t, b.length - j));
    }
    if (equalTo < size) return undefined;
    this.end = j + size - t;
    this.learning.hit();
    shapeReads++;
    return p;
  }

  /** The member reader read the report in b[start, end): it teaches the shape when one is due. */
  missed(b: Buffer, start: number, end: number): void {
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
    const shape = jsonShape(feature, RULES);
    const skips = shape && shapeSkips(shape);
    if (shape === undefined || skips === undefined) return;
    const n = shape.slots.length;
    this.fields = new Uint8Array(n);
    this.depths = new Uint8Array(n);
    const learnt = blank();
    // The learnt values read from the template's bytes (with zero bytes after them, as read() needs), as read() would read them.
    const bytes = Buffer.alloc(shape.size + 8);
    shape.bytes.copy(bytes);
    for (let k = 0; k < n; k++) {
      const slot = shape.slots[k] as Slot;
      const field = slot === Slot.Property ? fieldOfName(shape.names[k] as string) : 0;
      this.fields[k] = field;
      // as deep as the member reader skips it: a top-level member, a property, a coordinate
      this.depths[k] = slot === Slot.Top ? 1 : slot === Slot.Property ? 2 : 3;
      const from = shape.at[2 * k + 1] as number;
      if (field !== 0 && (shape.at[2 * k + 2] as number) > from) setField(learnt, field, readValue(bytes, from, isNumeric(field)));
    }
    ({ passed: this.passed, nextRead: this.nextRead } = skips);
    this.learnt = learnt;
    this.shape = shape;
  }
}
