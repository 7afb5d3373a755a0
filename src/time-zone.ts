/**
 * IANA time zones through Intl (ICU ships the zone database; no library of our own):
 * validating a zone's name, reading a unix second as the zone's wall clock, and turning
 * a wall-clock time into the instant it names, daylight-saving gaps and overlaps included.
 */
import { UsageError } from './errors.js';

/** A wall-clock time: calendar fields as a clock on the wall in some zone shows them. */
export interface WallTime {
  year: number;
  /** 1-12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/**
 * The names Intl reads as UTC (it calls each 'UTC'), in lower case. UTC is the zone of servers,
 * containers and CI, and it needs no Intl: a process's first Intl call loads ICU's data, about
 * 30 ms of CPU, a fifth of a short command's run.
 */
const UTC_NAMES = new Set(
  ['utc', 'uct', 'gmt', 'gmt0', 'gmt+0', 'gmt-0', 'greenwich', 'universal', 'zulu'].flatMap((name) => [name, `etc/${name}`]),
);

/** Does Intl read this zone name as UTC? */
export function isUtcName(zone: string): boolean {
  return UTC_NAMES.has(zone.toLowerCase());
}

/** The zone's name as Intl knows it (canonical case: 'europe/berlin' → 'Europe/Berlin'); unknown → UsageError naming `source`. */
export function validateTimeZone(zone: string, source = '--tz'): string {
  if (typeof zone !== 'string' || zone.trim() === '') throw new UsageError(`${source}: expected an IANA time zone such as Europe/Berlin`);
  if (isUtcName(zone.trim())) return 'UTC';
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone.trim() }).resolvedOptions().timeZone;
  } catch {
    const posix = /^(?:[A-Za-z]{3,}|<[^>]+>)[+-]?\d/.test(zone);
    throw new UsageError(`${source}: unknown time zone "${zone}"${posix ? ' (a POSIX rule: only a fixed offset in whole hours, such as JST-9, is read)' : ''}`, {
      hint: 'Use an IANA time zone name such as Europe/Berlin, America/Denver or UTC.',
    });
  }
}

/**
 * The zone of this machine, the last of the zone rule's choices: `link` is where /etc/localtime
 * points (ICU reads the zone from it when TZ is unset, on Linux and macOS), known as UTC without
 * asking Intl; anything else is Intl's answer.
 */
export function localTimeZone(link: string | undefined): string {
  const linked = link === undefined ? undefined : /\/zoneinfo\/(.+)$/.exec(link)?.[1];
  if (linked !== undefined && isUtcName(linked)) return 'UTC';
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** One formatter per zone: a formatter holds ICU data (kilobytes each) and takes ~0.1 ms to make. */
const formats = new Map<string, Intl.DateTimeFormat>();

function wallFormat(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  return format;
}

/** What a clock in `zone` shows at unix second `t` (fractions dropped). */
export function wallTime(t: number, zone: string): WallTime {
  if (zone === 'UTC') {
    const d = new Date(Math.floor(t) * 1000);
    return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() };
  }
  const wall: WallTime = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of wallFormat(zone).formatToParts(Math.floor(t) * 1000)) {
    if (part.type in wall) wall[part.type as keyof WallTime] = Number(part.value);
  }
  return wall;
}

/** The wall time read as if it were UTC, in seconds: the arithmetic of offsets. */
function asUtc(w: WallTime): number {
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) / 1000;
}

/** The zone's offset from UTC at unix second t, in seconds (east positive). */
export function offsetAt(t: number, zone: string): number {
  return asUtc(wallTime(t, zone)) - Math.floor(t);
}

/**
 * The instant (unix s) a wall-clock time in `zone` names, decided as Temporal's
 * 'compatible' does: a time the clocks skip (the spring gap) moves forward by the gap's
 * length (02:30 in a gap of an hour is 03:30), and a time they show twice (the autumn
 * overlap) is the earlier of the two instants.
 */
export function zonedInstant(wall: WallTime, zone: string): number {
  const local = asUtc(wall);
  // The offsets a day either side: a wall time has at most these two readings (zones change at most once a day).
  const before = offsetAt(local - 86_400, zone);
  const after = offsetAt(local + 86_400, zone);
  const shows = (t: number): boolean => asUtc(wallTime(t, zone)) === local;
  const readings = [local - before, local - after].filter(shows).sort((a, b) => a - b);
  // No reading: the clocks skipped this time; read it with the offset before the change, which lands after the gap.
  return readings[0] ?? local - before;
}

/** The first instant of calendar day (year, month, day) in the zone (not always 00:00: some zones skip midnight). */
export function startOfDay(year: number, month: number, day: number, zone: string): number {
  return zonedInstant({ year, month, day, hour: 0, minute: 0, second: 0 }, zone);
}

/** The calendar date `days` after (before, when negative) the given one, and its weekday (0 = Sunday). */
export function addDays(year: number, month: number, day: number, days: number): { year: number; month: number; day: number; weekday: number } {
  const d = new Date(Date.UTC(year, month - 1, day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), weekday: d.getUTCDay() };
}
