/** Values of share flags, checked before anything is sent. */
import { UsageError } from '../../errors.js';
import { parseDuration, parseTime } from '../../io/format-time.js';

const SID = /^[A-Za-z0-9_-]{1,64}$/;

export function parseSid(value: string | undefined): string {
  if (value === undefined) throw new UsageError('missing share id');
  if (!SID.test(value)) {
    throw new UsageError(`invalid share id "${JSON.stringify(value).slice(1, -1)}": use 1–64 letters, digits, '_' or '-'`);
  }
  return value;
}

/** --expires TIME → unix seconds in the future; "never" → undefined. A bare duration ("3d") means from now; a time without an offset is in `zone`. */
export function parseExpires(value: string, nowMs: number, zone: string): number | 'never' {
  if (value.trim().toLowerCase() === 'never') return 'never';
  const seconds = Math.floor(parseTime(value, nowMs, { direction: 'future', zone }));
  if (seconds <= Math.floor(nowMs / 1000)) throw new UsageError(`invalid --expires "${value}": that time is not in the future`);
  return seconds;
}

/** The relative fields of a share: numeric strings of whole days, hours and minutes. */
export interface RelativeExpiry {
  days: string;
  hours: string;
  minutes: string;
}

/**
 * --expires-in 2d3h30m → {days: "2", hours: "3", minutes: "30"}; 90m → 1 h 30 min; whole minutes
 * only; `never` as --expires takes it. Read as commander reads the option (a Parse of values.ts).
 */
export function parseExpiresIn(value: string, flag = '--expires-in'): RelativeExpiry | 'never' {
  if (value.trim().toLowerCase() === 'never') return 'never';
  let total: number;
  try {
    // a share counts whole minutes: its examples, not the duration reader's (which begin with seconds)
    total = parseDuration(value.replace(/^\+/, ''), 'use forms like 45m, 2h, 3d, 1w or 2d3h30m (whole minutes)');
  } catch (err) {
    throw new UsageError(`invalid ${flag}: ${(err as Error).message}`);
  }
  if (total <= 0) throw new UsageError(`invalid ${flag} "${value}": must be more than zero`);
  if (total % 60 !== 0) throw new UsageError(`invalid ${flag} "${value}": the service counts whole minutes (use forms like 45m, 2h, 2d3h30m)`);
  const minutesTotal = total / 60;
  return {
    days: String(Math.floor(minutesTotal / 1440)),
    hours: String(Math.floor((minutesTotal % 1440) / 60)),
    minutes: String(minutesTotal % 60),
  };
}

