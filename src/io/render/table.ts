/**
 * Terminal tables, kubectl/gh style: no borders, two spaces between columns,
 * fitted to the terminal width. Cells are measured by display width and cut
 * with '…', shrinkable columns first. Rendered by hand rather than with
 * cli-table3: borderless layout is a few lines, and this keeps widths exact.
 */
import { ttyCellText } from './cells.js';
import { columnValue, headerFor } from './columns.js';
import type { Painter } from './paint.js';
import type { Column, Rec, Tone } from './types.js';
import { displayWidth, padding, truncateToWidth } from './width.js';

const GAP = '  ';

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

function totalWidth(widths: number[]): number {
  return widths.reduce((sum, width) => sum + width, 0) + GAP.length * Math.max(0, widths.length - 1);
}

/**
 * Column widths that fit `available` cells. Shrinks the widest column above its
 * floor, in passes: shrinkable columns to 6 cells, then all columns to 6, then
 * all to 3; if that is still too wide, columns are dropped from the right.
 */
export function fitWidths(natural: number[], shrinkable: boolean[], available: number): number[] {
  const room = Math.max(1, available);
  const widths = natural.map((width) => Math.min(width, room));
  const passes: Array<(index: number) => number> = [
    (index) => (shrinkable[index] ? Math.min(natural[index] ?? 0, 6) : (widths[index] ?? 0)),
    (index) => Math.min(natural[index] ?? 0, 6),
    (index) => Math.min(natural[index] ?? 0, 3),
  ];
  for (const floor of passes) {
    const floors = widths.map((_width, index) => floor(index));
    while (totalWidth(widths) > room) {
      const candidates = widths.map((width, index) => ({ width, index })).filter((c) => c.width > (floors[c.index] ?? 0));
      if (candidates.length === 0) break;
      candidates.sort((a, b) => b.width - a.width);
      const widest = candidates[0]!;
      const next = candidates[1]?.width ?? 0;
      const excess = totalWidth(widths) - room;
      // Cut the widest down towards the next widest in one step, never below its floor.
      const cut = Math.max(1, Math.min(excess, widest.width - Math.max(next, floors[widest.index] ?? 0)));
      widths[widest.index] = widest.width - cut;
    }
  }
  while (totalWidth(widths) > room && widths.length > 1) widths.pop();
  return widths;
}

export interface TableLayout {
  columns: Column[];
  widths: number[];
}

/** Lay out columns for these rows within `available` cells. */
export function layoutTable(columns: Column[], rows: TtyCell[][], available: number, withHeader: boolean): TableLayout {
  const natural = columns.map((column, index) => {
    let width = withHeader ? displayWidth(headerFor(column)) : 0;
    for (const row of rows) width = Math.max(width, displayWidth(row[index]?.text ?? ''));
    return width;
  });
  const widths = fitWidths(natural, columns.map((column) => column.shrink === true), available);
  return { columns: columns.slice(0, widths.length), widths };
}

function formatLine(cells: TtyCell[], layout: TableLayout, paint: (cell: TtyCell, text: string) => string): string {
  const parts = layout.widths.map((width, index) => {
    const cell = cells[index] ?? { text: '' };
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
  return formatLine(cells, layout, (_cell, text) => (text === '' ? text : painter.header(text)));
}

export function formatRowLine(cells: TtyCell[], layout: TableLayout, painter: Painter): string {
  return formatLine(cells, layout, (cell, text) => painter.tone(cell.tone, text));
}
