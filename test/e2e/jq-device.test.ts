/**
 * --jq against Debian's jq on one device. See jq-corpus.ts (one file per document: each
 * expression is one run of the binary, and a test file has two minutes).
 */
import { describe, test, before, after } from 'node:test';
import { expectSameAsJq, needJq, startJqFixture, type Doc, type JqFixture } from './jq-corpus.js';

const CORPUS: Array<[Doc, string]> = [
  ['device', '.name'],
  ['device', 'with_entries(select(.value == null)) | keys'],
  ['device', '.lastValidLatitude * 1000 | floor'],
  ['device', 'to_entries | map("\\(.key)=\\(.value)") | join("&")'],
  ['device', '.groupMember | @json'],
  ['device', '.name | @base64'],
  ['device', 'del(.groupMember) | keys_unsorted | length'],
];

describe('--jq against jq: one device', () => {
  let f: JqFixture;
  before(async () => {
    f = await startJqFixture(['device']);
  });
  after(async () => {
    await f?.h.close();
  });

  test(`${CORPUS.length} expressions print exactly what jq -r -c prints for the same JSON`, async (t) => {
    if (needJq(t)) await expectSameAsJq(f, CORPUS);
  });
});
