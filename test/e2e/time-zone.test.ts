/**
 * One zone per invocation, end to end: the same window typed in four zones' wall clocks (by
 * --tz and by TZ) asks the service the same thing and gets the same answers, across Berlin's
 * autumn daylight-saving change (2026-10-25, a 25-hour day); summary days are the zone's, cut
 * days partial; the profile's tz applies when neither --tz nor TZ is given; a zone nobody knows
 * is exit 2 before any request; and a terminal shows the clock times of that zone.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/cli.js';
import { needTool } from '../helpers/tools.js';
import { runPty } from '../helpers/pty.js';

// The sandbox's clock on Tuesday 2026-10-27 at noon UTC: its week of history holds Berlin's change.
const CLOCK_MS = Date.UTC(2026, 9, 27, 12);
// Berlin's Friday the 23rd to Monday the 26th, whole: 2026-10-22T22:00Z (CEST) to 2026-10-26T23:00Z (CET).
const FROM = Date.UTC(2026, 9, 22, 22) / 1000;
const TO = Date.UTC(2026, 9, 26, 23) / 1000;
/** That window as each zone's wall clock reads it, typed without an offset. */
const TYPED: Record<string, [string, string]> = {
  UTC: ['2026-10-22T22:00', '2026-10-26T23:00'],
  'America/New_York': ['2026-10-22T18:00', '2026-10-26T19:00'],
  'Asia/Tokyo': ['2026-10-23T07:00', '2026-10-27T08:00'],
  'Europe/Berlin': ['2026-10-23', '2026-10-27'],
};

interface Trip { start: number; end: number; duration: number; distanceKm: number }
interface Day { day: string; partial: boolean; stoppedTime: number; drivingTime: number; firstReport: number }

describe('one zone per invocation', () => {
  let h: Harness;
  before(async () => {
    // Tokens and session outlive the real clock's distance from the sandbox's.
    h = await startHarness({ now: () => CLOCK_MS, accessTtl: 400 * 86400, refreshTtl: 400 * 86400, sessionTtl: 400 * 86400, inProcess: true });
  });
  after(async () => h.close());

  /** The history request's from: and to:, as the service saw them. */
  const window = (): string[] => h.sent().filter((s) => s.includes('/reports/history/')).map((s) => /from:(\d+)\/to:(\d+)/.exec(s)?.slice(1).join('-') ?? s);

  test('the same window typed in UTC, New York, Tokyo and Berlin, by --tz and by TZ: the same request and the same trips', async () => {
    const absolute = await h.json<Trip[]>(['report', 'trips', '2004', '--from', String(FROM), '--to', String(TO)]);
    assert.ok(absolute.length > 3, 'the unit drove in the window');
    const history = await h.json<unknown[]>(['history', '2004', '--from', String(FROM), '--to', String(TO)]);
    for (const [zone, [from, to]] of Object.entries(TYPED)) {
      for (const how of ['--tz', 'TZ'] as const) {
        const args = ['--from', from, '--to', to, ...(how === '--tz' ? ['--tz', zone] : [])];
        const env = { TZ: how === 'TZ' ? zone : 'Pacific/Kiritimati' }; // --tz wins over TZ
        h.sandbox.clearRequests();
        assert.deepEqual(await h.json<Trip[]>(['report', 'trips', '2004', ...args], { env }), absolute, `${zone} by ${how}`);
        assert.deepEqual(window(), [`${FROM}-${TO}`], `${zone} by ${how}: the window asked for`);
        assert.deepEqual(await h.json<unknown[]>(['history', '2004', ...args], { env }), history, `history, ${zone} by ${how}`);
      }
    }
  });

  test("summary days are the zone's days: Berlin's Sunday of the change has 25 hours; days the window cuts are partial", async () => {
    const days = (zone: string, from: string, to: string, env: Record<string, string> = {}) =>
      h.json<Day[]>(['report', 'summary', '2004', '--from', from, '--to', to, ...(zone === '' ? [] : ['--tz', zone])], { env });
    const berlin = await days('Europe/Berlin', '2026-10-23', '2026-10-27');
    assert.deepEqual(berlin.map((d) => [d.day, d.partial]), [['2026-10-23', false], ['2026-10-24', false], ['2026-10-25', false], ['2026-10-26', false]]);
    assert.deepEqual(await days('', '2026-10-23', '2026-10-27', { TZ: 'Europe/Berlin' }), berlin, 'TZ gives the same days');
    // Sunday, parked (the van works Monday to Friday) and observed from before it began to after it ended: 25 hours.
    const sunday = berlin[2]!;
    assert.ok(sunday.firstReport >= Date.UTC(2026, 9, 24, 22) / 1000 && sunday.firstReport < Date.UTC(2026, 9, 25, 1) / 1000, 'the day began at 22:00 UTC the day before');
    assert.deepEqual([sunday.drivingTime, sunday.stoppedTime], [0, 25 * 3600]);
    assert.equal(berlin[1]!.stoppedTime, 24 * 3600, 'Saturday, parked: 24 hours');
    // The same instants in Tokyo: its 23rd began before the window and its 27th goes on after it.
    const tokyo = await days('Asia/Tokyo', ...TYPED['Asia/Tokyo']!);
    assert.deepEqual(tokyo.map((d) => [d.day, d.partial]), [
      ['2026-10-23', true], ['2026-10-24', false], ['2026-10-25', false], ['2026-10-26', false], ['2026-10-27', true],
    ]);
    // New York's days of the same window (its change comes a week later): every day 24 hours, the first and last cut.
    const newYork = await days('America/New_York', ...TYPED['America/New_York']!);
    assert.deepEqual(newYork.map((d) => d.partial), [true, false, false, false, true]);
    assert.equal(newYork.find((d) => d.day === '2026-10-25')!.stoppedTime, 24 * 3600);
  });

  test('history --partition day writes the zone\'s days', async () => {
    const files = (zone: string) => {
      const dir = join(h.dir, `days-${zone.replace('/', '-')}`);
      return h.run(['history', '2004', '--from', String(FROM), '--to', String(TO), '--out-dir', dir, '--partition', 'day', '--tz', zone, '-o', 'ndjson']).then((r) => {
        assert.equal(r.code, 0, r.stderr);
        return readdirSync(join(dir, '2004')).sort().map((name) => {
          const dates = readFileSync(join(dir, '2004', name), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { properties: { date: number } }).properties.date);
          return { name, first: Math.min(...dates), last: Math.max(...dates) };
        });
      });
    };
    const tokyo = await files('Asia/Tokyo');
    assert.deepEqual(tokyo.map((f) => f.name), ['2026-10-23.ndjson', '2026-10-24.ndjson', '2026-10-25.ndjson', '2026-10-26.ndjson', '2026-10-27.ndjson']);
    for (const f of tokyo) {
      const start = Date.UTC(2026, 9, Number(f.name.slice(8, 10)), -9) / 1000; // 00:00 in Tokyo (UTC+9)
      assert.ok(f.first >= start && f.last < start + 86400, `${f.name}: ${f.first}-${f.last} within Tokyo's day`);
    }
    const berlin = await files('Europe/Berlin');
    assert.deepEqual(berlin.map((f) => f.name), ['2026-10-23.ndjson', '2026-10-24.ndjson', '2026-10-25.ndjson', '2026-10-26.ndjson']);
    const sunday = berlin[2]!;
    assert.ok(sunday.first >= Date.UTC(2026, 9, 24, 22) / 1000 && sunday.last < Date.UTC(2026, 9, 25, 23) / 1000, 'the 25-hour Sunday');
    assert.ok(sunday.last - sunday.first > 24 * 3600, 'holds more than 24 hours of reports');
  });

  test("the profile's tz applies without --tz or TZ; a zone nobody knows is exit 2 before any request", async () => {
    const set = await h.run(['config', 'set', 'tz', 'asia/tokyo']);
    assert.equal(set.code, 0, set.stderr);
    try {
      h.sandbox.clearRequests();
      await h.json(['history', '2004', '--from', TYPED['Asia/Tokyo']![0], '--to', TYPED['Asia/Tokyo']![1]], { env: { TZ: undefined } });
      assert.deepEqual(window(), [`${FROM}-${TO}`], 'read in Tokyo');
      h.sandbox.clearRequests();
      await h.json(['history', '2004', '--from', TYPED.UTC[0], '--to', TYPED.UTC[1]], { env: { TZ: 'UTC' } });
      assert.deepEqual(window(), [`${FROM}-${TO}`], 'TZ before the profile');
      const bad = await h.run(['config', 'set', 'tz', 'Europe/Atlantis']);
      assert.equal(bad.code, 2, bad.stderr);
    } finally {
      await h.run(['config', 'unset', 'tz']);
    }
    await h.expectUsage(['report', 'trips', '2004', '--tz', 'Mars/Olympus_Mons', '--from', '1d'], '--tz: unknown time zone "Mars/Olympus_Mons"');
    await h.expectUsage(['units', '--tz', 'Nowhere'], '--tz: unknown time zone');
    h.sandbox.clearRequests();
    const r = await h.run(['history', '2004', '--from', '2026-10-24'], { env: { TZ: 'Not/AZone' } });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /TZ: unknown time zone "Not\/AZone"/);
    assert.deepEqual(h.sent(), []);
  });

  test('today and weekday names are the start of that day in the zone', async () => {
    // The binary's own clock is the real one: compute Tokyo's day (no daylight saving: UTC+9) around the run.
    const tokyoMidnight = (ms: number) => Math.floor((ms / 1000 + 9 * 3600) / 86400) * 86400 - 9 * 3600;
    const before = tokyoMidnight(Date.now());
    h.sandbox.clearRequests();
    await h.json(['history', '2004', '--from', 'today', '--tz', 'Asia/Tokyo']);
    await h.json(['history', '2004', '--from', 'yesterday', '--to', 'today', '--tz', 'Asia/Tokyo']);
    if (tokyoMidnight(Date.now()) !== before) return; // midnight in Tokyo passed during the runs
    const froms = h.sent().filter((s) => s.includes('/reports/history/')).map((s) => Number(/from:(\d+)/.exec(s)?.[1]));
    assert.deepEqual(froms, [before, before - 86400]);
  });

  test('a terminal shows clock times in the zone, named once, the date where it changes, durations as 1h 12m', async (t) => {
    if (!needTool(t, 'tmux')) return;
    const trips = await h.json<Trip[]>(['report', 'trips', '2004', '--from', String(FROM), '--to', String(TO)]);
    const berlinClock = (s: number) => new Date(s * 1000).toLocaleString('sv-SE', { timeZone: 'Europe/Berlin' }).slice(0, 16);
    for (const env of [{ TZ: 'Europe/Berlin' }, {}]) {
      const args = ['report', 'trips', '2004', '--from', String(FROM), '--to', String(TO), ...('TZ' in env ? [] : ['--tz', 'Europe/Berlin'])];
      const r = await runPty(args, { ...h.env, ...env }, { cols: 200, rows: 60 });
      assert.equal(r.code, 0, r.screen);
      const lines = r.screen.split('\n').filter((l) => l.trim() !== '');
      assert.match(lines[0]!, /START \(Europe\/Berlin\)\s+END\s+DURATION\b/, 'the zone named once, in the first time column');
      assert.doesNotMatch(r.screen, /Europe\/Berlin[^\n]*Europe\/Berlin/);
      assert.doesNotMatch(r.screen, /DURATION S|\d{4}-\d\d-\d\dT|\bago\b/);
      const rows = lines.slice(1);
      assert.equal(rows.length, trips.length, r.screen);
      let shownDate = '';
      trips.forEach((trip, i) => {
        const [date, time] = berlinClock(trip.start).split(' ');
        const expected = date === shownDate ? ` ${time}  ` : ` ${date} ${time}  `;
        shownDate = date!;
        assert.ok(rows[i]!.includes(expected), `row ${i}: "${expected}" (the start in Berlin) in ${rows[i]}`);
        const span = trip.duration >= 3600 ? `${Math.floor(trip.duration / 3600)}h` : `${Math.floor(trip.duration / 60)}m`;
        assert.match(rows[i]!, new RegExp(`\\s${span}( \\d+[ms])?\\s`), `row ${i}: its duration ${trip.duration} s`);
      });
      // Both sides of the change: trips on Friday (CEST, UTC+2) and on Monday (CET, UTC+1).
      const dates = new Set(trips.map((trip) => berlinClock(trip.start).slice(0, 10)));
      assert.ok(dates.has('2026-10-23') && dates.has('2026-10-26'), [...dates].join(', '));
    }
  });
});
