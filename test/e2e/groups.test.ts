/** groups: /v2/groups/, PATCH name, membership under /groupMembers/ and /groupViewers/ with the nested `result` unwrapped. */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseCsv } from 'csv-parse/sync';
import { startHarness, type Harness } from '../helpers/cli.js';

interface GroupRec {
  gid: number;
  name: string;
  groupMembers: number[];
  groupViewers: number[];
}

describe('groups', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => {
    await h.close();
  });


  test('list: JSON array of the records as sent; one request, no name look-ups off a terminal', async () => {
    h.sandbox.clearRequests();
    const groups = await h.json<GroupRec[]>(['groups', 'list']);
    assert.ok(groups.length >= 3);
    const north = groups.find((g) => g.name === 'North depot');
    assert.ok(north && north.groupMembers.length > 0 && north.groupViewers.length > 0);
    assert.ok(north.groupMembers.every((id) => typeof id === 'number'), 'ids stay numbers in JSON');
    assert.deepEqual(h.sent(), ['GET /v2/groups/']);
    h.sandbox.clearRequests();
    const piped = await h.run(['groups', 'list']);
    assert.equal(piped.code, 0, piped.stderr);
    assert.deepEqual(h.sent(), ['GET /v2/groups/'], 'a piped table costs no /all-units/ call');
    assert.match(piped.stdout.split('\n')[0] ?? '', /^GID\tNAME\tMEMBERS\tVIEWERS$/);
  });

  test('list as NDJSON and CSV', async () => {
    const nd = await h.run(['groups', 'list', '-o', 'ndjson']);
    assert.equal(nd.code, 0, nd.stderr);
    const lines = nd.stdout.trim().split('\n').map((l) => JSON.parse(l) as GroupRec);
    assert.ok(lines.length >= 3 && lines.every((g) => typeof g.gid === 'number'));
    const csv = await h.run(['groups', 'list', '-o', 'csv']);
    assert.equal(csv.code, 0, csv.stderr);
    const rows = parseCsv(csv.stdout, { columns: true }) as Array<Record<string, string>>;
    assert.equal(rows.length, lines.length);
    const north = rows.find((r) => r.name === 'North depot');
    assert.match(north?.groupMembers ?? '', /^\d+( \d+)*$/);
  });

  test('get: one group; unknown → 4; bad id → 2 with nothing sent', async () => {
    const g = await h.json<GroupRec>(['groups', 'get', '101']);
    assert.equal(g.gid, 101);
    assert.equal((await h.run(['groups', 'get', '9999'])).code, 4);
    await h.expectUsage(['groups', 'get', '0'], '"0"');
    await h.expectUsage(['groups', 'get', 'north'], '"north"');
  });

  let gid = 0;
  test('create: POST /v2/groups/ with the name; the new group is empty', async () => {
    h.sandbox.clearRequests();
    const g = await h.json<GroupRec>(['groups', 'create', '--name', 'West depot']);
    gid = g.gid;
    assert.equal(g.name, 'West depot');
    assert.deepEqual([g.groupMembers, g.groupViewers], [[], []]);
    assert.equal(h.sandbox.requests[0]?.path, '/v2/groups/');
    assert.deepEqual(h.sandbox.requests[0]?.body, { name: 'West depot' });
    await h.expectUsage(['groups', 'create'], 'missing --name (no terminal to ask on)');
    await h.expectUsage(['groups', 'create', '--name', '  '], 'name');
  });

  test('update: PATCH name, then PUT members and viewers; the nested result is unwrapped', async () => {
    h.sandbox.clearRequests();
    const g = await h.json<GroupRec>(['groups', 'update', String(gid), '--name', 'West yard', '--add-member', '2004,2016', '--add-member', '2020', '--add-viewer', '2002']);
    assert.equal(g.gid, gid, 'the record, not the extra result level');
    assert.equal(g.name, 'West yard');
    assert.deepEqual([...g.groupMembers].sort(), [2004, 2016, 2020]);
    assert.deepEqual(g.groupViewers, [2002]);
    assert.deepEqual(h.sent(), [
      `PATCH /v2/groups/${gid}`,
      `PUT /v2/groups/${gid}/groupMembers/2004,2016,2020`,
      `PUT /v2/groups/${gid}/groupViewers/2002`,
    ]);
    assert.deepEqual(h.sandbox.requests[0]?.body, { name: 'West yard' });
  });

  test('update: DELETE members and viewers; --raw prints the nested body as sent', async () => {
    h.sandbox.clearRequests();
    const g = await h.json<GroupRec>(['groups', 'update', String(gid), '--remove-member', '2004', '--remove-viewer', '2002']);
    assert.deepEqual([...g.groupMembers].sort(), [2016, 2020]);
    assert.deepEqual(g.groupViewers, []);
    assert.deepEqual(h.sent(), [`DELETE /v2/groups/${gid}/groupMembers/2004`, `DELETE /v2/groups/${gid}/groupViewers/2002`]);
    const raw = await h.run(['groups', 'update', String(gid), '--add-member', '2004', '--raw']);
    assert.equal(raw.code, 0, raw.stderr);
    const body = JSON.parse(raw.stdout) as { result: { result: Record<string, GroupRec> } };
    assert.equal(body.result.result[String(gid)]?.gid, gid);
    const tsv = await h.run(['groups', 'update', String(gid), '--remove-member', '2004']);
    assert.equal(tsv.code, 0, tsv.stderr);
    assert.match(tsv.stdout, new RegExp(`^GID\\tNAME\\tMEMBERS\\tVIEWERS\\n${gid}\\tWest yard\\t2016,2020\\t\\n$`));
  });

  test('update: bad input → 2 and nothing sent; unknown group → 4', async () => {
    await h.expectUsage(['groups', 'update', String(gid)], 'nothing to change');
    await h.expectUsage(['groups', 'update', String(gid), '--add-member', '2004,,2005'], '2004,,2005');
    await h.expectUsage(['groups', 'update', String(gid), '--add-viewer', 'bob'], '"bob"');
    await h.expectUsage(['groups', 'update', String(gid), '--add-member', '2004', '--remove-member', '2004'], '2004');
    await h.expectUsage(['groups', 'update', String(gid), '--name', 'ok', '--remove-viewer', '-1'], '-1');
    await h.expectUsage(['groups', 'update', 'x1', '--name', 'New'], '"x1"');
    const missing = await h.run(['groups', 'update', '9999', '--add-member', '2004']);
    assert.equal(missing.code, 4, missing.stderr);
  });

  test('delete: refuses without --yes; bad id → 2 with nothing sent', async () => {
    await h.expectUsage(['groups', 'delete', String(gid)], '--yes');
    await h.expectUsage(['groups', 'delete', String(gid), '1.5', '--yes'], '"1.5"');
  });

  test('delete: one unknown id → 7 with a per-item report; the others are deleted', async () => {
    const other = await h.json<GroupRec>(['groups', 'create', '--name', 'Temp']);
    h.sandbox.clearRequests();
    const r = await h.run(['groups', 'delete', String(gid), '9999', String(other.gid), '--yes', '-o', 'json']);
    assert.equal(r.code, 7, r.stderr);
    assert.deepEqual(h.sent(), [`DELETE /v2/groups/${gid}`, 'DELETE /v2/groups/9999', `DELETE /v2/groups/${other.gid}`]);
    const report = JSON.parse(r.stdout) as Array<{ id: number; ok: boolean }>;
    assert.deepEqual(report.map((o) => o.ok), [true, false, true]);
    const left = await h.json<GroupRec[]>(['groups', 'list']);
    assert.ok(!left.some((g) => g.gid === gid || g.gid === other.gid));
  });

  test('help lists every verb with examples', async () => {
    for (const verb of ['list', 'get', 'create', 'update', 'delete']) {
      const r = await h.run(['groups', verb, '--help']);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /Examples:\n {2}\$ trackctl groups /);
    }
  });
});
