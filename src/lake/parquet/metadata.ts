/**
 * The key-value metadata in each history Parquet file's footer, so a file found alone in a
 * lake still says what it holds: the schema's version (it grows when a column is added or
 * changes type), the unit of `speed`, the window asked for, and the trackctl that wrote it.
 */
import type { HistoryQuery } from '../../api/history.js';

/** The version of the columns in columns.ts. */
export const SCHEMA_VERSION = '1';

const iso = (seconds: number | undefined): string | undefined => (seconds === undefined ? undefined : new Date(seconds * 1000).toISOString());

export function historyMetadata(version: string, window: HistoryQuery, nowMs: number): Record<string, string> {
  const meta: Record<string, string> = {
    'trackctl.schema_version': SCHEMA_VERSION,
    // The service does not state it; its speeds read as km/h (see reports/params.ts), and are written as sent.
    'trackctl.speed_unit': 'km/h',
    'trackctl.version': version,
    'trackctl.window_from': iso(window.from) ?? '',
    'trackctl.window_to': iso(window.to) ?? new Date(nowMs).toISOString(),
  };
  const after = iso(window.lastQueryTime);
  if (after !== undefined) meta['trackctl.received_after'] = after;
  return meta;
}
