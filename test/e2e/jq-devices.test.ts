/**
 * --jq against Debian's jq on the device list. See jq-corpus.ts (one file per document: each
 * expression is one run of the binary, and a test file has two minutes).
 */
import { describe, test, before, after } from 'node:test';
import { expectSameAsJq, needJq, startJqFixture, type Doc, type JqFixture } from './jq-corpus.js';

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
});
