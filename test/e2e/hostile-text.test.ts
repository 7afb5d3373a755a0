/**
 * A unit named with terminal escapes (ESC [31m, BEL) and a bidi override (U+202E): piped --jq
 * and --template output, and the title and data of an -o html page, carry none of them. JSON
 * keeps the name whole, escaped; --raw asks for the reply as sent.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/cli.js';

const HOSTILE = 'Van \x1b[31mRED\x07 \u202eevil';
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

describe('service text with control characters', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
    // trackctl refuses such a name; the service takes it (another client may have sent it).
    const r = await h.run(['api', '/v2/devices/did/2004', '-X', 'PATCH', '-d', '-'], { input: JSON.stringify({ name: HOSTILE }) });
    assert.equal(r.code, 0, r.stderr);
  });
  after(async () => {
    await h?.close();
  });

  test('piped --jq output carries no control or bidi characters', async () => {
    const r = await h.run(['devices', 'list', '--jq', '.[] | select(.did == 2004) | .name, {name}']);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, CONTROLS);
    assert.equal(r.stdout.split('\n')[0], 'Van RED evil');
    const stream = await h.run(['devices', 'list', '-o', 'ndjson', '--jq', 'select(.did == 2004) | .name']);
    assert.equal(stream.stdout, 'Van RED evil\n', stream.stderr);
  });

  test('piped --template output carries none either', async () => {
    const r = await h.run(['devices', 'list', '--template', '{{#each .}}{{name}}{{"\\n"}}{{/each}}']);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, CONTROLS);
    assert.ok(r.stdout.split('\n').includes('Van RED evil'), r.stdout);
  });

  test('-o json keeps the name whole, escaped; --raw --jq is the reply as sent', async () => {
    const json = await h.run(['devices', 'get', '2004', '-o', 'json']);
    assert.doesNotMatch(json.stdout, CONTROLS);
    assert.equal((JSON.parse(json.stdout) as { name: string }).name, HOSTILE);
    const raw = await h.run(['devices', 'get', '2004', '--raw', '--jq', '.result["2004"].name']);
    assert.equal(raw.stdout, `${HOSTILE}\n`, raw.stderr);
  });

  test('the title and the data of an -o html page carry none', async () => {
    const out = join(h.dir, 'map.html');
    const r = await h.run(['history', '2004', '--from', '2d', '-o', 'html', '--output-file', out]);
    assert.equal(r.code, 0, r.stderr);
    const page = readFileSync(out, 'utf8');
    const title = /<title>([^<]*)<\/title>/.exec(page)?.[1] ?? '';
    assert.ok(title.includes('Van RED evil'), title);
    assert.doesNotMatch(title, CONTROLS);
    const data = /<script type="application\/json" id="map-data">([\s\S]*?)<\/script>/.exec(page)?.[1] ?? '';
    assert.ok(data.length > 100, 'the page has its data');
    assert.doesNotMatch(JSON.stringify(JSON.parse(data) as unknown).replace(/\\u[0-9a-f]{4}/g, ''), CONTROLS);
    assert.doesNotMatch(data, /\\u001b|\\u0007|\u202e|\\u202e/);
  });
});
