/**
 * -o custom-columns end to end: on lists, single records and streams (history), each
 * checked against the command's own -o json output; bad specs are exit 2 with nothing sent.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Harness } from '../helpers/cli.js';
import { FROM, TO, formatFixture, lines, type Device, type Feature } from '../helpers/format-fixture.js';


describe('custom columns', () => {
  let h: Harness;
  let devices: Device[];
  let history: Feature[];
  before(async () => {
    ({ h, devices, history } = await formatFixture());
  });
  after(async () => {
    await h.close();
  });

  test('custom columns on a list: kubectl paths, <none> for what is missing, tab-separated when piped', async () => {
    const spec = 'ID:.did,NAME:.name,FIRST GROUP:.groupMember[0],GROUPS:.groupMember[*],LAST:{.groupMember[-1]},NOPE:.position.lat';
    const r = await h.run(['devices', 'list', '-o', `custom-columns=${spec}`]);
    assert.equal(r.code, 0, r.stderr);
    const [header, ...rows] = lines(r.stdout);
    assert.equal(header, 'ID\tNAME\tFIRST GROUP\tGROUPS\tLAST\tNOPE');
    const none = (v: unknown): string => (v === undefined ? '<none>' : String(v));
    assert.deepEqual(
      rows,
      devices.map((d) => {
        const groups = d.groupMember ?? [];
        return [d.did, d.name, none(groups[0]), groups.length ? groups.join(',') : '<none>', none(groups.at(-1)), '<none>'].join('\t');
      }),
    );
    const bare = await h.run(['devices', 'list', '-o', 'custom-columns=ID:did', '--no-header']);
    assert.deepEqual(lines(bare.stdout), devices.map((d) => String(d.did)));
  });

  test('custom columns on one record, and from a file (headers line, paths line)', async () => {
    const one = await h.run(['devices', 'get', '2004', '-o', 'custom-columns=NAME:.name,TYPE:.deviceType']);
    assert.equal(one.code, 0, one.stderr);
    const d = devices.find((x) => x.did === 2004)!;
    assert.equal(one.stdout, `NAME\tTYPE\n${d.name}\t${d.deviceType}\n`);
    const file = h.file('columns.txt', 'ID      BATTERY\n.did    .lastBatteryLevel\n');
    const fromFile = await h.run(['devices', 'list', '-o', `custom-columns-file=${file}`]);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.deepEqual(lines(fromFile.stdout), ['ID\tBATTERY', ...devices.map((x) => `${x.did}\t${x.lastBatteryLevel ?? '<none>'}`)]);
  });

  test('custom columns on a stream: one row per history report, as -o ndjson has them', async () => {
    const r = await h.run(['history', '2004', '--from', FROM, '--to', TO, '-o', 'custom-columns=TIME:.properties.date,SPEED:.properties.speed,LAT:.geometry.coordinates[1]']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(lines(r.stdout), ['TIME\tSPEED\tLAT', ...history.map((f) => `${f.properties.date}\t${f.properties.speed}\t${f.geometry.coordinates[1]}`)]);
  });

  test('a bad custom-columns spec or file is exit 2 and sends nothing', async () => {
    await h.expectUsage(['devices', 'list', '-o', 'custom-columns=ID'], 'expected <header>:<json-path-expr>');
    await h.expectUsage(['devices', 'list', '-o', 'custom-columns=ID:.did..name'], 'invalid custom-columns path');
    await h.expectUsage(['devices', 'list', '-o', 'custom-columns='], 'needs columns');
    await h.expectUsage(['devices', 'list', '-o', 'custom-columns=ID:.did', '--fields', 'did'], '--fields does not apply');
    await h.expectUsage(['devices', 'list', '-o', `custom-columns-file=${join(h.dir, 'missing.txt')}`], 'cannot read');
    await h.expectUsage(['devices', 'list', '-o', `custom-columns-file=${h.file('bad.txt', 'A B\n.a\n')}`], 'two lines');
  });

  test('an unknown --fields name is exit 2 before any request, on every command that prints records', async () => {
    for (const args of [
      ['devices', 'list'], ['sensors', 'get', '2016'], ['users', 'list'], ['users', 'get', '2001'], ['groups', 'list'], ['groups', 'get', '101'],
      ['shares', 'list'], ['units'], ['history', '2004', '--from', '1h'], ['history', '--all-units', '--from', '1h', '-o', 'csv'],
      ['report', 'trips', '2004', '--from', '1d'], ['report', 'summary', '--all-units', '--from', '1d', '-o', 'json'],
    ]) {
      await h.expectUsage([...args, '--fields', 'name,bogus'], 'bogus');
    }
    // The fields that are there still work, columns and record fields alike.
    const r = await h.run(['groups', 'list', '--fields', 'gid,groupMembers', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(Object.keys((JSON.parse(r.stdout) as Array<Record<string, unknown>>)[0] ?? {}), ['gid', 'groupMembers']);
  });
});
