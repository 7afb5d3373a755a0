/**
 * The expression of a reply's usual report for the Parquet shape reader (shape-reader.ts):
 * learnt from one report, it spells out that report's member names in their order, compact,
 * with ONE CAPTURE PER VALUE the row needs, so that a report of the same shape is checked and
 * its values found in one native match. Each capture is read into its column as the plan says.
 * A value the same as the learnt report's (a unit's name, its account, the type) is tried first
 * as it was sent and captures nothing: its cell is the learnt one, with no text or number to read.
 *
 * The expression only matches what the general row reader (row-reader.ts) reads the same way
 * and without `extra`, value by value:
 * - a number column: a JSON number (kept only when it fits the column: the reader checks) or null;
 * - a text column: a string of printable ASCII without escapes (its latin1 text is its UTF-8
 *   text), a number, true, false or null;
 * - `geometry`: null, or exactly `{"type":"Point","coordinates":[lng,lat]}`;
 * - other members: any scalar.
 * Anything else (an escape, non-ASCII text, white space, another order, a member more or less)
 * does not match, and the report is read by the general reader.
 */
import { NUMBER, PLAIN_NAME, SCALAR } from '../../api/feature-match.js';
import type { ParquetColumn } from './kinds.js';
import { Tag } from './row-reader.js';

/** How a value becomes a cell. */
export const enum Read { Double, Int64, Int32, Timestamp, Text, PointLng, PointLat }

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

/** Per value of the shape (index v): how it is read, into which column, from which captures, and the learnt cell. */
export interface ShapePlan {
  /** Sticky. */
  readonly re: RegExp;
  readonly reads: Int8Array;
  readonly columns: Int8Array;
  /** The capture of a value other than the learnt one (0: none); of a text column, a string's content. */
  readonly valueGroups: Int16Array;
  /** Of a text column: the capture of a number, true or false, whose text is the cell (0: none). */
  readonly scalarGroups: Int16Array;
  /** The capture that is there when the value is null where the learnt one was not (0: none). */
  readonly nullGroups: Int16Array;
  /** The learnt cell, for a value matched as it was sent. */
  readonly tags: Uint8Array;
  readonly numbers: Float64Array;
  readonly texts: readonly string[];
  /** The shape has a Point geometry: its coordinates are placed in lat/lng. */
  readonly point: boolean;
}

/** Printable ASCII but the quote and the backslash: text whose bytes are its characters. */
const ASCII_TEXT = '[\\x20\\x21\\x23-\\x5b\\x5d-\\x7f]*';
const ASCII_STRING = /^[\x20\x21\x23-\x5b\x5d-\x7f]*$/;
const NUMERIC: Readonly<Record<string, Read>> = { double: Read.Double, int64: Read.Int64, int32: Read.Int32, timestamp: Read.Timestamp };
const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** A plan being built. */
class Builder {
  groups = 0;
  readonly reads: Read[] = [];
  readonly columns: number[] = [];
  readonly valueGroups: number[] = [];
  readonly scalarGroups: number[] = [];
  readonly nullGroups: number[] = [];
  readonly tags: Tag[] = [];
  readonly numbers: number[] = [];
  readonly texts: string[] = [];

  /** A value read as `read` into column `col`, learnt as `v`: its expression. */
  value(read: Read, col: number, v: unknown): string | undefined {
    let cell: { tag: Tag; number: number; text: string } | undefined;
    let sent: string | undefined;
    if (v === null) [cell, sent] = [{ tag: Tag.Null, number: 0, text: '' }, 'null'];
    else if (read === Read.PointLng || read === Read.PointLat) cell = undefined; // a track's coordinates change from report to report
    else if (Object.is(v, -0)) cell = undefined; // sent as `0` it is 0: not the learnt cell
    else if (typeof v === 'number') {
      const number = read === Read.Text ? v : numberCell(read, v);
      if (Number.isNaN(number)) return undefined;
      [cell, sent] = [read === Read.Text ? { tag: Tag.Text, number: 0, text: String(v) } : { tag: Tag.Number, number, text: '' }, literal(JSON.stringify(v))];
    } else if (typeof v === 'boolean') [cell, sent] = [{ tag: Tag.Text, number: 0, text: String(v) }, String(v)];
    else if (typeof v === 'string' && ASCII_STRING.test(v)) [cell, sent] = [{ tag: Tag.Text, number: 0, text: v }, `"${literal(v)}"`];
    const nullGroup = cell !== undefined && cell.tag !== Tag.Null ? ++this.groups : 0;
    const valueGroup = ++this.groups;
    const scalarGroup = read === Read.Text ? ++this.groups : 0;
    this.scalarGroups.push(scalarGroup);
    this.reads.push(read);
    this.columns.push(col);
    this.nullGroups.push(nullGroup);
    this.valueGroups.push(valueGroup);
    this.tags.push(cell?.tag ?? Tag.Absent);
    this.numbers.push(cell?.number ?? 0);
    this.texts.push(cell?.text ?? '');
    const first = sent === undefined ? '' : `${sent}|`;
    const general = read === Read.Text ? `"(${ASCII_TEXT})"|(${NUMBER}|true|false)` : `(${NUMBER})`;
    return `(?:${first}${nullGroup > 0 ? '(n)ull|' : ''}${general})`;
  }

  plan(source: string, point: boolean): ShapePlan {
    return {
      re: new RegExp(source, 'y'), reads: Int8Array.from(this.reads), columns: Int8Array.from(this.columns), valueGroups: Int16Array.from(this.valueGroups),
      scalarGroups: Int16Array.from(this.scalarGroups),       nullGroups: Int16Array.from(this.nullGroups), tags: Uint8Array.from(this.tags), numbers: Float64Array.from(this.numbers), texts: this.texts, point,
    };
  }
}

/** Compiled plans, by source: a reply has one or a few. */
const plans = new Map<string, ShapePlan>();
const MAX_PLANS = 16;

/** The plan for reports shaped like `feature` (a parsed report the general reader read), or undefined when it has no such plan. */
export function shapePlan(feature: unknown, columns: readonly ParquetColumn[]): ShapePlan | undefined {
  if (typeof feature !== 'object' || feature === null || Array.isArray(feature)) return undefined;
  const b = new Builder();
  const parts: string[] = [];
  let point = false;
  let properties = false;
  for (const [name, v] of Object.entries(feature)) {
    if (!PLAIN_NAME.test(name)) return undefined;
    let source: string | undefined;
    if (name === 'properties') {
      source = propertiesSource(b, v, columns);
      properties = true;
    } else if (name === 'geometry') {
      source = geometrySource(b, v, columns);
      point = v !== null;
    } else if (v === null || typeof v !== 'object') source = `(?:${SCALAR})`;
    if (source === undefined) return undefined;
    parts.push(`"${name}":${source}`);
  }
  if (!properties) return undefined;
  const source = `\\{${parts.join(',')}\\}`;
  let plan = plans.get(source);
  if (plan === undefined) {
    if (plans.size >= MAX_PLANS) plans.delete(plans.keys().next().value as string);
    plans.set(source, (plan = b.plan(source, point)));
  }
  return plan;
}

function propertiesSource(b: Builder, props: unknown, columns: readonly ParquetColumn[]): string | undefined {
  if (typeof props !== 'object' || props === null || Array.isArray(props)) return undefined;
  const members: string[] = [];
  for (const [name, v] of Object.entries(props)) {
    const col = columns.findIndex((c) => c.name === name);
    if (col < 0 || !PLAIN_NAME.test(name)) return undefined; // a property the interface does not name goes to extra
    const source = b.value(NUMERIC[columns[col]!.kind] ?? Read.Text, col, v);
    if (source === undefined) return undefined;
    members.push(`"${name}":${source}`);
  }
  return `\\{${members.join(',')}\\}`;
}

function geometrySource(b: Builder, g: unknown, columns: readonly ParquetColumn[]): string | undefined {
  if (g === null) return 'null';
  const { type, coordinates } = g as { type?: unknown; coordinates?: unknown };
  const keys = Object.keys(g as object);
  if (keys.length !== 2 || keys[0] !== 'type' || keys[1] !== 'coordinates' || type !== 'Point') return undefined;
  if (!Array.isArray(coordinates) || coordinates.length !== 2 || !coordinates.every((c) => typeof c === 'number')) return undefined;
  const lng = b.value(Read.PointLng, columns.findIndex((c) => c.name === 'lng'), coordinates[0]);
  const lat = b.value(Read.PointLat, columns.findIndex((c) => c.name === 'lat'), coordinates[1]);
  return `\\{"type":"Point","coordinates":\\[${lng},${lat}\\]\\}`;
}
