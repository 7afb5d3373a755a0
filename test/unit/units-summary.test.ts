import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summaryLines, type SummaryParts } from '../../src/commands/units/summary.js';
import { displayWidth } from '../../src/io/formats/render/width.js';

const fleet: SummaryParts = {
  counts: ['15 devices', '4 sensors', '3 tracked users', '3 dispatchers'],
  stale: 4,
  staleLabel: '1d',
  low: 3,
  lowPct: 20,
};

test('the units summary is one line when the terminal is wide enough', () => {
  assert.deepEqual(summaryLines(fleet, 120), [
    '15 devices, 4 sensors, 3 tracked users, 3 dispatchers · 4 stale (no report in 1d) · 3 low on battery (<20%)',
  ]);
});

test('at 60 columns the summary splits between its sections, never inside one', () => {
  const lines = summaryLines(fleet, 60);
  assert.deepEqual(lines, ['15 devices, 4 sensors, 3 tracked users, 3 dispatchers', '4 stale (no report in 1d) · 3 low on battery (<20%)']);
});

test('narrower still: short notes, counts broken after a comma; every line fits', () => {
  for (const width of [50, 40, 30, 24]) {
    const lines = summaryLines(fleet, width);
    for (const line of lines) assert.ok(displayWidth(line) <= width, `${JSON.stringify(line)} fits in ${width}`);
    assert.match(lines.join(' '), /15 devices, 4 sensors, 3 tracked users, 3 dispatchers/);
    assert.match(lines.join(' '), /4 stale \(>1d\)/);
    assert.match(lines.join(' '), /3 low battery \(<20%\)/);
  }
  assert.deepEqual(summaryLines(fleet, 40), [
    '15 devices, 4 sensors, 3 tracked users,',
    '3 dispatchers',
    '4 stale (>1d) · 3 low battery (<20%)',
  ]);
});

test('sections pack greedily: one category fits on a line with the stale note', () => {
  const sensors = { ...fleet, counts: ['4 sensors'] };
  assert.deepEqual(summaryLines(sensors, 70), ['4 sensors · 4 stale (no report in 1d) · 3 low on battery (<20%)']);
  assert.deepEqual(summaryLines(sensors, 60), ['4 sensors · 4 stale (no report in 1d)', '3 low on battery (<20%)']);
});
