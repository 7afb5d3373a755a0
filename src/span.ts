/**
 * A length of time as people read it, shared by the output layer (a table's duration cells) and
 * the report algorithms' --explain reasons, which say how long a unit stood or was silent.
 */
export const MINUTE = 60;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/**
 * A length of time as people read it, its two largest units, the second rounded: 45s, 12m 5s,
 * 1h 12m, 2d 3h. What is below the second unit rounds it (24h 37m 14s is 1d 1h, not 1d), and a
 * second unit of 0 is shown unless the length is a whole number of the first (1d 0h, but 1h).
 */
export function formatSpan(totalSeconds: number): string {
  if (!Number.isFinite(totalSeconds)) return '—';
  const sign = totalSeconds < 0 ? '-' : '';
  const exact = Math.round(Math.abs(totalSeconds));
  if (exact === 0) return '0s';
  const first = (s: number): number => SPAN_UNITS.findIndex(([, size]) => s >= size);
  let i = first(exact);
  if (i === SPAN_UNITS.length - 1) return `${sign}${exact}s`;
  // Rounded to the second unit; that may carry into a larger first unit (23h 59m 50s is 1d 0h).
  const step = SPAN_UNITS[i + 1]![1];
  const s = Math.round(exact / step) * step;
  i = first(s);
  const [name, size] = SPAN_UNITS[i]!;
  const big = Math.floor(s / size);
  if (exact % size === 0) return `${sign}${big}${name}`;
  const [smallName, smallSize] = SPAN_UNITS[i + 1]!;
  return `${sign}${big}${name} ${Math.round((s - big * size) / smallSize)}${smallName}`;
}

const SPAN_UNITS: ReadonlyArray<readonly [string, number]> = [['d', DAY], ['h', HOUR], ['m', MINUTE], ['s', 1]];
