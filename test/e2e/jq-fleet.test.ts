/**
 * --jq against Debian's jq on the units list: select, map, group_by, paths,
 * @csv/@tsv, reduce, string interpolation; errors at compile and run time. See jq-corpus.ts.
 */
import { describe, test, before, after } from 'node:test';
import { expectJqErrors, expectSameAsJq, needJq, startJqFixture, type Doc, type JqFixture } from './jq-corpus.js';

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

/** [document, expression, what jq's message says]. */
const ERRORS: Array<[Doc, string, string]> = [
  ['units', '.[] |', 'syntax error'],
  ['units', '.[] | .name | .x', 'Cannot index string with'],
  ['units', '.[0].name + 1', 'cannot be added'],
  ['units', '.[] | (.name, error("stop here"))', 'stop here'],
  ['units', 'nosuchfunction(1)', 'nosuchfunction/1 is not defined'],
];

describe('--jq against jq: units', () => {
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

  test("a jq error is exit 2 with jq's message, after the output jq printed before it", async (t) => {
    if (needJq(t)) await expectJqErrors(f, ERRORS);
  });

  test('a compile error is found before anything is sent', async () => {
    await f.h.expectUsage(['units', '--jq', 'map(.name'], 'syntax error');
    await f.h.expectUsage(['devices', 'get', '2004', '--jq', '.name |'], 'compile error');
  });
});
