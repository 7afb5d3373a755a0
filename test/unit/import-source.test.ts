import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CsvSyntaxError, readCsv } from '../../src/import/csv.js';
import { formatFromName, parseSource, sniffFormat } from '../../src/import/source.js';
import { parseGroupCell, validateRows } from '../../src/import/schema.js';

test('readCsv: quoted cells, doubled quotes, commas and newlines inside quotes; start lines', () => {
  const recs = readCsv('a,b\r\n"x, ""y""","multi\nline"\n\nlast,\n');
  assert.deepEqual(recs, [
    { line: 1, cells: ['a', 'b'] },
    { line: 2, cells: ['x, "y"', 'multi\nline'] },
    { line: 5, cells: ['last', ''] },
  ]);
  assert.deepEqual(readCsv('\uFEFFa\nb'), [{ line: 1, cells: ['a'] }, { line: 2, cells: ['b'] }]);
});

test('readCsv: malformed input names the line', () => {
  const at = (text: string): [number, string] => {
    try {
      readCsv(text);
    } catch (err) {
      if (err instanceof CsvSyntaxError) return [err.line, err.message];
      throw err;
    }
    return [0, ''];
  };
  assert.equal(at('a\n"open\nnever closed')[0], 2);
  assert.match(at('a\nb"c')[1], /inside an unquoted cell/);
  assert.match(at('a\n"b"c')[1], /after a closing quote/);
});

test('format from the extension, else sniffed', () => {
  assert.equal(formatFromName('x.CSV'), 'csv');
  assert.equal(formatFromName('x.jsonl'), 'ndjson');
  assert.equal(formatFromName('x.json'), 'json');
  assert.equal(formatFromName('x.txt'), undefined);
  assert.equal(sniffFormat('  \n[{}]'), 'json');
  assert.equal(sniffFormat('{"a":1}'), 'ndjson');
  assert.equal(sniffFormat('name,email'), 'csv');
});

test('JSON array: each element keeps its line; a syntax error names the element line', () => {
  const ok = parseSource('[\n {"a": "x,]"},\n\n {\n  "a": 2\n }\n]', 'json');
  assert.deepEqual(ok.rows.map((r) => r.line), [2, 4]);
  const bad = parseSource('[\n {"a": 1},\n {"a": }\n]', 'json');
  assert.equal(bad.issues[0]?.line, 3);
  assert.doesNotMatch(bad.issues[0]?.message ?? '', /\n/);
});

test('group cells: ";", "," and spaces, arrays, numbers; duplicates dropped', () => {
  assert.deepEqual(parseGroupCell('101;102 103,101', 'groups'), [101, 102, 103]);
  assert.deepEqual(parseGroupCell([101, '102'], 'groups'), [101, 102]);
  assert.deepEqual(parseGroupCell(7, 'groups'), [7]);
  assert.deepEqual(parseGroupCell('', 'groups'), []);
  assert.throws(() => parseGroupCell('1;a', 'groups'), /group id "a"/);
});

test('validateRows: aliases, every problem per row, typed bodies', () => {
  const src = parseSource('Name,TrackerID,device_type,SIM Phone\nVan,K1,T,+15551234567\n,bad\u0001key,,x\n', 'csv');
  const v = validateRows('devices', src);
  assert.deepEqual(v.rows.map((r) => r.body), [{ name: 'Van', trackerID: 'K1', deviceType: 'T', simPhoneNumber: '+15551234567' }]);
  assert.deepEqual(v.issues.map((i) => i.line), [3, 3, 3, 3]);
  const users = validateRows('users', parseSource('{"name":"A","email":"A@x.io","type":"TRACKEDUSER"}', 'ndjson'));
  assert.deepEqual(users.rows[0]?.body, { name: 'A', email: 'A@x.io', userType: 'trackedUser' });
  assert.equal(users.rows[0]?.match, 'a@x.io');
});
