/**
 * Terminal tables, kubectl/gh style: no borders, two spaces between columns, fitted
 * to the terminal width. The lines are laid out by cli-table3, borderless through its
 * `chars` option; this module is the thin layer in front of it that does what
 * cli-table3 does not:
 *
 * - fitting to the terminal: ids, numbers, times, yes/no and headers keep their
 *   natural width; only `shrink` columns (names, addresses, messages) are cut with '…',
 *   and no further than SHRINK_MIN cells; when that is not enough, whole columns are
 *   left out, the lowest `priority` first (cli-table3 only takes widths it is given);
 * - measuring and cutting by grapheme cluster (width.ts, string-width 8): each cell is
 *   cut here before cli-table3 sees it, so its own truncation never cuts. cli-table3
 *   measures with string-width 4, which agrees on CJK, emoji (ZWJ, flags, keycaps,
 *   skin tones) and combining marks, but counts a Hangul syllable written as conjoining
 *   jamo as 4 cells, not 2: cells go to it in NFC, which composes those into syllables.
 *
 * cli-table3 (~20 ms to load) is loaded only when a table is drawn on a terminal.
 */
import { ttyCellText, type TtyClock } from './cells.js';
import { columnValue, headerFor } from './columns.js';
import type { Painter } from './paint.js';
import type { Column, Rec, Tone } from './types.js';
import { displayWidth, truncateToWidth } from './width.js';

const GAP = '  ';
/** A shrinkable column is never cut below this many cells (nor below its header). */
export const SHRINK_MIN = 10;

export interface TtyCell {
  text: string;
  tone?: Tone | undefined;
}

/** One record's cells; rows go through `clock` in order (a time's date shows where it changes). */
export function ttyRow(rec: Rec, columns: Column[], clock: TtyClock): TtyCell[] {
  return columns.map((column) => ({
    text: ttyCellText(columnValue(column, rec), column, clock),
    tone: column.tone?.(rec),
  }));
}

/** What fitting needs to know about one column. */
export interface FitColumn {
  /** Widest cell (header included). */
  natural: number;
  /** Narrowest it may be cut to: `natural` for columns that must stay whole. */
  min: number;
  /** Higher is kept longer (default 0). */
  priority: number;
}

function totalWidth(widths: readonly number[]): number {
  const shown = widths.filter((width) => width > 0);
  return shown.reduce((sum, width) => sum + width, 0) + GAP.length * Math.max(0, shown.length - 1);
}

/** Indices in the order columns are left out: lowest priority first, rightmost first among equals. */
function dropOrder(columns: readonly FitColumn[]): number[] {
  return columns
    .map((column, index) => ({ priority: column.priority, index }))
    .sort((a, b) => a.priority - b.priority || b.index - a.index)
    .map(({ index }) => index);
}

/** Widths of the kept columns (0 for the others), cutting the widest shrinkable one first, never below its minimum. */
function shrinkToFit(columns: readonly FitColumn[], kept: readonly boolean[], room: number): number[] {
  const widths = columns.map((column, index) => (kept[index] ? column.natural : 0));
  while (totalWidth(widths) > room) {
    const candidates = widths
      .map((width, index) => ({ width, index }))
      .filter((c) => c.width > (columns[c.index]?.min ?? 0))
      .sort((a, b) => b.width - a.width || a.index - b.index);
    const widest = candidates[0];
    if (!widest) break;
    const next = candidates[1]?.width ?? 0;
    const floor = Math.max(next, columns[widest.index]?.min ?? 0);
    // Cut the widest down towards the next widest in one step, never below its minimum.
    widths[widest.index] = widest.width - Math.max(1, Math.min(totalWidth(widths) - room, widest.width - floor));
  }
  return widths;
}

/**
 * Column widths within `available` cells; 0 marks a column left out.
 * 1. Columns are left out (see dropOrder) until every kept one fits at its minimum.
 * 2. Kept columns start at their natural width; the widest shrinkable one is cut
 *    first, never below its minimum.
 * 3. Optional columns (priority below 0) also give way, lowest first, rather than
 *    see a more important column cut.
 * 4. Only a single column that alone is wider than the terminal is cut below its minimum.
 */
export function fitWidths(columns: readonly FitColumn[], available: number): number[] {
  const room = Math.max(1, available);
  const kept = columns.map(() => true);
  const keptCount = (): number => kept.filter(Boolean).length;
  const order = dropOrder(columns);
  for (const index of order) {
    if (totalWidth(columns.map((column, i) => (kept[i] ? column.min : 0))) <= room || keptCount() <= 1) break;
    kept[index] = false;
  }
  let widths = shrinkToFit(columns, kept, room);
  for (const index of order.filter((i) => kept[i])) {
    const priority = columns[index]?.priority ?? 0;
    const moreImportantCut = columns.some((column, i) => i !== index && (widths[i] ?? 0) < column.natural && column.priority > priority);
    if (priority >= 0 || !moreImportantCut || keptCount() <= 1) break;
    kept[index] = false;
    widths = shrinkToFit(columns, kept, room);
  }
  const only = widths.findIndex((width) => width > 0);
  if (keptCount() === 1 && only >= 0 && (widths[only] ?? 0) > room) widths[only] = room;
  return widths;
}

export interface TableLayout {
  /** The columns shown, in order, with their widths and their index in the row cells. */
  columns: Column[];
  widths: number[];
  cells: number[];
}

/** Lay out columns for these rows within `available` cells. */
export function layoutTable(columns: Column[], rows: TtyCell[][], available: number, withHeader: boolean): TableLayout {
  const fit = columns.map((column, index): FitColumn => {
    const header = withHeader ? displayWidth(headerFor(column)) : 0;
    let natural = header;
    for (const row of rows) natural = Math.max(natural, displayWidth(row[index]?.text ?? ''));
    const min = column.shrink === true ? Math.min(natural, Math.max(SHRINK_MIN, header)) : natural;
    return { natural, min, priority: column.priority ?? 0 };
  });
  const widths = fitWidths(fit, available);
  const shown = widths.map((width, index) => ({ width, index })).filter((c) => c.width > 0);
  return {
    columns: shown.map(({ index }) => columns[index]!),
    widths: shown.map(({ width }) => width),
    cells: shown.map(({ index }) => index),
  };
}

type CliTable = typeof import('cli-table3');

const RIGHT_ALIGNED = new Set<Column['kind']>(['number', 'time', 'duration']);

/** Every border character empty, and two spaces between columns. */
const BORDERLESS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '',
  middle: GAP,
};

/** Draws rows (header included, if wanted) with a layout, as lines ending in '\n'. */
export interface TableWriter {
  header(layout: TableLayout, painter: Painter): string;
  rows(rows: TtyCell[][], layout: TableLayout, painter: Painter): string;
}

let writer: Promise<TableWriter> | undefined;

export function loadTableWriter(): Promise<TableWriter> {
  writer ??= import('cli-table3').then(({ default: Table }) => tableWriter(Table));
  return writer;
}

function tableWriter(Table: CliTable): TableWriter {
  const draw = (layout: TableLayout, lines: string[][]): string => {
    if (lines.length === 0) return '';
    const table = new Table({
      chars: BORDERLESS,
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
      colWidths: layout.widths,
      // Times right-aligned: a clock time under a date-and-time lines up with its time.
      colAligns: layout.columns.map((column) => (RIGHT_ALIGNED.has(column.kind) ? 'right' : 'left')),
      wordWrap: false,
    });
    table.push(...lines);
    // cli-table3 pads the last column too: a terminal line ends at its last character.
    return `${table.toString().split('\n').map((line) => line.trimEnd()).join('\n')}\n`;
  };
  /** Each cell cut to its column's width by grapheme, then painted. */
  const cells = (texts: Array<TtyCell | undefined>, layout: TableLayout, paint: (cell: TtyCell, text: string) => string): string[] =>
    layout.widths.map((width, index) => {
      const cell = texts[index] ?? { text: '' };
      return paint(cell, truncateToWidth(cell.text.normalize('NFC'), width));
    });
  return {
    header(layout, painter) {
      const texts = layout.columns.map((column) => ({ text: headerFor(column) }));
      return draw(layout, [cells(texts, layout, (_cell, text) => (text === '' ? text : painter.header(text)))]);
    },
    rows(rows, layout, painter) {
      const shown = (row: TtyCell[]): Array<TtyCell | undefined> => layout.cells.map((index) => row[index]);
      return draw(layout, rows.map((row) => cells(shown(row), layout, (cell, text) => painter.tone(cell.tone, text))));
    },
  };
}
