/**
 * CSV per RFC 4180: CRLF line ends, cells quoted when they hold a comma, a
 * quote, CR or LF, quotes doubled. A cell a spreadsheet would run as a formula
 * (leading =, +, -, @, tab or CR; OWASP "CSV injection") gets a leading
 * apostrophe — except real numbers, which are data (-12.5 stays -12.5).
 */
import { csvCellText } from './cells.js';
import { columnValue } from './columns.js';
import type { Column, Rec } from './types.js';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: unknown): string {
  let text = csvCellText(value);
  const isNumber = typeof value === 'number' && Number.isFinite(value);
  if (!isNumber && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvLine(cells: string[]): string {
  return `${cells.join(',')}\r\n`;
}

/**
 * Header cells are the record keys (what --fields selects and what an import
 * file uses), not the table headers, so CSV output round-trips into scripts.
 */
export function csvHeaderLine(columns: Column[]): string {
  return csvLine(columns.map((column) => csvCell(column.key)));
}

export function csvRowLine(rec: Rec, columns: Column[]): string {
  return csvLine(columns.map((column) => csvCell(columnValue(column, rec))));
}
