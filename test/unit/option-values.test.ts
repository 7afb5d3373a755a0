/** What an option's text means (commands/values.ts): each reader's bounds, forms and words. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { amount, anySeconds, bytes, percent, positiveInt, seconds, whole } from '../../src/commands/values.js';
import { parseExpiresIn } from '../../src/commands/shares/validate.js';
import { UsageError } from '../../src/errors.js';

const refused = (read: () => unknown, message: RegExp) => assert.throws(read, (e: unknown) => e instanceof UsageError && message.test(e.message));

test('whole numbers and counts: bounds inclusive, no sign, no fraction', () => {
  assert.equal(whole(1, 64)(' 64 ', '--concurrency'), 64);
  for (const text of ['0', '65', '-1', '1.5', '', 'eight', '1e3']) refused(() => whole(1, 64)(text, '--concurrency'), /^invalid --concurrency ".*": expected a whole number from 1 to 64$/);
  assert.equal(positiveInt('25', '--limit'), 25);
  for (const text of ['0', '-2', '2.5', 'x']) refused(() => positiveInt(text, '--limit'), /^invalid --limit ".*": expected a positive integer$/);
});

test('amounts and percentages', () => {
  assert.equal(amount('non-negative', 'km')('0', '--min-trip-distance'), 0);
  assert.equal(amount('positive', 'km/h')('.5', '--limit'), 0.5);
  assert.equal(amount('positive')('1e2', '--stop-radius'), 100);
  refused(() => amount('positive', 'km/h')('0', '--limit'), /^invalid --limit "0": expected a positive number \(km\/h\)$/);
  for (const text of ['-1', 'NaN', 'Infinity', '5 km', '']) refused(() => amount('non-negative')(text, '--speed-threshold'), /^invalid --speed-threshold/);
  assert.equal(percent('25%', '--low-battery'), 25);
  assert.equal(percent('0.5', '--low-battery'), 0.5);
  for (const text of ['0', '101', '-5', 'low']) refused(() => percent(text, '--low-battery'), /expected a percentage from 1 to 100/);
});

test('durations in seconds, with their lower bounds', () => {
  assert.equal(seconds(1)('2d3h30m', '--interval'), 2 * 86400 + 3 * 3600 + 1800);
  assert.equal(seconds(1)('90', '--interval'), 90);
  refused(() => seconds(1)('0.5s', '--interval'), /^invalid --interval "0.5s": at least 1s$/);
  refused(() => seconds()('0', '--timeout'), /^invalid --timeout "0": must be more than zero$/);
  refused(() => seconds()('soon', '--timeout'), /^invalid --timeout: invalid duration "soon": use forms like 90s/);
  assert.equal(anySeconds('0', '--min-stop'), 0);
  refused(() => anySeconds('-5m', '--min-stop'), /^invalid --min-stop: invalid duration "-5m"/);
});

test('sizes in bytes, decimal and binary units, 1 KB to 5 TB', () => {
  assert.equal(bytes('128MB', '--max-file-size'), 128e6);
  assert.equal(bytes('1GiB', '--max-file-size'), 1024 ** 3);
  assert.equal(bytes('500k', '--max-file-size'), 500e3);
  refused(() => bytes('999', '--max-file-size'), /from 1KB to 5TB/);
  refused(() => bytes('6TB', '--max-file-size'), /use a size such as|from 1KB to 5TB/);
  refused(() => bytes('1 parsec', '--max-file-size'), /use a size such as 128MB/);
});

test('--expires-in: whole minutes as the service counts them, or never', () => {
  assert.deepEqual(parseExpiresIn('2d3h30m'), { days: '2', hours: '3', minutes: '30' });
  assert.deepEqual(parseExpiresIn('90m'), { days: '0', hours: '1', minutes: '30' });
  assert.equal(parseExpiresIn(' Never '), 'never');
  refused(() => parseExpiresIn('90s'), /whole minutes/);
  refused(() => parseExpiresIn('0m'), /more than zero/);
  refused(() => parseExpiresIn('2x'), /^invalid --expires-in: invalid duration "2x"/);
});
