/** What the report readers (the point reader, Parquet's cut reader) must give, found the slow way: for their tests against JSON.parse. */
import type { HistoryItem } from '../../src/api/history.js';
import { tolerantFeature } from '../../src/api/tolerant.js';
import type { ReportFeature } from '../../src/api/types.js';

/** The report properties the point reader reads. */
export const WANTED = ['did', 'name', 'lat', 'lng', 'speed', 'date', 'odometer', 'address', 'reportType', 'reportValue', 'message'];

/** The feature the splitter's parse gives for `text` (JSON.parse, the shape parseFeature wants, tolerantFeature), or undefined where it refuses it. */
export function parsedFeature(text: string): ReportFeature | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const props = (value as { properties?: unknown } | null)?.properties;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof props !== 'object' || props === null || Array.isArray(props)) return undefined;
  return tolerantFeature(value as ReportFeature);
}

/** What the reader must give for `text`: the parsed feature's wanted names. */
export function expected(text: string): Record<string, unknown> | undefined {
  const p = parsedFeature(text)?.properties as Record<string, unknown> | undefined;
  return p && Object.fromEntries(WANTED.map((k) => [k, Object.hasOwn(p, k) ? p[k] : undefined]));
}

/** `text` as a history item with its feature parsed (tolerantFeature(JSON.parse(text))), as the splitter gives a report it could not read. */
export function parsedItem(text: string): HistoryItem {
  return { text, feature: tolerantFeature(JSON.parse(text) as ReportFeature), verbatim: true };
}

/** A chunk of a reply holding these reports (one more after them, so none is the last), and where the first begins. */
export function replyChunk(reports: readonly string[]): { chunk: Buffer; first: number } {
  const lead = '{"features":[';
  return { chunk: Buffer.from(`${lead}${reports.join(',')},{"properties":{}}]}`, 'utf8'), first: Buffer.byteLength(lead) };
}
