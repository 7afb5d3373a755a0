/** import: every invalid input is exit 2, lists every bad row by line and field, and sends nothing. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/cli.js';

describe('import: invalid input (end to end)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => h.close());

  const file = (name: string, text: string): string => h.file(name, text);
  /** Runs, expects exit 2 with nothing sent, and returns the error lines. */
  async function rejected(args: string[], input?: string): Promise<string> {
    h.sandbox.clearRequests();
    const r = await h.run(args, input === undefined ? {} : { input });
    assert.equal(r.code, 2, `exit 2 for ${args.join(' ')}: ${r.stderr}`);
    assert.deepEqual(h.sandbox.requests.map((x) => `${x.method} ${x.path}`), [], 'nothing is sent');
    assert.equal(r.stdout, '');
    return r.stderr;
  }

  test('a JSON array on one line: each bad element is told by its item, and counted once', async () => {
    const json = file('one-line.json', JSON.stringify([
      { name: 'E1', email: 'e1@example.com', type: 'dispatcher' },
      { name: '', email: 'e2@example.com', type: 'dispatcher' },
      { name: 'E3', email: 'bad', type: 'dispatcher' },
      { name: 'E4', email: 'e1@example.com', type: 'dispatcher' },
    ]));
    const err = await rejected(['users', 'import', json]);
    assert.match(err, /3 invalid rows; nothing was sent/);
    assert.match(err, /item 2 \(line 1\): missing name/);
    assert.match(err, /item 3 \(line 1\): email "bad"/);
    assert.match(err, /item 4 \(line 1\): email "e1@example.com" repeats item 1 \(line 1\)/);
  });

  test('devices CSV: every bad row and field is listed by line', async () => {
    const csv = file('bad.csv', [
      'name,tracker-id,type,sim-phone,groups',
      'Good,OK-0001,TT8850,,',
      ',OK-0002,TT8850,,', // 3: missing name
      'Van,12\u000734,TT8850,,', // 4: bad key (a control character; spaces and the like are fine)
      'Van,OK-0004,,,', // 5: missing type
      'Van,OK-0005,TT8850,call me,', // 6: bad phone
      'Van,OK-0006,TT8850,,101;x', // 7: bad group id
      'Van,OK-0001,TT8850,,', // 8: duplicate of line 2
      'Van,,TT8850,,0', // 9: missing key and bad group
      'Van,OK-0009,TT8850', // 10: too few cells
    ].join('\n'));
    const err = await rejected(['devices', 'import', csv]);
    assert.match(err, /8 invalid rows; nothing was sent/);
    for (const line of [
      'line 3: missing name',
      'line 4: tracker-id "12\\u000734": control characters are not allowed',
      'line 5: missing type',
      'line 6: sim-phone "call me": expected a telephone number',
      'line 7: groups "101;x": group id "x" is not a positive integer',
      'line 8: tracker-id "OK-0001" repeats line 2',
      'line 9: missing tracker-id',
      'line 9: groups "0": group id "0" is not a positive integer',
      'line 10: expected 5 cells (as in the header), found 3',
    ]) assert.ok(err.includes(line), `${line}\n--- in ---\n${err}`);
    assert.doesNotMatch(err, /line 2:/);
  });

  test('users: bad e-mail, bad type, duplicate e-mail (any case), bad viewer group', async () => {
    const err = await rejected(['users', 'import', '-'], [
      '{"name":"A","email":"a@example.com","type":"dispatcher"}',
      '{"name":"B","email":"not-an-address","type":"dispatcher"}',
      '{"name":"C","email":"c@example.com","type":"admin"}',
      '{"name":"D","email":"A@Example.com","userType":"trackedUser"}',
      '{"name":"E","email":"e@example.com","type":"dispatcher","viewer-groups":"1;-2"}',
      '{"name":["x"],"email":"f@example.com","type":"dispatcher"}',
    ].join('\n'));
    for (const line of [
      'line 2: email "not-an-address": expected an address',
      'line 3: type "admin": use one of trackedUser, dispatcher',
      'line 4: email "A@Example.com" repeats line 1',
      'line 5: viewer-groups "1;-2": group id "-2"',
      'line 6: name: expected text, got an array',
    ]) assert.ok(err.includes(line), `${line}\n--- in ---\n${err}`);
  });

  test('unknown column, repeated column, missing column; unknown JSON field', async () => {
    const err = await rejected(['devices', 'import', file('cols.csv', 'name,tracker-id,colour,trackerID\nVan,K-1,red,K-1\n')]);
    assert.match(err, /line 1: unknown column "colour": expected name, tracker-id, type, sim-phone, groups/);
    assert.match(err, /line 1: column "trackerID" repeats "tracker-id"/);
    assert.match(err, /line 1: missing column "type"/);
    const js = await rejected(['sensors', 'import', file('u.ndjson', '{"name":"T","uniqueID":"U-1","type":"X","color":"red"}\n')]);
    assert.match(js, /line 1: unknown field "color"/);
  });

  test('malformed CSV, JSON and NDJSON name the line', async () => {
    assert.match(await rejected(['devices', 'import', file('q.csv', 'name,tracker-id,type\nVan,K-2,T\n"Van,K-3,T\n')]), /line 3: malformed CSV: unterminated quoted cell/);
    assert.match(await rejected(['devices', 'import', file('q2.csv', 'name,tracker-id,type\nVa"n,K-2,T\n')]), /line 2: malformed CSV: a " inside an unquoted cell/);
    assert.match(await rejected(['devices', 'import', file('j.json', '[\n {"name":"Van","trackerID":"K-4","type":"T"},\n {"name": }\n]\n')]), /line 3: malformed JSON/);
    assert.match(await rejected(['devices', 'import', file('o.json', '{"name":"Van"}')]), /line 1: expected a JSON array of objects|line 1: unknown/);
    const nd = await rejected(['devices', 'import', file('n.ndjson', '{"name":"Van","trackerID":"K-5","type":"T"}\n{oops\n[1]\n')]);
    assert.match(nd, /line 2: malformed JSON/);
    assert.match(nd, /line 3: expected a JSON object/);
  });

  test('empty input, header only, empty array, unreadable file, bad --format', async () => {
    assert.match(await rejected(['devices', 'import', file('empty.csv', '')]), /no rows to import \(the input is empty\)/);
    assert.match(await rejected(['devices', 'import', '-'], ''), /stdin: no rows to import/);
    assert.match(await rejected(['devices', 'import', file('h.csv', 'name,tracker-id,type\n')]), /no rows to import/);
    assert.match(await rejected(['devices', 'import', file('e.json', '[]')]), /no rows to import/);
    assert.match(await rejected(['devices', 'import', join(h.dir, 'missing.csv')]), /cannot read .*missing\.csv: no such file/);
    await rejected(['devices', 'import', '-', '--format', 'xml'], 'a');
  });

  test('a group the account does not have: exit 2 after one read, no write', async () => {
    h.sandbox.clearRequests();
    const r = await h.run(['devices', 'import', file('g.csv', 'name,tracker-id,type,groups\nVan,G-1,T,101\nVan,G-2,T,999;101\n')]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /line 3: groups: no group 999 in this account/);
    assert.doesNotMatch(r.stderr, /line 2:/);
    assert.deepEqual(h.sandbox.requests.map((x) => `${x.method} ${x.path}`), ['GET /v2/groups/']);
  });
});
