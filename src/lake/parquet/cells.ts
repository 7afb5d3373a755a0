/**
 * A report's cells as the byte readers give them (row-reader.ts member by member,
 * shape-reader.ts by the reply's usual shape): per report column a tag, a number and a text,
 * overwritten by each report read. What fits a column is decided here once, for both readers,
 * as columns.ts decides it for a parsed report (a value that does not fit goes to `extra`, which
 * only the parsed path writes).
 */
import type { ColumnKind } from './kinds.js';

/** What a cell of the row read holds. */
export const enum Tag { Absent, Null, Number, Text }

/** How a value becomes a cell: a number column's type, or text. */
export const enum Read { Double, Int64, Int32, Timestamp, Text }

export const READ_OF_KIND: Readonly<Record<ColumnKind, Read>> = { double: Read.Double, int64: Read.Int64, int32: Read.Int32, timestamp: Read.Timestamp, string: Read.Text };

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/** Whole seconds whose milliseconds an INT64 holds exactly (as columns.ts). */
const MAX_SECONDS = Number.MAX_SAFE_INTEGER / 1000;

/** The cell of the number `v` in a number column read as `read` (timestamps in milliseconds), NaN where it does not fit. */
export function numberCell(read: Read, v: number): number {
  if (!Number.isFinite(v)) return NaN;
  if (read === Read.Int64) return Number.isSafeInteger(v) ? v : NaN;
  if (read === Read.Int32) return Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX ? v : NaN;
  if (read === Read.Timestamp) return Math.abs(v) <= MAX_SECONDS ? Math.round(v * 1000) : NaN;
  return v;
}

/**
 * Each text column's last ASCII text: the same bytes give back the same string (a unit's name,
 * the type, an address while parked), so a row group holds one string for a run of them and a
 * report makes none.
 */
export class LastTexts {
  private readonly last: string[];

  constructor(columns: number) {
    this.last = Array.from({ length: columns }, () => '');
  }

  /** The ASCII text of the bytes b[from, to) as column `col`'s cell. */
  text(b: Buffer, from: number, to: number, col: number): string {
    const last = this.last[col]!;
    const n = to - from;
    if (last.length === n) {
      let k = 0;
      while (k < n && last.charCodeAt(k) === b[from + k]) k++;
      if (k === n) return last;
    }
    return (this.last[col] = b.toString('latin1', from, to));
  }
}

/** The cells of the report a shape was learnt from (shape-reader.ts): one object per shape learnt. */
export interface LearntCells {
  readonly tags: Uint8Array;
  readonly numbers: Float64Array;
  readonly texts: string[];
}

/**
 * Cells kept for many reports, side by side: a report's are `count` from `at`, each with its
 * column. A text cell's number is where its text is in `texts` (most cells are numbers).
 */
export class CellBlock {
  static readonly SIZE = 1 << 16;
  readonly columns = new Int8Array(CellBlock.SIZE);
  readonly tags = new Uint8Array(CellBlock.SIZE);
  readonly numbers = new Float64Array(CellBlock.SIZE);
  readonly texts: string[] = [];
  used = 0;

  /** Cell k's text ('' unless it is a text cell). */
  text(k: number): string {
    return this.tags[k] === Tag.Text ? (this.texts[this.numbers[k] as number] as string) : '';
  }
}

/**
 * A report's row as the cut reader read it (cut-reader.ts), kept with the report until its row
 * is appended: by the reply's usual shape, the learnt cells and the cells that differ from them;
 * otherwise (learnt undefined) every report column's cell.
 */
export class CutRow {
  constructor(
    readonly block: CellBlock,
    readonly at: number,
    readonly count: number,
    readonly learnt: LearntCells | undefined,
  ) {}
}
