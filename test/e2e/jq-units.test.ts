/**
 * --jq against Debian's jq on the units list. See jq-corpus.ts (one file per document: each
 * expression is one run of the binary, and a test file has two minutes).
 */
import { describe, test, before, after } from 'node:test';
import { expectSameAsJq, needJq, startJqFixture, type Doc, type JqFixture } from './jq-corpus.js';

const CORPUS: Array<[Doc, string]> = [
  ['units', '.[] | select(.category == "device") | .name'],
  ['units', 'map(.category) | unique'],
  ['units', 'group_by(.category) | map({key: .[0].category, value: length}) | from_entries'],
  ['units', '[.[] | select(.lastBatteryLevel != null and .lastBatteryLevel < 60) | {did, name, battery: .lastBatteryLevel}]'],
  ['units', '.[] | [.category, (.did // .uid), .name] | @tsv'],
  ['units', '.[] | [.category, .name, .lastBatteryLevel] | @csv'],
  ['units', 'length'],
  ['units', 'reduce .[] as $u ({}; .[$u.category] += 1)'],
  ['units', '[paths(type == "number")] | length'],
  ['units', '.[0] | keys'],
  ['units', '"\\(length) units, \\(map(select(.category == "sensor")) | length) sensors"'],
  ['units', 'map(select(.category == "sensor")) | sort_by(.name) | .[0]'],
];

describe('--jq against jq: the units list', () => {
  let f: JqFixture;
  before(async () => {
    f = await startJqFixture(['units']);
  });
  after(async () => {
    await f?.h.close();
  });

  test(`${CORPUS.length} expressions print exactly what jq -r -c prints for the same JSON`, async (t) => {
    if (needJq(t)) await expectSameAsJq(f, CORPUS);
  });
});
