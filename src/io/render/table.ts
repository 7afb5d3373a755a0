/**
 * Terminal tables, kubectl/gh style: no borders, two spaces between columns,
 * fitted to the terminal width. Cells are measured by display width. Ids,
 * numbers, times, yes/no and headers keep their natural width: only `shrink`
 * columns (names, addresses, messages) are cut with '…', and no further than
 * SHRINK_MIN cells; when that is not enough, whole columns are left out, the
 * lowest `priority` first. Rendered by hand rather than with cli-table3:
 * borderless layout is a few lines, and this keeps widths exact.
 */
import { ttyCellText } from './cells.js';
import { columnValue, headerFor } from './columns.js';
import type { Painter } from './paint.js';
import type { Column, Rec, Tone } from './types.js';
import { displayWidth, padding, truncateToWidth } from './width.js';

const GAP = '  ';
/** A shrinkable column is never cut below this many cells (nor below its header). */
export const SHRINK_MIN = 10;

export interface TtyCell {
  text: string;
  tone?: Tone | undefined;
}

export function ttyRow(rec: Rec, columns: Column[], nowMs: number): TtyCell[] {
  return columns.map((column) => ({
    text: ttyCellText(columnValue(column, rec), column, nowMs),
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

/**
 * Column widths within `available` cells; 0 marks a column left out.
 * 1. Columns are left out (see dropOrder) until every kept one fits at its minimum.
 * 2. Kept columns start at their natural width; the widest shrinkable one is cut
 *    first, never below its minimum.
 * 3. Only a single column that alone is wider than the terminal is cut below its minimum.
 */
export function fitWidths(columns: readonly FitColumn[], available: number): number[] {
  const room = Math.max(1, available);
  const widths = columns.map((column) => column.natural);
  const mins = columns.map((column) => column.min);
  const kept = (): number => widths.filter((width) => width > 0).length;
  for (const index of dropOrder(columns)) {
    if (totalWidth(widths.map((width, i) => (width > 0 ? mins[i] ?? 0 : 0))) <= room || kept() <= 1) break;
    widths[index] = 0;
  }
  while (totalWidth(widths) > room) {
    const candidates = widths
      .map((width, index) => ({ width, index }))
      .filter((c) => c.width > (mins[c.index] ?? 0))
      .sort((a, b) => b.width - a.width || a.index - b.index);
    const widest = candidates[0];
    if (!widest) break;
    const next = candidates[1]?.width ?? 0;
    const excess = totalWidth(widths) - room;
    // Cut the widest down towards the next widest in one step, never below its minimum.
    widths[widest.index] = widest.width - Math.max(1, Math.min(excess, widest.width - Math.max(next, mins[widest.index] ?? 0)));
  }
  const last = widths.findIndex((width) => width > 0);
  if (kept() === 1 && last >= 0 && (widths[last] ?? 0) > room) widths[last] = room;
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

/** `cellAt(i)`: the cell of the i-th shown column. */
function formatLine(cellAt: (shown: number) => TtyCell | undefined, layout: TableLayout, paint: (cell: TtyCell, text: string) => string): string {
  const parts = layout.widths.map((width, index) => {
    const cell = cellAt(index) ?? { text: '' };
    const text = truncateToWidth(cell.text, width);
    const pad = padding(displayWidth(text), width);
    const painted = paint(cell, text);
    if (layout.columns[index]?.kind === 'number') return pad + painted;
    return index === layout.widths.length - 1 ? painted : painted + pad;
  });
  return `${parts.join(GAP).trimEnd()}\n`;
}

export function formatHeaderLine(layout: TableLayout, painter: Painter): string {
  const cells = layout.columns.map((column) => ({ text: headerFor(column) }));
  return formatLine((shown) => cells[shown], layout, (_cell, text) => (text === '' ? text : painter.header(text)));
}

export function formatRowLine(cells: TtyCell[], layout: TableLayout, painter: Painter): string {
  return formatLine((shown) => cells[layout.cells[shown] ?? shown], layout, (cell, text) => painter.tone(cell.tone, text));
}
