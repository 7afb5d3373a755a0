/** -o custom-columns: kubectl's spec and path syntax, and what a path selects from a record. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../../src/errors.js';
import { customValue, parseCustomColumns, parseCustomColumnsFile, parsePath, selectPath } from '../../src/io/formats/render/custom-columns.js';

const rec = {
  did: 7,
  name: 'Van',
  position: { lat: 52.1, lng: 4.3, fix: null },
  groups: [101, 103, 105],
  tags: [{ k: 'a' }, { k: 'b' }],
  'odd key': 'x',
};

test('paths: dots, indexes (negative from the end), [*], braces, quoted keys, a missing leading dot', () => {
  assert.deepEqual(parsePath('.position.lat'), ['position', 'lat']);
  assert.deepEqual(parsePath('{.groups[0]}'), ['groups', 0]);
  assert.deepEqual(parsePath('groups[-1]'), ['groups', -1]);
  assert.deepEqual(parsePath(".tags[*].k"), ['tags', { every: true }, 'k']);
  assert.deepEqual(parsePath(".['odd key']"), ['odd key']);
  for (const bad of ['', '.', '.a..b', '.a[', '.a[x]', '.a b']) assert.throws(() => parsePath(bad), UsageError, bad);
});

test('selection: nested values, indexes, every element; nothing for what is missing or of the wrong kind', () => {
  assert.deepEqual(selectPath(rec, parsePath('.position.lat')), [52.1]);
  assert.deepEqual(selectPath(rec, parsePath('.groups[1]')), [103]);
  assert.deepEqual(selectPath(rec, parsePath('.groups[-1]')), [105]);
  assert.deepEqual(selectPath(rec, parsePath('.groups[3]')), []);
  assert.deepEqual(selectPath(rec, parsePath('.tags[*].k')), ['a', 'b']);
  assert.deepEqual(selectPath(rec, parsePath('.name.first')), []);
  assert.deepEqual(selectPath(rec, parsePath('.position[0]')), []);
  assert.deepEqual(selectPath(rec, parsePath('.constructor')), [], 'own keys only');
});

test('a cell: the value, several joined with ",", objects as JSON, <none> for missing or null', () => {
  const cell = (path: string): unknown => customValue(rec, { header: 'X', path, steps: parsePath(path) });
  assert.equal(cell('.did'), 7);
  assert.equal(cell('.groups[*]'), '101,103,105');
  assert.equal(cell('.tags[0]'), '{"k":"a"}');
  assert.equal(cell('.position.fix'), '<none>');
  assert.equal(cell('.nope'), '<none>');
});

test("specs: HEADER:path split at the first ':', headers may hold spaces; the file form", () => {
  assert.deepEqual(
    parseCustomColumns('ID:.did,LAST FIX:.position.lat').map((c) => [c.header, c.path]),
    [['ID', '.did'], ['LAST FIX', '.position.lat']],
  );
  for (const bad of ['', 'ID', 'ID:', ':.did', 'ID:.did,']) assert.throws(() => parseCustomColumns(bad), UsageError, bad);
  assert.deepEqual(
    parseCustomColumnsFile('ID    LAT\n.did  .position.lat\n', 'f').map((c) => [c.header, c.path]),
    [['ID', '.did'], ['LAT', '.position.lat']],
  );
  assert.throws(() => parseCustomColumnsFile('ID LAT\n.did\n', 'f'), /two lines/);
  assert.throws(() => parseCustomColumnsFile('ID\n.did\n.x\n', 'f'), /two lines/);
});
