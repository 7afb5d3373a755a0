/**
 * --jq against Debian's jq on the device list; how --jq combines with -o, --raw and api.
 * See jq-corpus.ts.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { debianJq, expectSameAsJq, needJq, startJqFixture, type Doc, type JqFixture } from './jq-corpus.js';

const CORPUS: Array<[Doc, string]> = [
  ['devices', '.[] | "\\(.did)\\t\\(.name) (\\(.deviceType))"'],
  ['devices', 'map(.groupMember // [] | length) | add'],
  ['devices', '[.[] | .groupMember[]?] | unique | map(tostring) | join(",")'],
  ['devices', '.[] | select(.name | test("^ford"; "i")) | .did'],
  ['devices', 'min_by(.odometerKM) | .name'],
  ['devices', '.[] | {id: .did, pos: [.lastValidLatitude, .lastValidLongitude]}'],
  ['devices', '[.[] | .lastGPSTimestamp | todate] | .[0:3]'],
  ['devices', '[limit(2; .[] | .name)]'],
  ['devices', 'first(.[] | select(.isActive == 0) | .name) // "none"'],
  ['devices', 'to_entries | map(select(.key < 3)) | map(.value.name)'],
  ['devices', '.[] | .name | ascii_downcase | split(" ") | .[0]'],
  ['devices', '.[0] | [paths] | map(map(tostring) | join(".")) | .[]'],
  ['devices', 'map(select(.isActive == 1)) | length as $n | "\\($n) of \\(length) active"'],
];

describe('--jq against jq: the device list', () => {
  let f: JqFixture;
  before(async () => {
    f = await startJqFixture(['devices']);
  });
  after(async () => {
    await f?.h.close();
  });

  test(`${CORPUS.length} expressions print exactly what jq -r -c prints for the same JSON`, async (t) => {
    if (needJq(t)) await expectSameAsJq(f, CORPUS);
  });

  test('--jq implies JSON; other formats are refused; with -o ndjson it runs per record', async (t) => {
    await f.h.expectUsage(['devices', 'list', '-o', 'csv', '--jq', '.'], '--jq works on JSON');
    await f.h.expectUsage(['devices', 'list', '--jq', '.', '--template', '{{name}}'], 'cannot be used together');
    const perRecord = await f.h.run(['devices', 'list', '-o', 'ndjson', '--jq', '.name']);
    const whole = await f.h.run(['devices', 'list', '--jq', '.[].name']);
    assert.equal(perRecord.code, 0, perRecord.stderr);
    assert.ok(perRecord.stdout.split('\n').length > 5, perRecord.stdout);
    assert.equal(perRecord.stdout, whole.stdout);
    // A table default from the environment gives way to --jq; only an explicit -o conflicts.
    const fromEnv = await f.h.run(['devices', 'list', '--jq', 'length'], { env: { TRACKCTL_OUTPUT: 'table' } });
    assert.equal(fromEnv.code, 0, fromEnv.stderr);
    if (needJq(t)) assert.equal(fromEnv.stdout, debianJq('length', f.json.get('devices')!).stdout);
  });

  test('--jq with --raw and on api: the reply body as sent is the document', async (t) => {
    const raw = await f.h.run(['units', '--raw']);
    const got = await f.h.run(['units', '--raw', '--jq', '.devices | keys | length']);
    assert.equal(got.code, 0, got.stderr);
    if (needJq(t)) assert.equal(got.stdout, debianJq('.devices | keys | length', raw.stdout).stdout);
    const api = await f.h.run(['api', '/v2/devices/did/2004', '--jq', '.result[].name']);
    assert.equal(api.code, 0, api.stderr);
    assert.equal(api.stdout, 'Ford Transit 01\n');
  });
});
