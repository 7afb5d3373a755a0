/**
 * A table when stdout is not a terminal: tab-separated rows, no colour, no
 * borders, no truncation, times in RFC 3339 UTC (like gh's tableprinter), so
 * `cut -f2` and `awk -F'\t'` work.
 */
import { tsvCellText } from './cells.js';
import { columnValue, headerFor } from './columns.js';
import type { Column, Rec } from './types.js';
import { sanitizeCell } from '../../../sanitize.js';

export function tsvHeaderLine(columns: Column[]): string {
  return `${columns.map((column) => sanitizeCell(headerFor(column))).join('\t')}\n`;
}

export function tsvRowLine(rec: Rec, columns: Column[]): string {
  return `${columns.map((column) => tsvCellText(columnValue(column, rec), column)).join('\t')}\n`;
}
