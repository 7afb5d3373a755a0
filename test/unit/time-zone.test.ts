/**
 * The zone rule's pure parts: wall-clock times to instants (daylight-saving gaps and overlaps
 * decided as Temporal's 'compatible'), the parser reading zoneless times and day words in the
 * zone, which zone an invocation uses, and how terminal tables write times and durations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../../src/errors.js';
import { formatClock, formatSpan, parseTime } from '../../src/io/format-time.js';
import { tripsPageData } from '../../src/io/pages/map/trips.js';
import { unitsPageData } from '../../src/io/pages/map/units.js';
import { TtyClock, ttyCellText, withZoneHeader } from '../../src/io/formats/render/cells.js';
import { resolveTimeZone } from '../../src/settings.js';
import { validateSetting } from '../../src/config/schema.js';
import { DayClock } from '../../src/reports/days.js';
import { isUtcName, localTimeZone, offsetAt, validateTimeZone, wallTime, zonedInstant } from '../../src/time-zone.js';

const utc = (y: number, m: number, d: number, h = 0, min = 0, s = 0): number => Date.UTC(y, m - 1, d, h, min, s) / 1000;
const wall = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0) => ({ year, month, day, hour, minute, second });

test('a wall-clock time names its instant in the zone', () => {
  assert.equal(zonedInstant(wall(2026, 11, 25, 10), 'UTC'), utc(2026, 11, 25, 10));
  assert.equal(zonedInstant(wall(2026, 11, 25, 10), 'America/New_York'), utc(2026, 11, 25, 15), 'EST, UTC-5');
  assert.equal(zonedInstant(wall(2026, 7, 1, 10), 'America/New_York'), utc(2026, 7, 1, 14), 'EDT, UTC-4');
  assert.equal(zonedInstant(wall(2026, 11, 25, 0), 'Asia/Tokyo'), utc(2026, 11, 24, 15));
  assert.equal(zonedInstant(wall(2026, 1, 1, 0), 'Asia/Kathmandu'), utc(2025, 12, 31, 18, 15), 'UTC+05:45');
});

test('a time in the spring gap moves forward by the gap; an autumn time shown twice is the earlier instant', () => {
  // Berlin 2026-03-29: 02:00 CET becomes 03:00 CEST; 02:30 does not exist and reads as 03:30 CEST.
  assert.equal(zonedInstant(wall(2026, 3, 29, 2, 30), 'Europe/Berlin'), utc(2026, 3, 29, 1, 30));
  assert.equal(zonedInstant(wall(2026, 3, 29, 3, 30), 'Europe/Berlin'), utc(2026, 3, 29, 1, 30), 'the same instant');
  // Berlin 2026-10-25: 03:00 CEST becomes 02:00 CET; 02:30 happens twice, first in CEST.
  assert.equal(zonedInstant(wall(2026, 10, 25, 2, 30), 'Europe/Berlin'), utc(2026, 10, 25, 0, 30));
  assert.equal(zonedInstant(wall(2026, 10, 25, 3, 30), 'Europe/Berlin'), utc(2026, 10, 25, 2, 30), 'after the overlap: CET');
  // New York: 2026-03-08 02:30 skipped → 03:30 EDT; 2026-11-01 01:30 twice → EDT first.
  assert.equal(zonedInstant(wall(2026, 3, 8, 2, 30), 'America/New_York'), utc(2026, 3, 8, 7, 30));
  assert.equal(zonedInstant(wall(2026, 11, 1, 1, 30), 'America/New_York'), utc(2026, 11, 1, 5, 30));
});

test('parseTime: dates and times without an offset are in the zone; Z, offsets, unix seconds and durations are absolute', () => {
  const nowMs = Date.UTC(2026, 10, 26, 12);
  const at = (text: string, zone: string) => parseTime(text, nowMs, { zone });
  assert.equal(at('2026-11-25', 'Asia/Tokyo'), utc(2026, 11, 24, 15));
  assert.equal(at('2026-11-25T10:00', 'America/New_York'), utc(2026, 11, 25, 15));
  assert.equal(at('2026-11-25 10:00:30', 'Europe/Berlin'), utc(2026, 11, 25, 9, 0, 30));
  assert.equal(at('2026-10-25', 'Europe/Berlin'), utc(2026, 10, 24, 22), 'the 25-hour day starts in CEST');
  assert.equal(at('2026-10-26', 'Europe/Berlin'), utc(2026, 10, 25, 23), 'and the next in CET');
  assert.equal(at('2026-03-29T02:30', 'Europe/Berlin'), utc(2026, 3, 29, 1, 30), 'in the gap: forward');
  for (const zone of ['UTC', 'America/New_York', 'Asia/Tokyo', 'Europe/Berlin']) {
    assert.equal(at('2026-11-25T10:00:00Z', zone), utc(2026, 11, 25, 10), zone);
    assert.equal(at('2026-11-25T10:00:00+02:00', zone), utc(2026, 11, 25, 8), zone);
    assert.equal(at('1795600000', zone), 1_795_600_000, zone);
    assert.equal(at('2d', zone), nowMs / 1000 - 2 * 86400, zone);
    assert.equal(at('now', zone), nowMs / 1000, zone);
  }
});

test('parseTime: today, yesterday and weekday names are the start of that day in the zone', () => {
  // Thursday 2026-11-26 20:00 UTC: already Friday the 27th in Tokyo (05:00), still Thursday in New York (15:00).
  const nowMs = Date.UTC(2026, 10, 26, 20);
  const at = (text: string, zone: string, direction?: 'past' | 'future') => parseTime(text, nowMs, { zone, direction });
  assert.equal(at('today', 'UTC'), utc(2026, 11, 26));
  assert.equal(at('today', 'Asia/Tokyo'), utc(2026, 11, 26, 15));
  assert.equal(at('Today', 'America/New_York'), utc(2026, 11, 26, 5));
  assert.equal(at('yesterday', 'Asia/Tokyo'), utc(2026, 11, 25, 15));
  assert.equal(at('yesterday', 'America/New_York'), utc(2026, 11, 25, 5));
  assert.equal(at('monday', 'UTC'), utc(2026, 11, 23), 'the most recent Monday');
  assert.equal(at('thursday', 'UTC'), utc(2026, 11, 26), 'today counts as the most recent Thursday');
  assert.equal(at('fri', 'America/New_York'), utc(2026, 11, 20, 5), 'last Friday in New York');
  assert.equal(at('fri', 'Asia/Tokyo'), utc(2026, 11, 26, 15), 'today in Tokyo');
  assert.equal(at('friday', 'UTC', 'future'), utc(2026, 11, 27), 'ahead (--expires): the next Friday');
  assert.equal(at('thursday', 'UTC', 'future'), utc(2026, 12, 3), 'ahead, today excluded');
  assert.equal(at('tomorrow', 'Europe/Berlin'), utc(2026, 11, 26, 23));
  // The Sunday of Berlin's autumn change starts in CEST.
  assert.equal(parseTime('sunday', Date.UTC(2026, 9, 27, 12), { zone: 'Europe/Berlin' }), utc(2026, 10, 24, 22));
  assert.throws(() => at('mo', 'UTC'), UsageError, 'two letters are not a weekday');
});

test('the zone rule: --tz, else TZ, else the profile\'s tz, else the system\'s; a zone Intl does not know is a usage error', () => {
  assert.equal(resolveTimeZone('asia/tokyo', { TZ: 'Europe/Berlin' }, { tz: 'UTC' }), 'Asia/Tokyo');
  assert.equal(resolveTimeZone(undefined, { TZ: 'Europe/Berlin' }, { tz: 'UTC' }), 'Europe/Berlin');
  assert.equal(resolveTimeZone(undefined, { TZ: ':America/New_York' }, {}), 'America/New_York');
  assert.equal(resolveTimeZone(undefined, { TZ: '/usr/share/zoneinfo/Asia/Tokyo' }, {}), 'Asia/Tokyo');
  assert.equal(resolveTimeZone(undefined, { TZ: '' }, { tz: 'Asia/Tokyo' }), 'Asia/Tokyo');
  assert.equal(resolveTimeZone(undefined, {}, {}), new Intl.DateTimeFormat().resolvedOptions().timeZone);
  assert.throws(() => resolveTimeZone('Mars/Olympus', {}, {}), (e: unknown) => e instanceof UsageError && /--tz: unknown time zone "Mars\/Olympus"/.test(e.message));
  assert.throws(() => resolveTimeZone(undefined, { TZ: 'Nowhere/City' }, {}), (e: unknown) => e instanceof UsageError && /^TZ: unknown/.test(e.message));
  // A POSIX rule of a fixed offset in whole hours, as the C library reads TZ (hours west positive).
  for (const [tz, zone] of [['JST-9', 'Etc/GMT-9'], ['EST5', 'Etc/GMT+5'], ['<+03>-3', 'Etc/GMT-3'], ['UTC0', 'UTC'], ['XYZ-14', 'Etc/GMT-14']]) {
    assert.equal(resolveTimeZone(undefined, { TZ: tz }, {}), zone, tz);
    assert.equal(offsetAt(1_795_000_000, zone), -Number(tz.replace(/^(<[^>]*>|[A-Za-z]+)/, '')) * 3600 || 0, `${tz}: east of UTC as the rule says`);
  }
  // One with daylight saving or minutes is not read: a usage error that says why.
  for (const tz of ['CET-1CEST,M3.5.0,M10.5.0/3', 'IST-5:30']) {
    assert.throws(() => resolveTimeZone(undefined, { TZ: tz }, {}), (e: unknown) => e instanceof UsageError && /POSIX rule/.test(e.message), tz);
  }
  assert.equal(validateSetting('tz', ' europe/berlin '), 'Europe/Berlin');
  assert.throws(() => validateSetting('tz', 'Europe/Atlantis'), UsageError);
});

test('terminal cells: clock times in the zone, the date only where it changes, ages, durations as 1h 12m', () => {
  assert.deepEqual(formatClock(utc(2026, 10, 25, 0, 30, 5), 'Europe/Berlin', true), { date: '2026-10-25', time: '02:30:05' });
  assert.deepEqual(formatClock(utc(2026, 10, 25, 1, 30), 'Europe/Berlin'), { date: '2026-10-25', time: '02:30' });
  const start = { key: 'start', kind: 'time' as const };
  const end = { key: 'end', kind: 'time' as const };
  const clock = new TtyClock(Date.UTC(2026, 10, 27), 'America/New_York');
  assert.equal(ttyCellText(utc(2026, 11, 26, 2, 44), start, clock), '2026-11-25 21:44', 'the first row shows the date');
  assert.equal(ttyCellText(utc(2026, 11, 26, 3, 2), start, clock), '22:02', 'the same date: the time alone');
  assert.equal(ttyCellText(utc(2026, 11, 26, 3, 2), end, clock), '2026-11-25 22:02', 'each column keeps its own');
  assert.equal(ttyCellText(utc(2026, 11, 26, 5, 1), start, clock), '2026-11-26 00:01', 'a new date shows');
  assert.equal(ttyCellText(0, start, clock), '', 'no time known: an empty cell');
  assert.equal(ttyCellText(utc(2026, 11, 26, 23), { key: 'seen', kind: 'age' }, clock), '1 h ago');
  assert.equal(ttyCellText(0, { key: 'seen', kind: 'age' }, clock), 'never');
  const duration = { key: 'duration', kind: 'duration' as const };
  assert.deepEqual([4320, 1111, 45, 0, 93_600, 3600].map((s) => ttyCellText(s, duration, clock)), ['1h 12m', '18m 31s', '45s', '0s', '1d 2h', '1h']);
  assert.equal(formatSpan(242), '4m 2s');
  // Two units, the second rounded (not cut: a stop of 24h 37m is not shown as one day), 0 shown unless exact.
  const cases: Array<[number, string]> = [
    [0, '0s'], [45, '45s'], [60, '1m'], [725, '12m 5s'], [3600, '1h'], [3660, '1h 1m'], [4320, '1h 12m'],
    [88_634, '1d 1h'], [86_400, '1d'], [86_430, '1d 0h'], [86_399, '1d 0h'], [3599, '59m 59s'], [3_570, '59m 30s'],
    [7_199.4, '2h 0m'], [-4320, '-1h 12m'], [183_600, '2d 3h'],
  ];
  for (const [seconds, shown] of cases) assert.equal(formatSpan(seconds), shown, String(seconds));
  assert.deepEqual(withZoneHeader([{ key: 'did' }, start, end], 'Asia/Tokyo').map((c) => c.header), [undefined, 'START (Asia/Tokyo)', undefined]);
});

test('map pages label their times in the zone and name it', () => {
  const trip = { did: 1, name: 'A', start: utc(2026, 10, 24, 22), end: utc(2026, 10, 25, 1), duration: 10_800, distanceKm: 1, startLat: 1, startLng: 2, endLat: 3, endLng: 4 };
  const page = tripsPageData([trip], [], 'Europe/Berlin');
  // 22:00 UTC is midnight in CEST; 01:00 UTC is after the change, 02:00 CET.
  assert.match(page.subtitle, /^2026-10-25 00:00 – 2026-10-25 02:00 Europe\/Berlin · /);
  assert.equal(page.zone, 'Europe/Berlin', 'the page script formats popups in it');
  const units = unitsPageData([], { nowMs: Date.UTC(2026, 10, 26, 20), staleS: 86400, zone: 'Asia/Tokyo' });
  assert.match(units.subtitle, /^as of 2026-11-27 05:00 Asia\/Tokyo · /);
});

test('UTC without Intl: every name Intl reads as UTC, and its wall clock and dates, are what Intl says', () => {
  // The names Intl calls UTC (V8's canonical list), in any case; names beside them are not UTC.
  for (const name of ['UTC', 'utc', 'Etc/UTC', 'etc/utc', 'UCT', 'Etc/UCT', 'GMT', 'Etc/GMT', 'GMT0', 'Etc/GMT0', 'GMT+0', 'Etc/GMT+0', 'GMT-0', 'Etc/GMT-0', 'Greenwich', 'Etc/Greenwich', 'Universal', 'Etc/Universal', 'Zulu', 'Etc/Zulu', ' utc ']) {
    assert.equal(new Intl.DateTimeFormat('en-US', { timeZone: name.trim() }).resolvedOptions().timeZone, 'UTC', `Intl: ${name}`);
    assert.ok(isUtcName(name.trim()), name);
    assert.equal(validateTimeZone(name), 'UTC', name);
  }
  for (const name of ['Etc/GMT+1', 'Etc/GMT-0 ', 'Europe/London', 'Africa/Abidjan', 'Atlantic/Reykjavik', 'WET']) {
    assert.ok(!isUtcName(name), name);
    if (name.trim() === name) assert.notEqual(validateTimeZone(name), 'UTC', name);
  }
  for (const name of ['Etc/UTC1', 'UTC/Etc', 'GMT+00']) {
    assert.ok(!isUtcName(name), name);
    assert.throws(() => validateTimeZone(name), UsageError, name);
  }
  // The machine's zone from where /etc/localtime points (absolute or relative); anything else is Intl's.
  const intlLocal = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  assert.equal(localTimeZone('/usr/share/zoneinfo/Etc/UTC'), 'UTC');
  assert.equal(localTimeZone('../usr/share/zoneinfo/UTC'), 'UTC');
  assert.equal(localTimeZone('/var/db/timezone/zoneinfo/GMT'), 'UTC');
  assert.equal(localTimeZone('/usr/share/zoneinfo/Europe/Berlin'), intlLocal);
  assert.equal(localTimeZone(undefined), intlLocal);
  // Wall clocks and dates: Date's UTC against Intl's, over leap days, year ends, 1970 and far years, and random seconds.
  const intlWall = new Intl.DateTimeFormat('en-US', { timeZone: 'Etc/UTC', calendar: 'gregory', numberingSystem: 'latn', hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  const seconds = [0, -1, 59, 951_782_399, 951_782_400, 1_709_164_800, 1_767_225_599, 1_767_225_600, 4_102_444_800, 253_402_300_799];
  let seed = 7;
  for (let i = 0; i < 2000; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    seconds.push(seed * 2 + (i % 2) * 0.75);
  }
  const utcDays = new DayClock('Etc/UTC');
  for (const t of seconds) {
    const parts = Object.fromEntries(intlWall.formatToParts(Math.floor(t) * 1000).map((p) => [p.type, Number(p.value)]));
    const expected = { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
    assert.deepEqual(wallTime(t, 'UTC'), expected, `wall clock of ${t}`);
    const date = `${String(expected.year).padStart(4, '0')}-${String(expected.month).padStart(2, '0')}-${String(expected.day).padStart(2, '0')}`;
    if (t >= 0) assert.equal(utcDays.dateOf(t), date, `date of ${t}`);
  }
});
