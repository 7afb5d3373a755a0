/**
 * The bytes of a reply's usual report, as a template for the Parquet shape reader
 * (shape-reader.ts): learnt from one report, it holds that report's bytes between its values
 * (`{"type":"Feature","properties":{"aid":`, `,"did":`, …) and, for each value, the bytes the
 * learnt report had there and the cell they make. A report of the same shape is read by
 * comparing those bytes and reading only the values that differ from the learnt ones; no name
 * is looked up, no white space skipped, nothing allocated (a regular expression with a capture
 * per value found the values as fast, but its match and its captures were objects per report:
 * 100 MB more peak RSS a million reports).
 *
 * A template is only made from a report the general row reader (row-reader.ts) read, so every
 * member name in it is a known property, `properties` is one object and `geometry` is null or a
 * Point with two numbers; `type` and other top-level members hold scalars.
 */
import { PLAIN_NAME } from '../../api/feature-match.js';
import type { ParquetColumn } from './kinds.js';
import { Tag } from './row-reader.js';

/** How a value becomes a cell. Skip: a top-level member other than properties and geometry (checked, not written). */
export const enum Read { Double, Int64, Int32, Timestamp, Text, PointLng, PointLat, Skip }

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/** Whole seconds whose milliseconds an INT64 holds exactly (as columns.ts). */
const MAX_SECONDS = Number.MAX_SAFE_INTEGER / 1000;

/** The number cell of `v` read as `read` (timestamps in milliseconds), NaN where it does not fit (as row-reader.ts decides). */
export function numberCell(read: Read, v: number): number {
  if (!Number.isFinite(v)) return NaN;
  if (read === Read.Int64) return Number.isSafeInteger(v) ? v : NaN;
  if (read === Read.Int32) return Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX ? v : NaN;
  if (read === Read.Timestamp) return Math.abs(v) <= MAX_SECONDS ? Math.round(v * 1000) : NaN;
  return v;
}

/**
 * The template: bytes[at[2k], at[2k + 1]) stand before value k, bytes[at[2k + 1], at[2k + 2]) are
 * the learnt report's value k (none when it is read each time), bytes[at[2n], end) close the
 * report. Per value: how it is read, its column and the learnt cell.
 */
export interface ShapePlan {
  readonly bytes: Uint8Array;
  /** The same bytes, read eight at a time. */
  readonly view: DataView;
  readonly at: Int32Array;
  readonly reads: Int8Array;
  readonly columns: Int8Array;
  readonly tags: Uint8Array;
  readonly numbers: Float64Array;
  readonly texts: readonly string[];
  /** The shape has a Point geometry: its coordinates are placed in lat/lng. */
  readonly point: boolean;
}

/** Printable ASCII but the quote and the backslash: a string whose JSON text is its characters in quotes. */
const ASCII_STRING = /^[\x20\x21\x23-\x5b\x5d-\x7f]*$/;
const NUMERIC: Readonly<Record<string, Read>> = { double: Read.Double, int64: Read.Int64, int32: Read.Int32, timestamp: Read.Timestamp };

/** A template being built. */
class Builder {
  private text = '';
  private readonly at: number[] = [0];
  private readonly reads: Read[] = [];
  private readonly columns: number[] = [];
  private readonly tags: Tag[] = [];
  private readonly numbers: number[] = [];
  private readonly texts: string[] = [];

  /** Bytes of the template (ASCII: names are plain). */
  lit(text: string): void {
    this.text += text;
  }

  /** A value read as `read` into column `col` that was `v` in the learnt report; false when `v` cannot be one. */
  value(read: Read, col: number, v: unknown): boolean {
    let cell: { tag: Tag; number: number; text: string } | undefined;
    let sent = '';
    if (v === null) [cell, sent] = [{ tag: Tag.Null, number: 0, text: '' }, 'null'];
    else if (typeof v === 'object') return false;
    else if (read === Read.Skip) sent = typeof v !== 'string' ? String(v) : ASCII_STRING.test(v) ? `"${v}"` : ''; // checked, never a cell
    else if (read === Read.PointLng || read === Read.PointLat) sent = ''; // read each time: a track's coordinates change from report to report
    else if (Object.is(v, -0)) sent = ''; // sent as `0` it is 0: not the learnt cell
    else if (typeof v === 'number') {
      const number = read === Read.Text ? v : numberCell(read, v);
      if (Number.isNaN(number)) return false;
      [cell, sent] = [read === Read.Text ? { tag: Tag.Text, number: 0, text: String(v) } : { tag: Tag.Number, number, text: '' }, JSON.stringify(v)];
    } else if (read !== Read.Text) return false; // the general reader reads nothing but numbers and null in a number column
    else if (typeof v === 'boolean') [cell, sent] = [{ tag: Tag.Text, number: 0, text: String(v) }, String(v)];
    else if (typeof v === 'string' && ASCII_STRING.test(v)) [cell, sent] = [{ tag: Tag.Text, number: 0, text: v }, `"${v}"`];
    this.at.push(this.text.length);
    this.text += sent;
    this.at.push(this.text.length);
    this.reads.push(read);
    this.columns.push(col);
    this.tags.push(cell?.tag ?? Tag.Absent);
    this.numbers.push(cell?.number ?? 0);
    this.texts.push(cell?.text ?? '');
    return true;
  }

  plan(point: boolean): ShapePlan {
    const bytes = Buffer.from(this.text, 'latin1');
    return {
      bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.length), at: Int32Array.from(this.at), reads: Int8Array.from(this.reads), columns: Int8Array.from(this.columns),
      tags: Uint8Array.from(this.tags), numbers: Float64Array.from(this.numbers), texts: this.texts, point,
    };
  }
}

/** The template of reports shaped like `feature` (a parsed report the general reader read), or undefined when it has none. */
export function shapePlan(feature: unknown, columns: readonly ParquetColumn[]): ShapePlan | undefined {
  if (typeof feature !== 'object' || feature === null || Array.isArray(feature)) return undefined;
  const b = new Builder();
  let point = false;
  let properties = false;
  let first = true;
  for (const [name, v] of Object.entries(feature)) {
    if (!PLAIN_NAME.test(name)) return undefined;
    b.lit(`${first ? '{' : ','}"${name}":`);
    first = false;
    if (name === 'properties') {
      if (!propertiesTemplate(b, v, columns)) return undefined;
      properties = true;
    } else if (name === 'geometry') {
      if (!geometryTemplate(b, v, columns)) return undefined;
      point = v !== null;
    } else if (!b.value(Read.Skip, -1, v)) return undefined;
  }
  if (!properties) return undefined;
  b.lit('}');
  return b.plan(point);
}

function propertiesTemplate(b: Builder, props: unknown, columns: readonly ParquetColumn[]): boolean {
  if (typeof props !== 'object' || props === null || Array.isArray(props)) return false;
  b.lit('{');
  let first = true;
  for (const [name, v] of Object.entries(props)) {
    const col = columns.findIndex((c) => c.name === name);
    if (col < 0 || !PLAIN_NAME.test(name)) return false; // a property the interface does not name goes to extra
    b.lit(`${first ? '' : ','}"${name}":`);
    first = false;
    if (!b.value(NUMERIC[columns[col]!.kind] ?? Read.Text, col, v)) return false;
  }
  b.lit('}');
  return true;
}

function geometryTemplate(b: Builder, g: unknown, columns: readonly ParquetColumn[]): boolean {
  if (g === null) {
    b.lit('null');
    return true;
  }
  const { type, coordinates } = g as { type?: unknown; coordinates?: unknown };
  const keys = Object.keys(g as object);
  if (keys.length !== 2 || keys[0] !== 'type' || keys[1] !== 'coordinates' || type !== 'Point') return false;
  if (!Array.isArray(coordinates) || coordinates.length !== 2) return false;
  b.lit('{"type":"Point","coordinates":[');
  if (!b.value(Read.PointLng, columns.findIndex((c) => c.name === 'lng'), coordinates[0])) return false;
  b.lit(',');
  if (!b.value(Read.PointLat, columns.findIndex((c) => c.name === 'lat'), coordinates[1])) return false;
  b.lit(']}');
  return true;
}
