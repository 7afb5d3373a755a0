/**
 * The C library's local time for jq (localtime, mktime, strflocaltime), in one named zone.
 * jq-wasm's own glue reads the zone of the JavaScript engine and names it "UTC+0900"; jq's
 * `strflocaltime` then fails on %Z ("unknown system failure") and prints %z as +0000,
 * because its mktime leaves the offset and the zone name unset. Here every answer comes
 * from the IANA zone given (--tz, else TZ), through Intl.
 */

export interface Zone {
  /** East of UTC, in minutes, at a moment (unix milliseconds). */
  offsetAt(ms: number): number;
  /** The standard offset (minutes east) and, where the zone has summer time, the summer one. */
  standard: number;
  summer: number | undefined;
  /** Abbreviations as the C library's tzname holds them ("EST", "EDT"; "GMT+9" where English has none). */
  standardName: string;
  summerName: string;
}

/** `TZ=:Europe/Berlin` is POSIX for a file name; an unknown zone reads as UTC, as glibc reads it. */
export function zoneName(zone: string | undefined): string {
  const name = zone?.replace(/^:/, '').trim();
  if (name === undefined || name === '') return Intl.DateTimeFormat().resolvedOptions().timeZone;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
}

export function loadZone(zone: string | undefined): Zone {
  const timeZone = zoneName(zone);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    era: 'short',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  // English has abbreviations for a few zones (EST, CET, AEST, IST, JST), each in its own
  // locale; elsewhere the zone's name is its offset, as tzdata writes it (+04, +0530).
  const namers = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'ja-JP'].map((locale) => new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' }));
  const offsetAt = (ms: number): number => {
    const at = Math.floor(ms / 1000) * 1000;
    const field: Record<string, string> = {};
    for (const part of parts.formatToParts(at)) field[part.type] = part.value;
    const year = field.era === 'BC' || field.era === 'B' ? 1 - Number(field.year) : Number(field.year);
    const wall = Date.UTC(year, Number(field.month) - 1, Number(field.day), Number(field.hour), Number(field.minute), Number(field.second));
    return Math.round((wall - at) / 60_000);
  };
  const nameAt = (ms: number): string => {
    for (const namer of namers) {
      const name = namer.formatToParts(ms).find((part) => part.type === 'timeZoneName')?.value ?? '';
      if (/^[A-Z]{3,5}$/.test(name)) return name;
    }
    if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return 'UTC';
    const offset = offsetAt(ms);
    const abs = Math.abs(offset);
    const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}${abs % 60 === 0 ? '' : String(abs % 60).padStart(2, '0')}`;
    return `${offset < 0 ? '-' : '+'}${hhmm}`;
  };
  const year = new Date().getUTCFullYear();
  const january = Date.UTC(year, 0, 1);
  const july = Date.UTC(year, 6, 1);
  const [a, b] = [offsetAt(january), offsetAt(july)];
  // Summer time is the larger offset east (the north's July, the south's January).
  const standard = Math.min(a, b);
  const summer = a === b ? undefined : Math.max(a, b);
  const standardName = nameAt(a === standard ? january : july);
  return { offsetAt, standard, summer, standardName, summerName: summer === undefined ? standardName : nameAt(a === summer ? january : july) };
}

/** C's struct tm, as jq reads and writes it. */
export interface BrokenDown {
  sec: number;
  min: number;
  hour: number;
  mday: number;
  /** 0-11 */
  mon: number;
  /** Years since 1900. */
  year: number;
  wday: number;
  yday: number;
  isdst: number;
  /** Seconds east of UTC. */
  gmtoff: number;
}

/** localtime(3): unix seconds → the wall clock in the zone. */
export function localTime(zone: Zone, seconds: number): BrokenDown {
  const offset = zone.offsetAt(seconds * 1000);
  const d = new Date(seconds * 1000 + offset * 60_000);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  return {
    sec: d.getUTCSeconds(),
    min: d.getUTCMinutes(),
    hour: d.getUTCHours(),
    mday: d.getUTCDate(),
    mon: d.getUTCMonth(),
    year: d.getUTCFullYear() - 1900,
    wday: d.getUTCDay(),
    yday: Math.floor((d.getTime() - yearStart) / 86_400_000),
    isdst: zone.summer !== undefined && offset !== zone.standard ? 1 : 0,
    gmtoff: offset * 60,
  };
}

/**
 * mktime(3): a wall clock in the zone (fields may overflow, as C allows) → unix seconds, or
 * undefined when it is not a time. `isdst` > 0 or 0 picks between the two readings of an
 * hour that happens twice; below 0, the zone decides.
 */
export function makeTime(zone: Zone, tm: Pick<BrokenDown, 'sec' | 'min' | 'hour' | 'mday' | 'mon' | 'year' | 'isdst'>): number | undefined {
  const wall = Date.UTC(tm.year + 1900, tm.mon, tm.mday, tm.hour, tm.min, tm.sec);
  if (Number.isNaN(wall)) return undefined;
  const at = (offset: number): number => wall - offset * 60_000;
  let ms = at(zone.offsetAt(at(zone.offsetAt(wall))));
  if (zone.summer !== undefined && tm.isdst >= 0) {
    const wanted = tm.isdst > 0 ? zone.summer : zone.standard;
    if (zone.offsetAt(at(wanted)) === wanted) ms = at(wanted);
  }
  return Math.floor(ms / 1000);
}
