import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../../src/errors.js';
import { formatRelative, formatRfc3339, parseDuration, parseTime } from '../../src/io/format-time.js';

const NOW_MS = Date.UTC(2026, 10, 21, 10, 0, 0); // 2026-11-21T10:00:00Z
const NOW_S = NOW_MS / 1000;
const UTC = { zone: 'UTC' };

test('formatRelative reads like a person would say it', () => {
  assert.equal(formatRelative(NOW_S - 20, NOW_MS), 'just now');
  assert.equal(formatRelative(NOW_S - 5 * 60, NOW_MS), '5 min ago');
  assert.equal(formatRelative(NOW_S - 3 * 3600 - 59, NOW_MS), '3 h ago');
  assert.equal(formatRelative(NOW_S - 2 * 86400, NOW_MS), '2 d ago');
  assert.equal(formatRelative(NOW_S + 4 * 3600, NOW_MS), 'in 4 h');
  assert.equal(formatRelative(NOW_S + 30, NOW_MS), 'in 30 s');
  assert.equal(formatRelative(NOW_S - 90 * 86400, NOW_MS), '2026-08-23');
  assert.equal(formatRelative(Number.NaN, NOW_MS), '—');
});

test('formatRfc3339 is UTC without milliseconds unless there are some', () => {
  assert.equal(formatRfc3339(NOW_S), '2026-11-21T10:00:00Z');
  assert.equal(formatRfc3339(NOW_S + 0.5), '2026-11-21T10:00:00.500Z');
});

test('parseDuration accepts compound and long forms', () => {
  assert.equal(parseDuration('2d3h30m'), 2 * 86400 + 3 * 3600 + 30 * 60);
  assert.equal(parseDuration('15m'), 900);
  assert.equal(parseDuration('90s'), 90);
  assert.equal(parseDuration('1w'), 7 * 86400);
  assert.equal(parseDuration('1.5h'), 5400);
  assert.equal(parseDuration('500ms'), 0.5);
  assert.equal(parseDuration('2 hours 5 min'), 7500);
  assert.equal(parseDuration('30'), 30, 'a bare number is seconds');
});

test('parseDuration rejects anything else, naming the value and the forms', () => {
  for (const bad of ['', 'soon', '3x', '2h-', '-5m', 'h2', '3d ago']) {
    assert.throws(() => parseDuration(bad), (error: unknown) => {
      assert.ok(error instanceof UsageError);
      assert.ok(error.message.includes(`"${bad}"`));
      assert.match(error.message, /15m/);
      return true;
    });
  }
});

test('parseTime: unix seconds, now, ISO dates and date-times', () => {
  assert.equal(parseTime('1700000000', NOW_MS, UTC), 1_700_000_000);
  assert.equal(parseTime('now', NOW_MS, UTC), NOW_S);
  assert.equal(parseTime(' NOW ', NOW_MS, UTC), NOW_S);
  assert.equal(parseTime('2026-11-21', NOW_MS, UTC), NOW_S - 10 * 3600, 'a date is midnight in the zone');
  assert.equal(parseTime('2026-11-21T10:00:00Z', NOW_MS, UTC), NOW_S);
  assert.equal(parseTime('2026-11-21T10:00', NOW_MS, UTC), NOW_S, 'no offset: the zone\'s wall clock');
  assert.equal(parseTime('2026-11-21 12:00:00+02:00', NOW_MS, UTC), NOW_S);
  assert.equal(parseTime('2026-11-21T05:30:00-0430', NOW_MS, UTC), NOW_S);
  assert.equal(parseTime('2026-11-21T10:00:00.250Z', NOW_MS, UTC), NOW_S + 0.25);
});

test('parseTime: relative forms, past by default, future when asked', () => {
  assert.equal(parseTime('15m', NOW_MS, UTC), NOW_S - 900);
  assert.equal(parseTime('2h ago', NOW_MS, UTC), NOW_S - 7200);
  assert.equal(parseTime('3d', NOW_MS, UTC), NOW_S - 3 * 86400);
  assert.equal(parseTime('3d', NOW_MS, { direction: 'future', zone: 'UTC' }), NOW_S + 3 * 86400);
  assert.equal(parseTime('in 2h', NOW_MS, UTC), NOW_S + 7200);
  assert.equal(parseTime('+2h', NOW_MS, UTC), NOW_S + 7200);
  assert.equal(parseTime('2h ago', NOW_MS, { direction: 'future', zone: 'UTC' }), NOW_S - 7200, 'explicit words win');
  assert.equal(parseTime('1d2h', NOW_MS, UTC), NOW_S - 86400 - 7200);
});

test('parseTime rejects bad input with the accepted forms', () => {
  for (const bad of ['yesterday-ish', '2026-13-01', '2026-02-30', '2026-11-21T25:00', '', 'in', '1700000000000']) {
    assert.throws(() => parseTime(bad, NOW_MS, UTC), (error: unknown) => {
      assert.ok(error instanceof UsageError, bad);
      assert.ok(error.message.includes(`"${bad}"`));
      return true;
    });
  }
  assert.throws(() => parseTime('someday', NOW_MS, UTC), /unix seconds, an ISO 8601 date.*2h ago/);
  assert.throws(() => parseTime('1700000000000', NOW_MS, UTC), /milliseconds/);
});
