/**
 * A report's Parquet cells read as the reply is cut (the splitter's CutReader, in place of its
 * checking expression: each byte is looked at once): by the reply's usual shape
 * (shape-reader.ts), else member by member (row-reader.ts). Both check what they read: a report
 * they accept is a JSON object whose `properties` is an object (test/unit/parquet-cut-reader.test.ts
 * holds them to JSON.parse on broken reports). Anything else is left to the splitter's scan and
 * parsed (buffers.ts appends its parsed feature).
 *
 * A report's cells are kept in blocks shared by many reports (CutRow): by the shape, only the
 * cells that differ from the learnt report's.
 */
import type { CutReader } from '../../api/history.js';
import { PaddedBytes } from '../../api/padded-bytes.js';
import { CellBlock, CutRow, Tag, type LearntCells } from './cells.js';
import { REPORT_COLUMNS } from './columns.js';
import { RowReader } from './row-reader.js';
import { ShapeReader } from './shape-reader.js';

/** Every report column, in order: the columns of a row the member reader read. */
const EVERY_COLUMN = Int8Array.from(REPORT_COLUMNS, (_, i) => i);

export class ParquetCutReader implements CutReader {
  end = 0;
  private readonly padded = new PaddedBytes();
  private readonly shape = new ShapeReader(REPORT_COLUMNS);
  private readonly reader = new RowReader(REPORT_COLUMNS);
  private block = new CellBlock();

  /** Reports read by the reply's usual shape so far (a test's measure that the shape, not the member reader, read them). */
  get byShape(): number {
    return this.shape.rows;
  }

  load(chunk: Buffer): void {
    this.padded.load(chunk);
  }

  read(start: number): CutRow | undefined {
    const { bytes, view, length } = this.padded;
    const shape = this.shape;
    let end = shape.read(bytes, view, start, length);
    if (end >= 0) {
      this.end = end;
      return this.keep(shape, shape.dirty, shape.dirtyCount, shape.learnt);
    }
    end = this.reader.read(bytes, start);
    if (end < 0) return undefined;
    this.end = end;
    shape.readGenerally(bytes, start, end);
    return this.keep(this.reader, EVERY_COLUMN, EVERY_COLUMN.length, undefined);
  }

  /** The cells of `columns` (the first `count`) the reader just read, kept as a row. */
  private keep(read: RowReader | ShapeReader, columns: Int8Array, count: number, learnt: LearntCells | undefined): CutRow {
    let block = this.block;
    if (block.used + count > CellBlock.SIZE) block = this.block = new CellBlock();
    const at = block.used;
    const { tags, numbers, texts } = read;
    for (let d = 0; d < count; d++) {
      const i = columns[d] as number;
      block.columns[at + d] = i;
      const tag = tags[i] as number;
      block.tags[at + d] = tag;
      block.numbers[at + d] = tag === Tag.Text ? block.texts.push(texts[i] as string) - 1 : (numbers[i] as number);
    }
    block.used = at + count;
    return new CutRow(block, at, count, learnt);
  }
}
