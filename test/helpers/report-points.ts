/** What the report point reader must give, found the slow way: for its tests against JSON.parse. */
import { tolerantFeature } from '../../src/api/tolerant.js';

/** The report properties the point reader reads. */
export const WANTED = ['did', 'name', 'lat', 'lng', 'speed', 'date', 'odometer', 'address', 'reportType', 'reportValue'];

/** What the reader must give for `text`: JSON.parse, the shape parseFeature wants, tolerantFeature, the wanted names. */
export function expected(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const props = (value as { properties?: unknown } | null)?.properties;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof props !== 'object' || props === null || Array.isArray(props)) return undefined;
  const p = tolerantFeature(value as { properties: Record<string, unknown> }).properties;
  return Object.fromEntries(WANTED.map((k) => [k, Object.hasOwn(p, k) ? p[k] : undefined]));
}
