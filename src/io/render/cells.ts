/**
 * How one value becomes cell text, per destination: raw for CSV (machine output
 * stays raw), raw with RFC 3339 times for piped TSV, and human-friendly on a terminal.
 * Every string from the service is sanitised here.
 */
import { formatRelative, formatRfc3339 } from '../format-time.js';
import { sanitizeCell, sanitizeText } from '../sanitize.js';
import type { Column } from './types.js';

function isScalar(value: unknown): value is string | number | boolean | bigint {
  return ['string', 'number', 'boolean', 'bigint'].includes(typeof value);
}

/** Arrays of scalars join with `separator`; anything else structured is JSON. */
function structuredText(value: object, separator: string): string {
  if (Array.isArray(value) && value.every((item) => isScalar(item) || item === null)) {
    return value.map((item) => (item === null ? '' : String(item))).join(separator);
  }
  return JSON.stringify(value) ?? '';
}

/** CSV: raw values; lists joined with a space; objects as JSON; newlines kept (CSV quotes them). */
export function csvCellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return sanitizeText(structuredText(value, ' '));
  return sanitizeText(String(value));
}

function isTimeValue(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/** Piped table (TSV): raw values, times as RFC 3339 UTC, lists comma-joined, one line per row. */
export function tsvCellText(value: unknown, column: Column): string {
  if (value === null || value === undefined) return '';
  if (column.kind === 'time' && isTimeValue(value)) return formatRfc3339(value);
  // The service's 0 for "never": empty, as the terminal's "never" is no time either.
  if (column.kind === 'time' && value === 0) return '';
  if (typeof value === 'object') return sanitizeCell(structuredText(value, ','));
  return sanitizeCell(String(value));
}

/** Terminal table: relative times, yes/no, comma-joined lists. */
export function ttyCellText(value: unknown, column: Column, nowMs: number): string {
  if (column.kind === 'time') {
    if (value === null || value === undefined || value === 0 || value === '') return 'never';
    if (isTimeValue(value)) return formatRelative(value, nowMs);
  }
  if (value === null || value === undefined) return '';
  if (column.kind === 'bool') {
    if (value === true || value === 1 || value === '1') return 'yes';
    if (value === false || value === 0 || value === '0') return 'no';
  }
  if (typeof value === 'object') return sanitizeCell(structuredText(value, ', '));
  return sanitizeCell(String(value));
}
