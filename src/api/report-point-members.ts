/**
 * What the point reader (report-point.ts) keeps of the report before, to read the next one by
 * comparison: where its members lay and what they held (Members); and the usual GeoJSON point
 * geometry, compared with its usual bytes four at a time (same), as a value (skipPoint) or as
 * the member after the properties (usualGeometryEnd).
 */
import type { ReportPoint } from './types.js';
import { numberEnd, readNumber, skipValue } from './json-bytes.js';

/** The most members of a report whose place is kept (a report with more reads the rest the long way). */
export const MAX_SHAPE = 64;

/** Where the members of the last report read lay, in `bytes` (their names' opening quotes), and what they held. */
export class Members {
  /** How many are known; 0 after a report that was not read to its end. */
  count = 0;
  bytes: Buffer = Buffer.alloc(0);
  view = new DataView(this.bytes.buffer);
  /** From the name's opening quote to the byte after the value, that byte included. */
  readonly start = new Int32Array(MAX_SHAPE);
  readonly length = new Int32Array(MAX_SHAPE);
  /** From the name's opening quote to the value (the name, the colon and the white space around it). */
  readonly name = new Int32Array(MAX_SHAPE);
  readonly field = new Uint8Array(MAX_SHAPE);
  /** The value read, for a wanted member. */
  readonly value: unknown[] = new Array(MAX_SHAPE).fill(undefined);
  /** Where the members are kept when the chunk that holds them is overwritten. */
  private spare = Buffer.alloc(1024);

  /** The chunk holding them is about to be overwritten: they are copied aside. */
  keep(): void {
    if (this.count === 0) return;
    const last = this.count - 1;
    const from = this.start[0] as number;
    const to = (this.start[last] as number) + (this.length[last] as number);
    if (this.spare.length < to - from) this.spare = Buffer.alloc(2 * (to - from));
    this.bytes.copy(this.spare, 0, from, to);
    for (let k = 0; k <= last; k++) (this.start[k] as number) -= from;
    this.bytes = this.spare;
    this.view = new DataView(this.spare.buffer, this.spare.byteOffset, this.spare.length);
  }
}

/** Whether the n bytes at i in v are those at o in w (n ≥ 4), four at a time, the last four overlapping. */
export function same(v: DataView, i: number, w: DataView, o: number, n: number): boolean {
  for (let k = 0; k + 4 < n; k += 4) if (v.getInt32(i + k, true) !== w.getInt32(o + k, true)) return false;
  return v.getInt32(i + n - 4, true) === w.getInt32(o + n - 4, true);
}

/** A GeoJSON point's geometry as services write it, up to its first coordinate; and as the member after a report's properties. */
const POINT = Buffer.from('{"type":"Point","coordinates":[');
const POINT_VIEW = new DataView(POINT.buffer, POINT.byteOffset, POINT.length);
const GEOMETRY = Buffer.from(`,"geometry":${POINT.toString()}`);
const GEOMETRY_VIEW = new DataView(GEOMETRY.buffer, GEOMETRY.byteOffset, GEOMETRY.length);

/** Past `lng,lat]}` at `i` (two numbers checked, no white space), or -1. */
function coordinatesEnd(b: Buffer, i: number): number {
  readNumber(b, i, false);
  const comma = numberEnd.at;
  if (comma < 0 || b[comma] !== 0x2c) return -1;
  readNumber(b, comma + 1, false);
  const end = numberEnd.at;
  return end > 0 && b[end] === 0x5d && b[end + 1] === 0x7d ? end + 2 : -1;
}

/**
 * Past the value at `j` (checked, not kept), or -1: skipValue, with a short way for the usual
 * `{"type":"Point","coordinates":[lng,lat]}` (a fifth of a report, every report), whose bytes
 * are compared with the usual ones and its two numbers checked; any other value goes the long way.
 */
export function skipPoint(b: Buffer, v: DataView, j: number): number {
  if (j + POINT.length <= b.length && same(v, j, POINT_VIEW, 0, POINT.length)) {
    const end = coordinatesEnd(b, j + POINT.length);
    if (end > 0) return end;
  }
  return skipValue(b, j, 1);
}

/** Past the usual `,"geometry":{"type":"Point","coordinates":[lng,lat]}` at `j` (its bytes compared, its numbers checked), or -1 when it is not that. */
export function usualGeometryEnd(b: Buffer, v: DataView, j: number): number {
  if (j + GEOMETRY.length > b.length || !same(v, j, GEOMETRY_VIEW, 0, GEOMETRY.length)) return -1;
  return coordinatesEnd(b, j + GEOMETRY.length);
}

/** New properties, every wanted member undefined until read (one shape for all). */
export function blank(): ReportPoint['properties'] {
  return {
    did: undefined, name: undefined, lat: undefined, lng: undefined, speed: undefined, date: undefined,
    odometer: undefined, address: undefined, reportType: undefined, reportValue: undefined, message: undefined,
  } as unknown as ReportPoint['properties'];
}

/** Sets the wanted member `field` (fieldOf of report-point-names.ts: 1 lat … 11 message, 0 none) of p. */
export function setField(p: ReportPoint['properties'], field: number, value: unknown): void {
  switch (field) {
    case 0:
      return;
    case 1:
      p.lat = value as number;
      return;
    case 2:
      p.lng = value as number;
      return;
    case 3:
      p.did = value as number;
      return;
    case 4:
      p.date = value as number;
      return;
    case 5:
      p.name = value as string;
      return;
    case 6:
      p.speed = value as number;
      return;
    case 7:
      p.address = value as string | null;
      return;
    case 8:
      p.odometer = value as number | null;
      return;
    case 9:
      p.reportType = value as string;
      return;
    case 10:
      p.reportValue = value as string;
      return;
    default:
      p.message = value as string;
  }
}
