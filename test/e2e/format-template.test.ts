/**
 * --template end to end: on lists, single records and streams (history -o ndjson), each
 * checked against the command's own -o json output; bad templates are exit 2.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Harness } from '../helpers/cli.js';
import { FROM, TO, formatFixture, lines, type Device, type Feature } from '../helpers/format-fixture.js';


describe('templates', () => {
  let h: Harness;
  let devices: Device[];
  let history: Feature[];
  before(async () => {
    ({ h, devices, history } = await formatFixture());
  });
  after(async () => {
    await h.close();
  });

  test('a template on a list: fields, Go escapes in literals, join, truncate, timefmt, tablerow (TSV when piped)', async () => {
    const template = '{{#each .}}{{did}}{{"\\t"}}{{truncate 8 name}}{{"\\t"}}{{join "+" groupMember}}{{"\\t"}}{{timefmt "%Y-%m-%d %H:%M:%S" lastGPSTimestamp}}{{"\\n"}}{{/each}}';
    const r = await h.run(['devices', 'list', '--template', template]);
    assert.equal(r.code, 0, r.stderr);
    const cut = (s: string): string => (s.length > 8 ? `${s.slice(0, 7)}…` : s);
    const utc = (t: number): string => new Date(t * 1000).toISOString().replace('T', ' ').slice(0, 19);
    assert.deepEqual(lines(r.stdout), devices.map((d) => [d.did, cut(d.name), (d.groupMember ?? []).join('+'), utc(d.lastGPSTimestamp)].join('\t')));
    const table = await h.run(['devices', 'list', '--template', '{{#each .}}{{tablerow did name (timeago lastGPSTimestamp)}}{{/each}}']);
    assert.equal(table.code, 0, table.stderr);
    const rows = lines(table.stdout).map((line) => line.split('\t'));
    assert.deepEqual(rows.map((row) => row.slice(0, 2)), devices.map((d) => [String(d.did), d.name]));
    // The sandbox's clock is frozen, trackctl's is not: the seeded times may lie ahead of it.
    for (const row of rows) assert.match(row[2]!, /^(just now|(in )?\d+ (s|min|h|d)( ago)?|\d{4}-\d\d-\d\d)$/);
  });

  test('a template on one record and on a stream (each record, a newline after each)', async () => {
    const one = await h.run(['devices', 'get', '2004', '--template', '{{name}} ({{deviceType}})']);
    const d = devices.find((x) => x.did === 2004)!;
    assert.equal(one.stdout, `${d.name} (${d.deviceType})\n`);
    const stream = await h.run(['history', '2004', '--from', FROM, '--to', TO, '-o', 'ndjson', '--template', '{{properties.date}} {{properties.speed}}']);
    assert.equal(stream.code, 0, stream.stderr);
    assert.deepEqual(lines(stream.stdout), history.map((f) => `${f.properties.date} ${f.properties.speed}`));
    // Without -o ndjson the document is the whole list.
    const whole = await h.run(['history', '2004', '--from', FROM, '--to', TO, '--template', '{{#each .}}{{#if @last}}{{@index}}{{/if}}{{/each}}']);
    assert.equal(whole.stdout, `${history.length - 1}\n`);
  });

  test('a bad template (syntax, unknown helper, helper misuse) is exit 2; syntax and helpers are checked before sending', async () => {
    await h.expectUsage(['devices', 'list', '--template', '{{#each .}}{{name}}'], 'Parse error');
    await h.expectUsage(['devices', 'list', '--template', '{{#each .}}{{nosuch name}}{{/each}}'], 'nosuch');
    await h.expectUsage(['devices', 'list', '-o', 'yaml', '--template', '{{name}}'], 'works on JSON');
    const misuse = await h.run(['devices', 'list', '--template', '{{#each .}}{{truncate name}}{{/each}}']);
    assert.equal(misuse.code, 2, misuse.stderr);
    assert.match(misuse.stderr, /truncate takes 2 arguments/);
  });
});
