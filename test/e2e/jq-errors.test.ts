/**
 * --jq errors (exit 2 with jq's message, after what jq printed before it; compile errors before
 * anything is sent) and how --jq combines with -o, TRACKCTL_OUTPUT, --raw and api. See jq-corpus.ts.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { debianJq, expectJqErrors, needJq, startJqFixture, type Doc, type JqFixture } from './jq-corpus.js';

/** [document, expression, what jq's message says]. */
const ERRORS: Array<[Doc, string, string]> = [
  ['units', '.[] |', 'syntax error'],
  ['units', '.[] | .name | .x', 'Cannot index string with'],
  ['units', '.[0].name + 1', 'cannot be added'],
  ['units', '.[] | (.name, error("stop here"))', 'stop here'],
  ['units', 'nosuchfunction(1)', 'nosuchfunction/1 is not defined'],
];

describe('--jq: errors, and with other output options', () => {
  let f: JqFixture;
  before(async () => {
    f = await startJqFixture(['units', 'devices']);
  });
  after(async () => {
    await f?.h.close();
  });

  test("a jq error is exit 2 with jq's message, after the output jq printed before it", async (t) => {
    if (needJq(t)) await expectJqErrors(f, ERRORS);
  });

  test('a compile error is found before anything is sent', async () => {
    await f.h.expectUsage(['units', '--jq', 'map(.name'], 'syntax error');
    await f.h.expectUsage(['devices', 'get', '2004', '--jq', '.name |'], 'compile error');
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
