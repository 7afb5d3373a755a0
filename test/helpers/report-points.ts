/** What the report point reader must give, found the slow way: for its tests against JSON.parse. */
import { tolerantFeature } from '../../src/api/tolerant.js';
import type { ReportFeature } from '../../src/api/types.js';

/** The report properties the point reader reads. */
export const WANTED = ['did', 'name', 'lat', 'lng', 'speed', 'date', 'odometer', 'address', 'reportType', 'reportValue'];

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
