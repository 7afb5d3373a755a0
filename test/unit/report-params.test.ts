import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../../src/errors.js';
import { DEFAULTS, PARAM_FLAGS, validateParams } from '../../src/reports/params.js';
import { validateTimeZone } from '../../src/time-zone.js';
import { REPORT_HELP } from '../../src/commands/report/index.js';

test('defaults follow Traccar where it has them', () => {
  assert.deepEqual(validateParams(), DEFAULTS);
  assert.equal(DEFAULTS.minTripDistanceKm, 0.5);
  assert.equal(DEFAULTS.minTripDurationS, 300);
  assert.equal(DEFAULTS.minStopDurationS, 300);
  assert.equal(DEFAULTS.maxGapS, 3600);
  assert.equal(DEFAULTS.useMotionState, true);
  assert.ok(Object.isFrozen(DEFAULTS));
});

test('flag values are parsed from text, and undefined keeps the default', () => {
  const p = validateParams({ minTripDistanceKm: '1.5', minStopDurationS: 120, maxGapS: undefined, useMotionState: 'false', speedThreshold: '0' });
  assert.deepEqual(p, { ...DEFAULTS, minTripDistanceKm: 1.5, minStopDurationS: 120, useMotionState: false, speedThreshold: 0 });
});

test('bad values are usage errors naming the flag', () => {
  const bad: [string, unknown][] = [
    ['minTripDistanceKm', '-1'], ['minTripDurationS', 'five'], ['minStopDurationS', Number.NaN], ['speedThreshold', Infinity],
    ['maxGapS', 0], ['maxGapS', '1e999'], ['reorderWindowS', ''], ['useMotionState', 'maybe'], ['minTripDurationS', '10s'],
  ];
  for (const [key, value] of bad) {
    assert.throws(() => validateParams({ [key]: value }), (err: unknown) => {
      assert.ok(err instanceof UsageError, `${key}=${String(value)}`);
      assert.match(err.message, new RegExp(PARAM_FLAGS[key as keyof typeof PARAM_FLAGS]));
      return true;
    });
  }
  assert.throws(() => validateParams({ minTripDistance: 1 }), /unknown report parameter "minTripDistance"/);
});

test('time zones: IANA names are accepted, anything else is a usage error', () => {
  assert.equal(validateTimeZone('Europe/Berlin'), 'Europe/Berlin');
  assert.equal(validateTimeZone('UTC'), 'UTC');
  assert.equal(validateTimeZone('america/denver'), 'America/Denver');
  for (const tz of ['Mars/Olympus_Mons', '', 'Europe/Berlin; rm -rf', '+25:00']) {
    assert.throws(() => validateTimeZone(tz), UsageError, tz);
  }
});

test('trackctl report --help names every parameter flag and its default', () => {
  // durations as the flags take them (5m, 1h), other numbers as they are
  const shown = (key: string, v: number): string => (key.endsWith('S') ? (v % 3600 === 0 ? `${v / 3600}h` : `${v / 60}m`) : String(v));
  for (const [key, flag] of Object.entries(PARAM_FLAGS)) {
    assert.ok(REPORT_HELP.includes(flag.replace('--motion-state', '--no-motion-state')), `${flag} in the help`);
    const value = DEFAULTS[key as keyof typeof DEFAULTS];
    if (typeof value === 'number') assert.match(REPORT_HELP, new RegExp(`${flag}[^.]*\\(default ${shown(key, value).replace('.', '\\.')}[,)]`), `default of ${flag}`);
  }
});
