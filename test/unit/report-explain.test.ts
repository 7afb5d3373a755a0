/**
 * `--explain` as text on stderr: its times on the invocation's zone's clock with the offset, so
 * a line read alone names its instant; UTC as before (`…Z`). Checked against Date.parse of what
 * is printed (an independent reader of RFC 3339 offsets) over instants through the year, in
 * zones with half- and quarter-hour offsets and daylight saving.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatExplanation, type ExplanationText } from '../../src/io/formats/report-explain.js';

const explanation = (from: number, to: number): ExplanationText => ({ did: 2004, name: 'Van 4', kind: 'stop', from, to, lat: 33.7485215, lng: -84.50361, reason: 'stayed' });
const TIME = /(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})([+-]\d{2}:\d{2})/g;

test('an explanation\'s times are the zone\'s clock with its offset, naming the same instants', () => {
  const zones = ['Asia/Tokyo', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'America/St_Johns', 'Australia/Lord_Howe', 'Europe/Berlin', 'Pacific/Chatham'];
  let seed = 7;
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (const zone of zones) {
    for (let k = 0; k < 200; k++) {
      const from = 1_767_225_600 + (next() % (366 * 86400)); // through 2026, both sides of each change of the clocks
      const to = from + (next() % 20000);
      const line = formatExplanation(explanation(from, to), zone);
      const times = [...line.matchAll(TIME)].map((m) => Date.parse(`${m[1]}T${m[2]}${m[3]}`) / 1000);
      assert.deepEqual(times, from === to ? [from] : [from, to], `${zone}: ${line}`);
    }
  }
  assert.equal(
    formatExplanation(explanation(1_782_900_000, 1_782_903_600), 'America/New_York'),
    'explain: 2004 (Van 4) stop 2026-07-01 06:00:00-04:00 → 2026-07-01 07:00:00-04:00 at 33.74852,-84.50361: stayed',
  );
  assert.equal(formatExplanation(explanation(1_767_225_600, 1_767_225_600), 'Asia/Kolkata'), 'explain: 2004 (Van 4) stop 2026-01-01 05:30:00+05:30 at 33.74852,-84.50361: stayed');
});

test('in UTC an explanation keeps its RFC 3339 times with Z', () => {
  for (const zone of ['UTC', 'Etc/UTC']) {
    assert.equal(formatExplanation(explanation(1_767_225_600, 1_767_229_200), zone), 'explain: 2004 (Van 4) stop 2026-01-01T00:00:00Z → 2026-01-01T01:00:00Z at 33.74852,-84.50361: stayed');
  }
});
