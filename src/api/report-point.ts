/**
 * The few properties the report algorithms read (src/reports/), taken straight out of a
 * report's bytes. Parsing every report whole (JSON.parse, then the tolerance pass) was most
 * of a summary's time: a report is twenty-odd members, ten of them strings, and the
 * algorithms read ten (a poll's report key the message too: src/runs/cursor.ts).
 * PointReader walks the bytes once, checks them, skips what is not wanted and builds only
 * the wanted values; it stands in for the splitter's checking expression (history.ts,
 * matchFeature) on the report path and a poll's, so each byte is looked at once.
 *
 * What it accepts is what parseFeature accepts: a JSON object (RFC 8259, as JSON.parse reads
 * it) whose `properties` member is an object. It gives up (undefined, and the caller parses
 * the report whole) on what is valid but unusual: a member name with an escape, a second
 * `properties`, nesting deeper than MAX_DEPTH, or bytes that end before the report does.
 * Each value is what `tolerantFeature(JSON.parse(text)).properties[name]` gives: numbers are
 * read exactly (see readNumber in json-bytes.ts), strings decoded as JSON.parse decodes them, numeric fields
 * holding a numeric string become numbers, a member that is absent is undefined, a repeated
 * one is its last. test/unit/report-point.test.ts holds it to JSON.parse on generated reports,
 * valid and broken.
 *
 * A service writes a unit's reports alike: most members of a report are, byte for byte, the
 * member at the same place in the report before (the name, the type, the address while parked,
 * the message), and those bytes were checked when that report was read. Each reader keeps
 * where the last report's members lay (Members, report-point-members.ts). From each member on,
 * one loop finds how far the bytes are those of the report before (eight bytes at a time):
 * every member wholly within them is that member again, its value, when wanted, the one read
 * then; a member whose name alone is within them (a position, a date) has only its value read.
 * The usual opening of a report and its usual point geometry are compared with their usual
 * bytes. On the bench unit's reports that takes the reader and the splitter from 2.6 to 1.5 µs a report (CPU,
 * loaded machine); test/unit/report-point.test.ts reads streams of alike reports against
 * JSON.parse.
 *
 * Before all that, a report is compared with the reply's usual shape (report-point-shape.ts: a
 * template of its bytes learnt from a report read here, json-shape.ts), which reads only the
 * values that differ from the learnt report's; this way is for the reports it does not take.
 */
import type { CutReader } from './feature-splitter.js';
import { PaddedBytes } from './padded-bytes.js';
import { ReadPoint } from './report-item.js';
import type { ReportPoint } from './types.js';
import { isDigit, numberEnd, readNumber, skipString, skipValue, ws } from './json-bytes.js';
import { isNumeric, readValue, valueEnd } from './report-point-values.js';
import { blank, MAX_SHAPE, Members, same, setField, skipPoint, usualGeometryEnd } from './report-point-members.js';
import { ShapePoints } from './report-point-shape.js';
import { named, nameEnd, readName } from './report-point-names.js';

/** Where the value just read ended, -1 when it was malformed (module state: no allocation per value). */
let pos = 0;

/** The number at `i` (json-bytes.ts readNumber); pos past it, -1 when malformed. */
function number(b: Buffer, i: number, keep: boolean): number {
  const v = readNumber(b, i, keep);
  pos = numberEnd.at;
  return v;
}

type Properties = ReportPoint['properties'];

/** The `properties` object at `i`, read into `p`; pos past it, -1 when malformed or a name holds an escape. `m` learns its members. */
function readProperties(b: Buffer, v: DataView, i: number, p: Properties, m: Members): void {
  const known = m.count;
  m.count = 0; // until the object is read to its end
  let j = ws(b, i + 1);
  if (b[j] === 0x7d) {
    pos = j + 1;
    return;
  }
  const w = m.view;
  const last = known - 1;
  const before = known > 0 ? (m.start[last] as number) + (m.length[last] as number) : 0;
  // where the last comparison's equal bytes end in the report before, and the shift from there to here
  let equalTo = -1, equalShift = 0;
  for (let k = 0; ; k++) {
    if (b[j] !== 0x22) return void (pos = -1);
    const member = j;
    let field = -1;
    if (k < known) {
      // How many bytes from here are those of the report before from its k-th member on: sixteen
      // at a time, then eight, four, and singly (none past the loaded bytes: the zero guard is in no
      // member). Eight bytes of JSON text read as a double are equal exactly when the bytes are:
      // they hold no zero byte, so never ±0, and a NaN (from bytes 0x7f or 0xf0-0xff) is equal to
      // nothing, which only hands those bytes to the comparisons after.
      const o = m.start[k] as number;
      const shift = j - o;
      // The comparison that passed the members before this one stopped within it (at a changed value,
      // most often): it found what comparing again from here would find.
      let d = shift === equalShift && o <= equalTo ? equalTo - o : 0;
      if (d === 0) {
        const span = Math.min(before - o, b.length - j);
        while (d + 16 <= span && v.getFloat64(j + d, true) === w.getFloat64(o + d, true) && v.getFloat64(j + d + 8, true) === w.getFloat64(o + d + 8, true)) d += 16;
        while (d + 8 <= span && v.getFloat64(j + d, true) === w.getFloat64(o + d, true)) d += 8;
        while (d + 4 <= span && v.getInt32(j + d, true) === w.getInt32(o + d, true)) d += 4;
        while (d < span && v.getUint8(j + d) === w.getUint8(o + d)) d++;
        equalTo = o + d;
        equalShift = shift;
      }
      // The members wholly within them are those members again.
      let r = k;
      for (; r < known && (m.start[r] as number) + (m.length[r] as number) - o <= d; r++) {
        (m.start[r] as number) += shift;
        setField(p, m.field[r] as number, m.value[r]);
      }
      if (r > k) {
        j = ws(b, (m.start[r - 1] as number) + (m.length[r - 1] as number) - 1);
        const c = b[j] as number;
        if (c === 0x7d) return void ((pos = j + 1), (m.count = r), (m.bytes = b), (m.view = v));
        if (c !== 0x2c) return void (pos = -1);
        j = ws(b, j + 1);
        k = r - 1;
        continue;
      }
      // The value changed (a position, a date), the name most often not: only the value is read.
      if (d >= (m.name[k] as number)) {
        field = m.field[k] as number;
        j = ws(b, j + (m.name[k] as number));
      }
    }
    if (field < 0) {
      field = readName(b, j, k);
      if (field < 0) return void (pos = -1);
      j = nameEnd.at;
    }
    const valueAt = j;
    let value: unknown;
    if (field === 0) {
      // not wanted, only checked: the usual kinds straight, not through skipValue
      const c = b[j] as number;
      if (c === 0x22) pos = skipString(b, j);
      else if (c === 0x2d || isDigit(c)) number(b, j, false);
      else pos = skipValue(b, j, 2);
    } else {
      // lat, lng, did, date, speed and odometer are numeric (a numeric string becomes its number)
      value = readValue(b, j, isNumeric(field));
      pos = valueEnd.at;
      if (pos >= 0) setField(p, field, value);
    }
    if (pos < 0) return;
    if (k < MAX_SHAPE) {
      m.start[k] = member;
      m.length[k] = pos + 1 - member;
      m.name[k] = valueAt - member;
      m.field[k] = field;
      m.value[k] = value;
    }
    j = ws(b, pos);
    const c = b[j] as number;
    if (c === 0x7d) {
      pos = j + 1;
      if (k < MAX_SHAPE) {
        m.count = k + 1;
        m.bytes = b;
        m.view = v;
      }
      return;
    }
    if (c !== 0x2c) return void (pos = -1);
    j = ws(b, j + 1);
  }
}

/** The usual opening of a report, up to its properties' brace. */
const FEATURE = Buffer.from('{"type":"Feature","properties":{');
const FEATURE_VIEW = new DataView(FEATURE.buffer, FEATURE.byteOffset, FEATURE.length);

/** The feature at `start`: its properties read into a new point; pos past it. */
function readFeature(b: Buffer, v: DataView, start: number, m: Members): ReadPoint | undefined {
  if (b[start] !== 0x7b) return undefined;
  let p: Properties | undefined;
  /** At the brace or comma before the next member, then at the closing brace. */
  let j = start;
  if (start + FEATURE.length <= b.length && same(v, start, FEATURE_VIEW, 0, FEATURE.length)) {
    // the usual opening and geometry, compared with their bytes instead of read
    p = blank();
    readProperties(b, v, start + FEATURE.length - 1, p, m);
    if (pos < 0) return undefined;
    const geometry = usualGeometryEnd(b, v, pos);
    j = ws(b, geometry > 0 ? geometry : pos);
    if (b[j] !== 0x2c && b[j] !== 0x7d) return undefined;
  }
  while (b[j] !== 0x7d) {
    j = ws(b, j + 1);
    if (b[j] !== 0x22) return undefined;
    const from = j + 1;
    let to = from;
    for (let c = b[to] as number; c !== 0x22; c = b[++to] as number) if (c === 0x5c || !(c >= 0x20)) return undefined;
    j = ws(b, to + 1);
    if (b[j] !== 0x3a) return undefined;
    j = ws(b, j + 1);
    if (to - from === 10 && b[from] === 0x70 && named(b, from, 'properties')) {
      if (p !== undefined || b[j] !== 0x7b) return undefined;
      p = blank();
      readProperties(b, v, j, p, m);
      j = pos;
    } else j = skipPoint(b, v, j);
    if (j < 0) return undefined;
    j = ws(b, j);
    if (b[j] !== 0x2c && b[j] !== 0x7d) return undefined;
  }
  if (p === undefined) return undefined;
  pos = j + 1;
  return new ReadPoint(p);
}

/**
 * Reads the points of the reports in a chunk of a reply: load() the chunk, then read() at
 * each report's opening brace (the splitter's CutReader on the report path). The chunk is read
 * from a copy with zero bytes after it (padded-bytes.ts).
 */
export class PointReader implements CutReader {
  /** Where the last report read ended. */
  end = 0;
  private readonly padded = new PaddedBytes();
  /** The members of the last report read. */
  private readonly members = new Members();
  /** The reply's usual shape, tried first (report-point-shape.ts); none for a test's reader that compares the two ways. */
  private readonly shape: ShapePoints | undefined;

  constructor(shapes = true) {
    this.shape = shapes ? new ShapePoints() : undefined;
  }

  load(chunk: Buffer): void {
    this.members.keep();
    this.padded.load(chunk);
  }

  /** The point of the report whose opening brace is at `start` in the loaded chunk, or undefined: malformed, unusual or cut off (see above). */
  read(start: number): ReadPoint | undefined {
    const { bytes, view } = this.padded;
    const shape = this.shape;
    const shaped = shape?.read(bytes, view, start);
    if (shaped !== undefined) {
      this.end = (shape as ShapePoints).end;
      return new ReadPoint(shaped);
    }
    const point = readFeature(bytes, view, start, this.members);
    if (point === undefined) this.members.count = 0;
    else shape?.missed(bytes, start, pos);
    this.end = pos;
    return point;
  }
}
