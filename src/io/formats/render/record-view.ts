/**
 * One record on a terminal, as `KEY: value` lines (like kubectl describe): the
 * columns first, then the record's other scalar fields, so a get shows
 * everything worth reading without a 40-column-wide table.
 */
import { TtyClock, ttyCellText, withZoneHeader } from './cells.js';
import { columnValue, headerFor } from './columns.js';
import type { Painter } from './paint.js';
import type { Column, Rec } from './types.js';
import { displayWidth, padding, wrapToWidth } from './width.js';
import { sanitizeCell } from '../../../sanitize.js';

function isListable(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (Array.isArray(value)) return value.every((item) => item === null || typeof item !== 'object');
  return typeof value !== 'object';
}

/** The columns to list: the given ones, then a plain one per other scalar (or scalar-list) field. */
export function recordViewColumns(rec: Rec, columns: Column[], fieldsGiven: boolean): Column[] {
  if (fieldsGiven) return columns;
  const shown = new Set(columns.map((column) => column.key));
  const extra = Object.keys(rec)
    .filter((key) => !shown.has(key) && isListable(rec[key]))
    .map((key): Column => ({ key, kind: Array.isArray(rec[key]) ? 'list' : 'text' }));
  return [...columns, ...extra];
}

/**
 * The record's lines, fitted to `width` cells: a long value goes on in lines of its own under
 * its start. Clock times carry their date on every line, the zone named on the first.
 */
export function formatRecordView(rec: Rec, shown: Column[], painter: Painter, nowMs: number, zone: string, width: number): string {
  const columns = withZoneHeader(shown, zone);
  const clock = new TtyClock(nowMs, zone, 'always');
  const labels = columns.map((column) => `${sanitizeCell(headerFor(column))}:`);
  const labelWidth = Math.max(0, ...labels.map(displayWidth));
  const indent = labelWidth + 2;
  const lines = columns.flatMap((column, index) => {
    const label = labels[index] ?? '';
    const value = ttyCellText(columnValue(column, rec), column, clock);
    const tone = column.tone?.(rec);
    // At least 20 cells for the value: on a very narrow terminal the labels' column does not squeeze it away.
    const parts = wrapToWidth(value, Math.max(20, width - indent));
    return parts.map((part, k) =>
      (k === 0 ? `${painter.header(label)}${padding(displayWidth(label), labelWidth)}  ${painter.tone(tone, part)}` : `${' '.repeat(indent)}${painter.tone(tone, part)}`).trimEnd(),
    );
  });
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
