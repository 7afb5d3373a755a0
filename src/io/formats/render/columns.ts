/**
 * Which columns a render shows, and what --fields means for each format.
 * --fields selects record keys in order for every format; a key with a
 * matching Column keeps that column's header, kind and tone.
 */
import { UsageError } from '../../../errors.js';
import type { Column, Rec } from './types.js';

/** 'lastReport' | 'last_report' | 'last-report' → 'LAST REPORT'; 'trackerID' → 'TRACKER ID'. */
export function headerFor(column: Column): string {
  if (column.header !== undefined) return column.header;
  return column.key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2') // acronyms: lastGPSTimestamp → LAST GPS TIMESTAMP
    .replace(/[-_]+/g, ' ')
    .trim()
    .toUpperCase();
}

/** The value a column shows: derived when the column says so, else the record's field. */
export function columnValue(column: Column, rec: Rec): unknown {
  return column.value ? column.value(rec) : rec[column.key];
}

/** The columns to show: the given ones, or one per --fields key in that order. */
export function resolveColumns(columns: Column[], fields: string[] | undefined): Column[] {
  if (!fields) return columns;
  return fields.map((key) => columns.find((column) => column.key === key) ?? { key, kind: 'text' });
}

/** What --fields may name, checked before any request (ctx.output's `fields`): the record's fields and the columns' keys, each once. */
export function fieldNames(recordFields: readonly string[], columns: readonly Column[]): string[] {
  return [...new Set([...recordFields, ...columns.map((column) => column.key)])];
}

/**
 * Reject --fields keys that are neither a column nor a key of any record, naming
 * the available ones. With no records there is nothing to check record keys
 * against, so only columns are known and an unknown key is let through.
 */
export function checkFields(fields: string[] | undefined, columns: Column[], records: readonly Rec[]): void {
  if (!fields || records.length === 0) return;
  const available = new Set(columns.map((column) => column.key));
  for (const rec of records) for (const key of Object.keys(rec)) available.add(key);
  const unknown = fields.filter((key) => !available.has(key));
  if (unknown.length === 0) return;
  const names = unknown.map((key) => `"${key}"`).join(', ');
  throw new UsageError(
    `unknown field${unknown.length > 1 ? 's' : ''} ${names} in --fields; available fields: ${[...available].join(', ')}`,
  );
}

/**
 * The record as JSON/YAML shows it: unchanged without --fields; with --fields the
 * selected keys in order. A key the record lacks takes a derived column's value,
 * else null, so every record of a projection has the same keys.
 */
export function projectRecord(rec: Rec, fields: string[] | undefined, columns: Column[]): Rec {
  if (!fields) return rec;
  const projected: Rec = {};
  for (const key of fields) {
    if (Object.hasOwn(rec, key)) {
      projected[key] = rec[key];
      continue;
    }
    const column = columns.find((candidate) => candidate.key === key);
    projected[key] = column?.value ? column.value(rec) : null;
  }
  return projected;
}
