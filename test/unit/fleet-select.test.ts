/** Unit selection: parsed before anything is sent. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSelection } from '../../src/runs/selection.js';
import { UsageError } from '../../src/errors.js';

test('one way of choosing units, each checked', () => {
  assert.deepEqual(parseSelection(['2004', '2005,2016', '2004'], {}), { kind: 'ids', ids: [2004, 2005, 2016] });
  assert.deepEqual(parseSelection([], { group: 101 }), { kind: 'group', gid: 101 });
  assert.deepEqual(parseSelection([], { category: 'trackeduser' }), { kind: 'category', category: 'trackedUser' });
  assert.deepEqual(parseSelection([], { allUnits: true }), { kind: 'all' });
  const bad: Array<[string[], Record<string, unknown>, RegExp]> = [
    [[], {}, /no units selected/],
    [['1'], { allUnits: true }, /cannot be combined/],
    [[], { group: 1, category: 'device' }, /cannot be combined/],
    [[], { category: 'dispatcher' }, /--category/],
    [['x'], {}, /unit id/],
  ];
  for (const [args, flags, message] of bad) {
    assert.throws(() => parseSelection(args, flags), (e: unknown) => e instanceof UsageError && message.test(e.message), JSON.stringify([args, flags]));
  }
});
