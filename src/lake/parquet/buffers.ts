/**
 * A row group being gathered: each report appended as one row of typed cells per column
 * (columns.ts), from the cells its cut reader read (cut-reader.ts) or from its parsed feature.
 */
import type { HistoryItem } from '../../api/history.js';
import { Report } from '../../api/report-item.js';
import { CutRow, Tag, type LearntCells } from './cells.js';
import { featureCells, PARQUET_COLUMNS, REPORT_COLUMNS, type Cell, type ColumnKind } from './columns.js';

/**
 * One column of a row group being gathered: typed, so that neither the values nor the
 * nulls are objects of their own (boxed cells were most of the garbage collector's work).
 */
export interface BufferedColumn {
  readonly kind: ColumnKind;
  /** Per row: 1 where the row has a value, 0 where it is null (the Parquet definition level). */
  defs: Uint8Array;
  /** The values of the rows that have one, in row order: numeric kinds here (int64 as exact integers, timestamps in milliseconds)… */
  numbers: Float64Array;
  /** …and text here. */
  strings: string[];
  /** How many of the rows have a value. */
  count: number;
  /** Every row holds the same cell (ColumnBuffers.settle): the encoder need not look at each. */
  uniform: boolean;
}

const INITIAL_ROWS = 1024;

function column(kind: ColumnKind): BufferedColumn {
  return { kind, defs: new Uint8Array(INITIAL_ROWS), numbers: new Float64Array(kind === 'string' ? 0 : INITIAL_ROWS), strings: [], count: 0, uniform: false };
}

/** How a column of the row group being gathered holds its cells so far. */
const enum Mode {
  /** One cell for every row so far (constants below), not yet written out: a unit's id, its name, the usual type. */
  Constant,
  /** Each row's cell written (BufferedColumn). */
  Rows,
}

/**
 * Column buffers for up to one row group: each report is appended as one row, typed per
 * PARQUET_COLUMNS. They start small (many files of an --out-dir are small) and double as
 * rows come; clear() empties them for the next row group and keeps the memory.
 *
 * Most columns of a unit's reports hold one value all through a row group (its id, name and
 * type; the address while parked). A column keeps that cell once, as a constant, until a row
 * differs; then the run is written out (fill()) and its rows written one by one. A row read by
 * the reply's usual shape (CutRow, cut-reader.ts) is compared only where it differs from the
 * learnt report: every constant column is held to the learnt cell, so the rest agree.
 * settle() writes out the constants before the row group is encoded.
 */
export class ColumnBuffers {
  readonly columns: readonly BufferedColumn[] = PARQUET_COLUMNS.map((c) => column(c.kind));
  rows = 0;
  private readonly modes = new Uint8Array(PARQUET_COLUMNS.length);
  /** A constant column's cell. */
  private readonly constTags = new Uint8Array(PARQUET_COLUMNS.length);
  private readonly constNumbers = new Float64Array(PARQUET_COLUMNS.length);
  private readonly constTexts: string[] = PARQUET_COLUMNS.map(() => '');
  /** The columns whose rows are written, the first `written` of these. */
  private readonly writing = new Int8Array(PARQUET_COLUMNS.length);
  private written = 0;
  /** The learnt cells the constant columns are held to (none since they were set). */
  private agreed: LearntCells | undefined;
  /** Per report column, where a row read by a shape has its own cell in its block (-1: the learnt cell), while it is appended. */
  private readonly slots = new Int32Array(REPORT_COLUMNS.length).fill(-1);

  /**
   * A report whose cells were read as it was cut (CutRow) is appended from them; any other
   * (one the cut reader left to the splitter, or a report made any other way) from its parsed
   * feature. Both give the same row.
   */
  append(item: HistoryItem): void {
    if (this.rows === this.columns[0]!.defs.length) this.grow();
    const row = item instanceof Report ? item.read : undefined;
    if (row instanceof CutRow) this.appendRow(row);
    else this.appendFeature(item);
    this.rows++;
  }

  private appendRow(row: CutRow): void {
    const { block, at, count, learnt } = row;
    const n = REPORT_COLUMNS.length;
    if (learnt === undefined) {
      // every column's cell, as the member reader read them
      for (let k = at; k < at + count; k++) this.cell(block.columns[k] as number, block.tags[k] as number, block.numbers[k] as number, block.text(k));
      this.cell(n, Tag.Null, 0, '');
      return;
    }
    // Where the row's own cells lie in the block, by column (the learnt cell's where none).
    const { slots } = this;
    const { columns: cols, tags, numbers } = block;
    if (this.rows === 0) {
      for (let d = 0; d < count; d++) slots[cols[at + d] as number] = at + d;
      for (let i = 0; i < n; i++) {
        const k = slots[i] as number;
        if (k < 0) this.cell(i, learnt.tags[i] as number, learnt.numbers[i] as number, learnt.texts[i] as string);
        else this.cell(i, tags[k] as number, numbers[k] as number, block.text(k));
      }
      this.cell(n, Tag.Null, 0, '');
    } else {
      if (learnt !== this.agreed) this.agree(learnt);
      // Only the cells that differ from the learnt ones may differ from a constant.
      for (let d = 0; d < count; d++) {
        const i = cols[at + d] as number;
        const k = at + d;
        slots[i] = k;
        if (this.modes[i] === Mode.Constant && !this.same(i, tags[k] as number, numbers[k] as number, block.text(k))) this.writeOut(i);
      }
      const r = this.rows;
      const { writing, columns } = this;
      for (let w = 0; w < this.written; w++) {
        const i = writing[w] as number;
        const k = i < n ? (slots[i] as number) : -2;
        if (k >= 0) write(columns[i]!, r, tags[k] as number, numbers[k] as number, block.text(k));
        else if (k === -1) write(columns[i]!, r, learnt.tags[i] as number, learnt.numbers[i] as number, learnt.texts[i] as string);
        else columns[i]!.defs[r] = 0; // extra
      }
    }
    for (let d = 0; d < count; d++) slots[cols[at + d] as number] = -1;
  }

  /** Every constant column held to the learnt cells (extra's is null): one that differs is written out. */
  private agree(learnt: LearntCells): void {
    for (let i = 0; i < PARQUET_COLUMNS.length; i++) {
      if (this.modes[i] !== Mode.Constant) continue;
      const same = i < REPORT_COLUMNS.length ? this.same(i, learnt.tags[i] as number, learnt.numbers[i] as number, learnt.texts[i] as string) : this.same(i, Tag.Null, 0, '');
      if (!same) this.writeOut(i);
    }
    this.agreed = learnt;
  }

  /** Column i's cell of the row being appended. */
  private cell(i: number, tag: number, number: number, text: string): void {
    if (this.rows === 0) {
      // the first row of the group: every column starts as its cell
      this.modes[i] = Mode.Constant;
      this.constTags[i] = tag === Tag.Absent ? Tag.Null : tag;
      this.constNumbers[i] = number;
      this.constTexts[i] = text;
      this.agreed = undefined;
      return;
    }
    if (this.modes[i] === Mode.Constant) {
      if (this.same(i, tag, number, text)) return;
      this.writeOut(i);
    }
    write(this.columns[i]!, this.rows, tag, number, text);
  }

  /** Whether a cell is constant column i's (a number as Object.is compares it: -0 is not 0; cells are never NaN). */
  private same(i: number, tag: number, number: number, text: string): boolean {
    const t = this.constTags[i];
    if (tag === Tag.Number) {
      const c = this.constNumbers[i] as number;
      return t === Tag.Number && number === c && (number !== 0 || 1 / number === 1 / c);
    }
    if (tag === Tag.Text) return t === Tag.Text && text === this.constTexts[i];
    return t === Tag.Null;
  }

  /** Constant column i's rows so far written out as cells, and its rows from now on one by one. */
  private writeOut(i: number): void {
    const c = this.columns[i]!;
    const rows = this.rows;
    const tag = this.constTags[i];
    if (tag === Tag.Null) c.defs.fill(0, 0, rows);
    else {
      c.defs.fill(1, 0, rows);
      if (tag === Tag.Number) c.numbers.fill(this.constNumbers[i] as number, 0, rows);
      else c.strings = new Array<string>(rows).fill(this.constTexts[i] as string);
      c.count = rows;
    }
    this.modes[i] = Mode.Rows;
    this.writing[this.written++] = i;
  }

  private appendFeature(item: HistoryItem): void {
    featureCells(item, this.put);
  }

  /** A parsed report's cell of column i (one function for every report: a lake's parts are all made so). */
  private readonly put = (i: number, cell: Cell): void => {
    if (cell === null) this.cell(i, Tag.Null, 0, '');
    else if (typeof cell === 'string') this.cell(i, Tag.Text, 0, cell);
    else this.cell(i, Tag.Number, cell, '');
  };

  /** Every column's cells written out (the constants'), for the row group's encoding. */
  settle(): void {
    if (this.rows === 0) return;
    for (let i = 0; i < PARQUET_COLUMNS.length; i++) {
      if (this.modes[i] !== Mode.Constant) continue;
      this.writeOut(i);
      this.columns[i]!.uniform = true;
    }
  }

  /** Empties the buffers (their row group is written), keeping their memory for the next. */
  clear(): void {
    this.rows = 0;
    this.written = 0;
    this.agreed = undefined;
    for (const c of this.columns) {
      c.count = 0;
      c.strings.length = 0;
      c.uniform = false;
    }
  }

  private grow(): void {
    for (const c of this.columns) {
      const defs = new Uint8Array(c.defs.length * 2);
      defs.set(c.defs);
      c.defs = defs;
      if (c.kind !== 'string') {
        const numbers = new Float64Array(c.numbers.length * 2);
        numbers.set(c.numbers);
        c.numbers = numbers;
      }
    }
  }
}

/** A cell of row `row` written to column c. */
function write(c: BufferedColumn, row: number, tag: number, number: number, text: string): void {
  if (tag === Tag.Number) {
    c.defs[row] = 1;
    c.numbers[c.count++] = number;
  } else if (tag === Tag.Text) {
    c.defs[row] = 1;
    c.strings.push(text);
    c.count++;
  } else c.defs[row] = 0;
}
