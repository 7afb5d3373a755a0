/**
 * --jq against Debian's jq on history: the document, and an ndjson stream where jq runs once
 * per record; a stream stops at the first record jq fails on. See jq-corpus.ts.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DOCUMENTS, expectSameAsJq, FROM, needJq, startJqFixture, TO, type Doc, type JqFixture } from './jq-corpus.js';

const CORPUS: Array<[Doc, string]> = [
  ['history', 'map(.properties.speed) | add / length | floor'],
  ['history', '[.[] | .properties.reportType] | group_by(.) | map([.[0], length])'],
  ['history', '.[-1].geometry.coordinates'],
  ['historyStream', '.properties.speed'],
  ['historyStream', 'select(.properties.speed > 50) | [.properties.date, .properties.speed] | @csv'],
  ['historyStream', '.geometry.coordinates | "\\(.[1]),\\(.[0])"'],
  ['historyStream', '.properties | {date, lat, lng}'],
];

describe('--jq against jq: history', () => {
  let f: JqFixture;
  before(async () => {
    f = await startJqFixture(['history', 'historyStream']);
  });
  after(async () => {
    await f?.h.close();
  });

  test(`${CORPUS.length} expressions print exactly what jq -r -c prints for the same JSON`, async (t) => {
    if (needJq(t)) await expectSameAsJq(f, CORPUS);
  });

  test('on a stream, jq runs per record and stops at the first record that fails (exit 2)', async () => {
    const records = f.json.get('historyStream')!.trimEnd().split('\n').map((line) => JSON.parse(line) as { properties: { speed: number } });
    const firstFast = records.findIndex((r) => r.properties.speed > 60);
    assert.ok(firstFast > 0, 'some report is over 60 after one that is not');
    const expression = 'if .properties.speed > 60 then error("too fast: \\(.properties.speed)") else .properties.speed end';
    const got = await f.h.run([...DOCUMENTS.historyStream, '--jq', expression]);
    assert.equal(got.code, 2, got.stderr);
    assert.ok(got.stderr.includes(`too fast: ${records[firstFast]!.properties.speed}`), got.stderr);
    assert.equal(got.stdout, records.slice(0, firstFast).map((r) => `${r.properties.speed}\n`).join(''));
  });

  test('on the merged stream of many units, every unit\'s records go through jq, and the run ends', async () => {
    const args = ['history', '2004', '2005', '2016', '--from', FROM, '--to', TO, '-o', 'ndjson'];
    const plain = await f.h.run(args);
    assert.equal(plain.code, 0, plain.stderr);
    const dids = plain.stdout.trimEnd().split('\n').map((line) => String((JSON.parse(line) as { properties: { did: number } }).properties.did));
    assert.deepEqual([...new Set(dids)].sort(), ['2004', '2005', '2016']);
    for (const concurrency of ['8', '1']) {
      // A process of its own: stdout a pipe whose writes finish later, as in use (a run that never ended was killed).
      const got = await f.h.spawn([...args, '--concurrency', concurrency, '--jq', '.properties.did'], { timeoutMs: 60_000 });
      assert.equal(got.code, 0, got.stderr);
      assert.deepEqual(got.stdout.trimEnd().split('\n').sort(), [...dids].sort(), `--concurrency ${concurrency}: one line a record, every unit`);
    }
  });

  test('a compile error is found before the history is asked for', async () => {
    await f.h.expectUsage([...DOCUMENTS.historyStream, '--jq', '.properties |'], 'compile error');
  });
});
