/**
 * How one value becomes cell text, per destination: raw for CSV (machine output
 * stays raw), raw with RFC 3339 UTC times for piped TSV, and human-friendly on a
 * terminal: clock times in the invocation's zone, ages where recency is the point,
 * durations as 1h 12m. Every string from the service is sanitised here.
 */
import { formatClock, formatRelative, formatRfc3339, formatSpan } from '../../format-time.js';
import { sanitizeCell, sanitizeText } from '../../../sanitize.js';
import { headerFor } from './columns.js';
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
  const clock = column.kind === 'time' || column.kind === 'age';
  if (clock && isTimeValue(value)) return formatRfc3339(value);
  // The service's 0 for "never": empty, as the terminal's "never" is no time either.
  if (clock && value === 0) return '';
  if (typeof value === 'object') return sanitizeCell(structuredText(value, ','));
  return sanitizeCell(String(value));
}

/**
 * What a terminal's time cells are read against: now (for ages) and the zone (for clock
 * times). A table shows a time's date only where it changes from the row above (the first
 * row shows it), per column; a record view (`dates: 'always'`) shows it on every line.
 */
export class TtyClock {
  private readonly lastDate = new Map<string, string>();
  constructor(
    /** Now, for ages; a stream moves it on with each row. */
    public nowMs: number,
    readonly zone: string,
    private readonly dates: 'changes' | 'always' = 'changes',
  ) {}

  /** `2026-11-26 21:44`, then `22:02` on the rows below while the date stays. */
  clock(t: number, column: Column): string {
    const { date, time } = formatClock(t, this.zone, column.seconds === true);
    if (this.dates === 'changes' && this.lastDate.get(column.key) === date) return time;
    this.lastDate.set(column.key, date);
    return `${date} ${time}`;
  }
}

/** Terminal table: clock times, ages, durations, yes/no, comma-joined lists. */
export function ttyCellText(value: unknown, column: Column, clock: TtyClock): string {
  if (column.kind === 'age') {
    if (value === null || value === undefined || value === 0 || value === '') return column.none ?? 'never';
    if (isTimeValue(value)) return formatRelative(value, clock.nowMs);
  }
  if (column.kind === 'time') {
    if (isTimeValue(value)) return clock.clock(value, column);
    if (value === 0 || value === '') return ''; // no time known (the service sends 0)
  }
  if (column.kind === 'duration' && typeof value === 'number') return formatSpan(value);
  if (value === null || value === undefined) return '';
  if (column.kind === 'bool') {
    if (value === true || value === 1 || value === '1') return 'yes';
    if (value === false || value === 0 || value === '0') return 'no';
  }
  if (typeof value === 'object') return sanitizeCell(structuredText(value, ', '));
  return sanitizeCell(String(value));
}

/** The zone named once: in the header of the first clock-time column (ages and durations need none). */
export function withZoneHeader(columns: Column[], zone: string): Column[] {
  const first = columns.findIndex((column) => column.kind === 'time');
  if (first < 0) return columns;
  return columns.map((column, index) => (index === first ? { ...column, header: `${headerFor(column)} (${zone})` } : column));
}
