/**
 * DayClock keeps the days it found: a stream asks for the day before and the day after in turn
 * around each midnight (a move across it, the summary's own rows), and each day is found once.
 * Whatever the order of the questions, each answer is the one a new clock gives for that
 * second alone, and the local date Intl formats there, across daylight-saving changes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DayClock } from '../../src/reports/days.js';
import { seeded } from '../helpers/messy-json.js';

const utc = (y: number, m: number, d: number, h = 0) => Date.UTC(y, m - 1, d, h) / 1000;

/** The local date at unix second t, straight from Intl. */
function localDate(tz: string, t: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(t * 1000);
  const get = (type: string) => parts.find((p) => p.type === type)?.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

// Zones with 23- and 25-hour days, a half-hour change (Lord Howe), a skipped day (Apia, 2011-12-30) and none (UTC).
const CASES: [string, number][] = [
  ['Europe/Berlin', utc(2026, 3, 28)],
  ['Europe/Berlin', utc(2026, 10, 24)],
  ['America/Denver', utc(2026, 3, 7)],
  ['America/Denver', utc(2026, 10, 31)],
  ['Australia/Lord_Howe', utc(2026, 4, 3)],
  ['Pacific/Apia', utc(2011, 12, 28)],
  ['UTC', utc(2026, 12, 30)],
];

test('DayClock: days asked back and forth across daylight-saving changes are the days a new clock finds for each second, dated as Intl dates them', () => {
  for (const [tz, from] of CASES) {
    const clock = new DayClock(tz);
    const r = seeded(from);
    // a stream in date order, with a look back now and then (the start of a move, the day before)
    let t = from;
    for (let k = 0; k < 400; k++) {
      t += r.int(1800);
      const asked = r.chance(0.3) ? t - r.int(30 * 3600) : t;
      const day = clock.dayOf(asked);
      assert.deepEqual(day, new DayClock(tz).dayOf(asked), `${tz} at ${asked}`);
      assert.equal(day.key, localDate(tz, asked), `${tz} at ${asked}: the date`);
      assert.ok(day.start <= asked && asked < day.end, `${tz} at ${asked}: within its day`);
      assert.equal(localDate(tz, day.start - 1) < day.key && localDate(tz, day.end) > day.key, true, `${tz}: ${day.key} from its first second to its last`);
    }
  }
});
