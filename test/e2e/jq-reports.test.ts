/**
 * --jq against Debian's jq on reports. See jq-corpus.ts (one file per document: each
 * expression is one run of the binary, and a test file has two minutes).
 */
import { describe, test, before, after } from 'node:test';
import { expectSameAsJq, needJq, startJqFixture, type Doc, type JqFixture } from './jq-corpus.js';

const CORPUS: Array<[Doc, string]> = [
  ['trips', 'map(.distanceKm) | add * 1000 | floor'],
  ['trips', '.[] | "\\(.start | todate) \\(.distanceKm) km"'],
  ['trips', 'sort_by(-.duration) | .[0] | {start, duration}'],
  ['summary', '.[] | [.day, .trips, .distanceKm] | @tsv'],
  ['summary', 'map(.drivingTime) | add'],
];

describe('--jq against jq: reports', () => {
  let f: JqFixture;
  before(async () => {
    f = await startJqFixture(['trips', 'summary']);
  });
  after(async () => {
    await f?.h.close();
  });

  test(`${CORPUS.length} expressions print exactly what jq -r -c prints for the same JSON`, async (t) => {
    if (needJq(t)) await expectSameAsJq(f, CORPUS);
  });
});
