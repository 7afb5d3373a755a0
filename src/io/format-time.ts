/**
 * Times in trackctl are unix seconds (as the service sends them). People read
 * them relative on a terminal, scripts read RFC 3339 UTC, and flags accept
 * whatever a person would type.
 */
import { UsageError } from '../errors.js';
import { addDays, startOfDay, wallTime, zonedInstant } from '../time-zone.js';
import { DAY, HOUR, MINUTE } from '../span.js';

export { formatSpan } from '../span.js';

const WEEK = 7 * DAY;

/** "just now", "5 min ago", "3 h ago", "2 d ago", "in 4 h"; a date once it is a month or more away. */
export function formatRelative(unixSeconds: number, nowMs: number): string {
  if (!Number.isFinite(unixSeconds)) return '—';
  const deltaSeconds = nowMs / 1000 - unixSeconds;
  const future = deltaSeconds < 0;
  const distance = Math.abs(deltaSeconds);
  if (distance < MINUTE) return future ? `in ${Math.max(1, Math.floor(distance))} s` : 'just now';
  let amount: string;
  if (distance < HOUR) amount = `${Math.floor(distance / MINUTE)} min`;
  else if (distance < DAY) amount = `${Math.floor(distance / HOUR)} h`;
  else if (distance < 30 * DAY) amount = `${Math.floor(distance / DAY)} d`;
  else return formatRfc3339(unixSeconds).slice(0, 10);
  return future ? `in ${amount}` : `${amount} ago`;
}

/** 2026-11-21T10:00:00Z; milliseconds only when the value has them. */
export function formatRfc3339(unixSeconds: number): string {
  const iso = new Date(unixSeconds * 1000).toISOString();
  return Number.isInteger(unixSeconds) ? iso.replace(/\.\d{3}Z$/, 'Z') : iso;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** A unix second on the zone's clock: its date (YYYY-MM-DD) and time (HH:MM, or HH:MM:SS with `seconds`). */
export function formatClock(unixSeconds: number, zone: string, seconds = false): { date: string; time: string } {
  const w = wallTime(unixSeconds, zone);
  return {
    date: `${String(w.year).padStart(4, '0')}-${pad(w.month)}-${pad(w.day)}`,
    time: `${pad(w.hour)}:${pad(w.minute)}${seconds ? `:${pad(w.second)}` : ''}`,
  };
}


const UNIT_SECONDS: Record<string, number> = {
  ms: 0.001,
  s: 1, sec: 1, secs: 1, second: 1, seconds: 1,
  m: MINUTE, min: MINUTE, mins: MINUTE, minute: MINUTE, minutes: MINUTE,
  h: HOUR, hr: HOUR, hrs: HOUR, hour: HOUR, hours: HOUR,
  d: DAY, day: DAY, days: DAY,
  w: WEEK, week: WEEK, weeks: WEEK,
};
const DURATION_PART = /(\d+(?:\.\d+)?)\s*([a-z]+)\s*/gy;
const DURATION_FORMS = 'use forms like 90s, 15m, 2h, 3d, 1w or 2d3h30m';

function durationSeconds(text: string): number | undefined {
  const input = text.trim().toLowerCase();
  if (/^\d+(?:\.\d+)?$/.test(input)) return Number(input); // a bare number is seconds, like --timeout 30
  if (input === '') return undefined;
  DURATION_PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  for (let match = DURATION_PART.exec(input); match; match = DURATION_PART.exec(input)) {
    const unit = UNIT_SECONDS[match[2] ?? ''];
    if (unit === undefined) return undefined;
    total += Number(match[1]) * unit;
    consumed = DURATION_PART.lastIndex;
  }
  return consumed === input.length ? total : undefined;
}

/** '2d3h30m' | '15m' | '90s' | '1.5h' | '500ms' | '30' → seconds; `forms`: the examples an error gives (a caller that takes fewer). */
export function parseDuration(text: string, forms = DURATION_FORMS): number {
  const seconds = durationSeconds(text);
  if (seconds === undefined) throw new UsageError(`invalid duration "${text}": ${forms}`);
  return seconds;
}

const TIME_FORMS =
  'use unix seconds, an ISO 8601 date or date-time (2026-11-21, 2026-11-21T10:00, 2026-11-21T10:00:00Z), ' +
  'today, yesterday, a weekday (monday), now, or a relative time (15m, 2h ago, 3d, in 2h, +2h)';
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[t ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * ISO 8601 date or date-time → unix seconds. With an offset or Z it is that instant; a date
 * alone, or a time without an offset, is a wall-clock time in `zone` (zonedInstant: a time in
 * a daylight-saving gap moves forward, one the clocks show twice is the earlier).
 */
function parseIso(input: string, zone: string): number | undefined {
  const match = ISO_DATE_TIME.exec(input);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number, number, number, number, number, number,
  ];
  const fraction = match[7] ? Number(match[7]) : 0;
  const offset = match[8];
  const utcMs = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(utcMs);
  // Date.UTC rolls 2026-02-30 over to March; a date that rolls over was not a date.
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  if (offset === undefined) return zonedInstant({ year, month, day, hour, minute, second }, zone) + fraction;
  let offsetMinutes = 0;
  if (offset !== 'z') {
    const digits = offset.slice(1).replace(':', '');
    offsetMinutes = (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0)) * (offset[0] === '-' ? -1 : 1);
  }
  return utcMs / 1000 + fraction - offsetMinutes * 60;
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** 'mon' | 'monday' → 1 (0 = Sunday); anything else → undefined. */
function weekdayOf(text: string): number | undefined {
  if (text.length < 3) return undefined;
  const index = WEEKDAYS.findIndex((name) => name.startsWith(text));
  return index < 0 ? undefined : index;
}

/**
 * today, yesterday, tomorrow and weekday names → the first instant of that day in `zone`.
 * A weekday is the most recent one, today included (monday on a Monday is today), for
 * times that look back; for times ahead (--expires) the next one, today excluded.
 */
function parseDayWord(text: string, nowSeconds: number, zone: string, direction: 'past' | 'future'): number | undefined {
  const shift: Record<string, number> = { today: 0, yesterday: -1, tomorrow: 1 };
  let days = shift[text];
  const now = wallTime(nowSeconds, zone);
  if (days === undefined) {
    const weekday = weekdayOf(text);
    if (weekday === undefined) return undefined;
    const today = addDays(now.year, now.month, now.day, 0).weekday;
    days = direction === 'past' ? -((today - weekday + 7) % 7) : ((weekday - today + 6) % 7) + 1;
  }
  const day = addDays(now.year, now.month, now.day, days);
  return startOfDay(day.year, day.month, day.day, zone);
}

export interface ParseTimeOptions {
  /** The invocation's zone (the zone rule): dates, zoneless times and day words are read in it. */
  zone: string;
  /** What a bare duration like "3d" means: 3 days ago (past, the default) or from now (future). */
  direction?: 'past' | 'future';
}

/** A time flag value → unix seconds. */
export function parseTime(input: string, nowMs: number, opts: ParseTimeOptions): number {
  const text = input.trim().toLowerCase();
  const nowSeconds = Math.floor(nowMs / 1000);
  const direction = opts.direction ?? 'past';
  if (text === 'now') return nowSeconds;
  if (/^\d+(?:\.\d+)?$/.test(text)) {
    if (/^\d{13,}$/.test(text)) {
      throw new UsageError(`invalid time "${input}": this looks like milliseconds; give unix seconds`);
    }
    return Number(text);
  }
  const iso = parseIso(text, opts.zone) ?? parseDayWord(text, nowSeconds, opts.zone, direction);
  if (iso !== undefined) return iso;

  let sign = direction;
  let durationText = text;
  if (text.endsWith(' ago')) [durationText, sign] = [text.slice(0, -4), 'past'];
  else if (text.startsWith('in ')) [durationText, sign] = [text.slice(3), 'future'];
  else if (text.startsWith('+')) [durationText, sign] = [text.slice(1), 'future'];
  else if (text.startsWith('-')) [durationText, sign] = [text.slice(1), 'past'];
  const seconds = durationSeconds(durationText);
  if (seconds === undefined) throw new UsageError(`invalid time "${input}": ${TIME_FORMS}`);
  return sign === 'past' ? nowSeconds - seconds : nowSeconds + seconds;
}
