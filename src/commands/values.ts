/**
 * What an option's text means, read as commander reads the option (its argParser): a handler
 * gets numbers, seconds and bytes, never the text. Each parser throws a UsageError naming
 * the flag (exit 2, before anything is sent). Bounds that depend on another flag (--interval
 * needs --follow) stay with the command's plan.
 *
 * Light on purpose: every declaration imports this module when trackctl starts.
 */
import { UsageError } from '../errors.js';
import { parseDuration } from '../io/format-time.js';
import { MAX_CONCURRENCY, parseId } from '../validate.js';

/** Reads an option's text; `flag` is the option's long name, for the error. */
export type Parse<V> = (text: string, flag: string) => V;

/** A whole number from `min` to `max`: --concurrency 1-64, --port 0-65535. */
export const whole =
  (min: number, max: number): Parse<number> =>
  (text, flag) => {
    const v = text.trim();
    if (!/^\d{1,16}$/.test(v) || Number(v) < min || Number(v) > max) throw new UsageError(`invalid ${flag} "${text}": expected a whole number from ${min} to ${max}`);
    return Number(v);
  };

/** --concurrency N of the bulk commands (import, apply, history, report): requests in flight. */
export const concurrencyValue = whole(1, MAX_CONCURRENCY);

/** --limit N of a list: a positive integer. */
export const positiveInt: Parse<number> = (text, flag) => {
  if (!/^[1-9]\d{0,8}$/.test(text.trim())) throw new UsageError(`invalid ${flag} "${text}": expected a positive integer`);
  return Number(text.trim());
};

/** An id the service gave (--group GID: `invalid group id "x"`). */
export const id =
  (what: string): Parse<number> =>
  (text) =>
    parseId(text, what);

const NUMBER = /^[+]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A number above zero (`positive`) or at least zero, in `unit` when the help names one (km/h). */
export const amount =
  (rule: 'positive' | 'non-negative', unit?: string): Parse<number> =>
  (text, flag) => {
    const n = NUMBER.test(text.trim()) ? Number(text) : Number.NaN;
    if (!Number.isFinite(n) || n < 0 || (rule === 'positive' && n === 0)) {
      throw new UsageError(`invalid ${flag} "${text}": expected a ${rule} number${unit === undefined ? '' : ` (${unit})`}`);
    }
    return n;
  };

/** A battery percentage: above 0, at most 100; `20` or `20%`. */
export const percent: Parse<number> = (text, flag) => {
  const v = text.trim().replace(/%$/, '');
  const pct = /^\d+(?:\.\d+)?$/.test(v) ? Number(v) : Number.NaN;
  if (!(pct > 0 && pct <= 100)) throw new UsageError(`invalid ${flag} "${text}": expected a percentage from 1 to 100`);
  return pct;
};

/** A duration in seconds (`90s`, `2d3h30m`, `30`), at least `min` seconds, or (no `min`) more than zero. */
export const seconds =
  (min?: number): Parse<number> =>
  (text, flag) => {
    let s: number;
    try {
      s = parseDuration(text);
    } catch (err) {
      throw new UsageError(`invalid ${flag}: ${(err as Error).message}`);
    }
    if (min === undefined ? !(s > 0) : !(s >= min)) throw new UsageError(`invalid ${flag} "${text}": ${min === undefined ? 'must be more than zero' : `at least ${min}s`}`);
    return s;
  };

/** Any duration, zero included: the report's detection settings (--min-stop 0 counts every halt). */
export const anySeconds: Parse<number> = (text, flag) => {
  try {
    return parseDuration(text);
  } catch (err) {
    throw new UsageError(`invalid ${flag}: ${(err as Error).message}`);
  }
};

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** `128MB`, `1GiB`, `500k`, `1000000` → bytes (1 KB to 5 TB, S3's largest object). */
export const bytes: Parse<number> = (text, flag) => {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?i?b?)\s*$/i.exec(text);
  const unit = m?.[2]?.toLowerCase() ?? '';
  const factor = SIZE_UNITS[unit.length === 1 && unit !== 'b' ? `${unit}b` : unit];
  if (!m || factor === undefined) throw new UsageError(`invalid ${flag} "${text}": use a size such as 128MB, 1GiB or 500KB`);
  const n = Math.round(Number(m[1]) * factor);
  if (n < 1000 || n > 5e12) throw new UsageError(`invalid ${flag} "${text}": from 1KB to 5TB`);
  return n;
};
