/**
 * The bytes of a reply's usual report, as a template to read the next reports by: learnt from
 * one report (parsed), it holds that report's bytes between its values (`{"type":"Feature",
 * "properties":{"aid":`, `,"did":`, …) and, for each value, the bytes the learnt report had there
 * (when its reader wants them learnt). A report of the same shape is read by comparing its bytes
 * with the template's, many at a time, and reading only the values that differ from the learnt
 * ones: no name is looked up, no white space skipped. What a value is (a cell, a point's member)
 * is the reader's: the report point reader (report-point-shape.ts) and the Parquet shape reader
 * (lake/parquet/shape-reader.ts) build on this module.
 *
 * Only a compact report (no white space) with plain member names and `properties` an object has
 * a template; a point geometry of two numbers is template bytes around its coordinates, any
 * other geometry a top-level value. Only scalars are learnt (sentOf); the template's bytes are
 * ASCII and hold no zero byte (see equalBytes).
 */

/** Where a value stands: a top-level member other than properties and geometry, a property, the point's coordinates. */
export const enum Slot { Top, Property, PointLng, PointLat }

export interface JsonShape {
  /**
   * bytes[at[2k], at[2k + 1]) stand before value k, bytes[at[2k + 1], at[2k + 2]) are the learnt
   * report's value k as sent (none when it is not learnt), bytes[at[2n], size) close the report.
   */
  readonly bytes: Buffer;
  readonly view: DataView;
  readonly size: number;
  readonly at: Int32Array;
  readonly slots: readonly Slot[];
  /** Each value's member name (the point's coordinates: `coordinates`). */
  readonly names: readonly string[];
}

/** What a template's reader takes: which properties may stand in it, which values are learnt. */
export interface ShapeRules {
  property(name: string): boolean;
  /** Whether value `v` of the learnt report is learnt (its bytes in the template), or read each time (false), or has no place (undefined: no template). */
  learn(slot: Slot, name: string, v: unknown): boolean | undefined;
}

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Printable ASCII but the quote and the backslash: a string whose JSON text is its characters in quotes. */
const ASCII_STRING = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** The JSON text of `v` that reads back as `v` exactly, or '' when there is none this simple (-0 is sent as 0, which reads as 0). */
export function sentOf(v: unknown): string {
  if (v === null || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0) ? JSON.stringify(v) : '';
  if (typeof v === 'string') return ASCII_STRING.test(v) ? `"${v}"` : '';
  return '';
}

/** A template being built. */
class Builder {
  text = '';
  readonly at: number[] = [0];
  readonly slots: Slot[] = [];
  readonly names: string[] = [];

  constructor(private readonly rules: ShapeRules) {}

  /** A value (false when it has no place). */
  value(slot: Slot, name: string, v: unknown): boolean {
    const learn = this.rules.learn(slot, name, v);
    if (learn === undefined) return false;
    this.slot(slot, name, learn ? sentOf(v) : '');
    return true;
  }

  /** A value's place, and its bytes when learnt ('' when not). */
  slot(slot: Slot, name: string, sent: string): void {
    this.at.push(this.text.length);
    this.text += sent;
    this.at.push(this.text.length);
    this.slots.push(slot);
    this.names.push(name);
  }
}

/** The template of reports shaped like `feature` (the parsed report), or undefined when it has none. */
export function jsonShape(feature: unknown, rules: ShapeRules): JsonShape | undefined {
  if (!isObject(feature)) return undefined;
  const b = new Builder(rules);
  let properties = false;
  let first = true;
  for (const [name, v] of Object.entries(feature)) {
    if (!PLAIN_NAME.test(name)) return undefined;
    b.text += `${first ? '{' : ','}"${name}":`;
    first = false;
    if (name === 'properties') {
      if (!propertiesTemplate(b, v, rules)) return undefined;
      properties = true;
    } else if (name !== 'geometry' || !pointTemplate(b, v, rules)) {
      if (!b.value(Slot.Top, name, v)) return undefined;
    }
  }
  if (!properties) return undefined;
  b.text += '}';
  const size = b.text.length;
  const bytes = Buffer.from(b.text, 'latin1');
  return { bytes, view: new DataView(bytes.buffer, bytes.byteOffset, size), size, at: Int32Array.from(b.at), slots: b.slots, names: b.names };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function propertiesTemplate(b: Builder, props: unknown, rules: ShapeRules): boolean {
  if (!isObject(props)) return false;
  b.text += '{';
  let first = true;
  for (const [name, v] of Object.entries(props)) {
    if (!PLAIN_NAME.test(name) || !rules.property(name)) return false;
    b.text += `${first ? '' : ','}"${name}":`;
    first = false;
    if (!b.value(Slot.Property, name, v)) return false;
  }
  b.text += '}';
  return true;
}

/** A point geometry of two numbers, as its bytes and two values; false for any other geometry (a top-level value). */
function pointTemplate(b: Builder, g: unknown, rules: ShapeRules): boolean {
  if (!isObject(g)) return false;
  const keys = Object.keys(g);
  if (keys.length !== 2 || keys[0] !== 'type' || keys[1] !== 'coordinates' || g.type !== 'Point') return false;
  const c = g.coordinates;
  if (!Array.isArray(c) || c.length !== 2 || typeof c[0] !== 'number' || typeof c[1] !== 'number') return false;
  const lng = rules.learn(Slot.PointLng, 'coordinates', c[0]);
  const lat = rules.learn(Slot.PointLat, 'coordinates', c[1]);
  if (lng === undefined || lat === undefined) return false;
  b.text += '{"type":"Point","coordinates":[';
  b.slot(Slot.PointLng, 'coordinates', lng ? sentOf(c[0]) : '');
  b.text += ',';
  b.slot(Slot.PointLat, 'coordinates', lat ? sentOf(c[1]) : '');
  b.text += ']}';
  return true;
}

/**
 * How many of the n bytes at i in v are those at o in w, from the first: sixteen at a time, then
 * eight, and where eight differ, the first that does from the lowest set bit of their exclusive
 * or (little-endian: the first byte is the lowest). Eight bytes of JSON text read as a double
 * are equal exactly when the bytes are: they hold no zero byte, so never ±0, and a NaN (bytes
 * 0x7f or 0xf0-0xff) is equal to nothing, which the exclusive or finds equal after all. A
 * template holds no zero byte, so a reader that keeps zero bytes after its own (at least eight)
 * is never read past them.
 */
export function equalBytes(v: DataView, i: number, w: DataView, o: number, n: number): number {
  let d = 0;
  for (;;) {
    while (d + 16 <= n && v.getFloat64(i + d, true) === w.getFloat64(o + d, true) && v.getFloat64(i + d + 8, true) === w.getFloat64(o + d + 8, true)) d += 16;
    while (d + 8 <= n && v.getFloat64(i + d, true) === w.getFloat64(o + d, true)) d += 8;
    if (d + 8 > n) break;
    const low = v.getInt32(i + d, true) ^ w.getInt32(o + d, true);
    if (low !== 0) return d + ((31 - Math.clz32(low & -low)) >> 3);
    const high = v.getInt32(i + d + 4, true) ^ w.getInt32(o + d + 4, true);
    if (high !== 0) return d + 4 + ((31 - Math.clz32(high & -high)) >> 3);
    d += 8; // a NaN's bytes, equal
  }
  while (d < n && v.getUint8(i + d) === w.getUint8(o + d)) d++;
  return d;
}

/**
 * A template that missed this many reports in a row is learnt again, from the next report read
 * the long way (the reply's reports changed shape). Not after so many misses in all: a report
 * read the long way is most often an unusual one, and a template learnt from it misses the usual.
 */
const RELEARN_AFTER = 64;
/** Templates replaced before they read RELEARN_AFTER reports: after this many, the reply has none worth learning. */
const MAX_FUTILE = 4;

/** What to do with the template after a report was read the long way. */
export const enum Learn { Keep, Learn, Drop }

/** When to learn a template: a reply's reports may change shape part-way, or keep changing (the Parquet shape reader counts misses in all). */
export class ShapeLearning {
  private untilLearn = 0;
  private hits = 0;
  private futile = 0;

  /** A report was read by the template. */
  hit(): void {
    this.hits++;
    this.untilLearn = RELEARN_AFTER;
  }

  /** A report was read the long way (`learnt`: a template is in use): what to do with the template. */
  missed(learnt: boolean): Learn {
    if (--this.untilLearn > 0) return Learn.Keep;
    const futile = learnt && this.hits < RELEARN_AFTER && ++this.futile > MAX_FUTILE;
    this.untilLearn = futile ? Infinity : RELEARN_AFTER;
    this.hits = 0;
    return futile ? Learn.Drop : Learn.Learn;
  }
}
