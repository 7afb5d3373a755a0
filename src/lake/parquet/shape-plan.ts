/**
 * The expression of a reply's usual report for the Parquet shape reader (shape-reader.ts):
 * learnt from one report, it spells out that report's member names in their order, compact,
 * with ONE CAPTURE PER VALUE the row needs, so that a report of the same shape is checked and
 * its values found in one native match. Each capture is read into its column as the plan says.
 *
 * The expression only matches what the general row reader (row-reader.ts) reads the same way
 * and without `extra`, value by value:
 * - a number column: a JSON number (kept only when it fits the column: the reader checks) or null;
 * - a text column: the kind of value the learnt report had there, or null: a string of printable
 *   ASCII without escapes (its latin1 text is its UTF-8 text), or a number, or true/false;
 * - `geometry`: null, or exactly `{"type":"Point","coordinates":[lng,lat]}`;
 * - other members: any scalar.
 * Anything else (an escape, non-ASCII text, white space, another order, a member more or less)
 * does not match, and the report is read by the general reader.
 */
import { NUMBER, PLAIN_NAME, SCALAR } from '../../api/feature-match.js';
import type { ParquetColumn } from './kinds.js';

/** How a capture becomes a cell. */
export const enum Read { Double, Int64, Int32, Timestamp, Text, NumberText, WordText, PointLng, PointLat }

export interface ShapePlan {
  /** Sticky; capture k (from 1) is read as reads[k] into column columns[k]. */
  readonly re: RegExp;
  readonly reads: Int8Array;
  readonly columns: Int8Array;
  /** The shape has a Point geometry: its coordinates are placed in lat/lng. */
  readonly point: boolean;
}

/** Printable ASCII but the quote and the backslash: text whose bytes are its characters. */
const ASCII_TEXT = '[\\x20\\x21\\x23-\\x5b\\x5d-\\x7f]*';
const NUMBER_OR_NULL = `(?:(${NUMBER})|null)`;
const NUMERIC: Readonly<Record<string, Read>> = { double: Read.Double, int64: Read.Int64, int32: Read.Int32, timestamp: Read.Timestamp };

/** Compiled plans, by source: a reply has one or a few. */
const plans = new Map<string, ShapePlan>();
const MAX_PLANS = 16;

/** The plan for reports shaped like `feature` (a parsed report), or undefined when it has no such plan. */
export function shapePlan(feature: unknown, columns: readonly ParquetColumn[]): ShapePlan | undefined {
  if (typeof feature !== 'object' || feature === null || Array.isArray(feature)) return undefined;
  const reads: Read[] = [0];
  const cols: number[] = [-1];
  const parts: string[] = [];
  let point = false;
  let properties = false;
  for (const [name, v] of Object.entries(feature)) {
    if (!PLAIN_NAME.test(name)) return undefined;
    let source: string | undefined;
    if (name === 'properties') {
      source = propertiesSource(v, columns, reads, cols);
      properties = true;
    } else if (name === 'geometry') {
      source = geometrySource(v, columns, reads, cols);
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
    plan = { re: new RegExp(source, 'y'), reads: Int8Array.from(reads), columns: Int8Array.from(cols), point };
    plans.set(source, plan);
  }
  return plan;
}

function propertiesSource(props: unknown, columns: readonly ParquetColumn[], reads: Read[], cols: number[]): string | undefined {
  if (typeof props !== 'object' || props === null || Array.isArray(props)) return undefined;
  const members: string[] = [];
  for (const [name, v] of Object.entries(props)) {
    const col = columns.findIndex((c) => c.name === name);
    if (col < 0 || !PLAIN_NAME.test(name)) return undefined; // a property the interface does not name goes to extra
    const numeric = NUMERIC[columns[col]!.kind];
    let source: string;
    let read: Read;
    if (numeric !== undefined) [source, read] = [NUMBER_OR_NULL, numeric];
    else if (typeof v === 'number') [source, read] = [NUMBER_OR_NULL, Read.NumberText];
    else if (typeof v === 'boolean') [source, read] = ['(?:(true|false)|null)', Read.WordText];
    else if (typeof v === 'string' || v === null) [source, read] = [`(?:"(${ASCII_TEXT})"|null)`, Read.Text];
    else return undefined;
    members.push(`"${name}":${source}`);
    reads.push(read);
    cols.push(col);
  }
  return `\\{${members.join(',')}\\}`;
}

function geometrySource(g: unknown, columns: readonly ParquetColumn[], reads: Read[], cols: number[]): string | undefined {
  if (g === null) return 'null';
  const { type, coordinates } = g as { type?: unknown; coordinates?: unknown };
  const keys = Object.keys(g as object);
  if (keys.length !== 2 || keys[0] !== 'type' || keys[1] !== 'coordinates' || type !== 'Point') return undefined;
  if (!Array.isArray(coordinates) || coordinates.length !== 2 || !coordinates.every((c) => typeof c === 'number')) return undefined;
  reads.push(Read.PointLng, Read.PointLat);
  cols.push(columns.findIndex((c) => c.name === 'lng'), columns.findIndex((c) => c.name === 'lat'));
  return `\\{"type":"Point","coordinates":\\[(${NUMBER}),(${NUMBER})\\]\\}`;
}
