/** users: unversioned GET /users/ with the cookie, POST /v2/users/, membership, singular DELETE /v2/user/<uid>. */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseCsv } from 'csv-parse/sync';
import { startHarness, type Harness } from '../helpers/cli.js';

interface UserRec {
  uid: number;
  did?: number;
  device?: { did: number; name: string };
  name: string;
  email: string;
  userType: string;
  groupMember: number[];
  groupViewer: number[];
}

describe('users', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => {
    await h.close();
  });


  test('list: unversioned GET /users/ sent with the session cookie; tracked users carry their device', async () => {
    h.sandbox.clearRequests();
    const users = await h.json<UserRec[]>(['users', 'list']);
    assert.ok(users.length >= 6);
    assert.ok(users.some((u) => u.email === 'demo@example.com'));
    const [req] = h.sandbox.requests;
    assert.equal(h.sandbox.requests.length, 1);
    assert.equal(req?.method, 'GET');
    assert.equal(req?.path, '/users/');
    assert.equal(req?.auth.cookie, true, 'the cookie is sent to the unversioned path');
    assert.equal(req?.auth.bearer, false, 'no bearer token on an unversioned path');
    const tracked = users.filter((u) => u.userType === 'trackedUser');
    assert.ok(tracked.length > 0);
    for (const u of tracked) assert.equal(u.device?.did, u.did, 'JSON keeps the embedded device as sent');
  });

  test('list --type filters; NDJSON is one record per line', async () => {
    const r = await h.run(['users', 'list', '--type', 'dispatcher', '-o', 'ndjson']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as UserRec);
    assert.ok(lines.length >= 3);
    for (const u of lines) assert.equal(u.userType, 'dispatcher');
  });

  test('list as CSV and as a piped table shows a DEVICE column with did and name', async () => {
    const r = await h.run(['users', 'list', '--type', 'trackedUser', '-o', 'csv']);
    assert.equal(r.code, 0, r.stderr);
    const rows = parseCsv(r.stdout, { columns: true }) as Array<Record<string, string>>;
    assert.ok(rows.length >= 3);
    for (const row of rows) {
      // CSV headers are the record keys, so the file round-trips into scripts.
      assert.equal(row.userType, 'trackedUser');
      assert.match(row.device ?? '', /^\d+ \S/);
    }
    const t = await h.run(['users', 'list']);
    assert.equal(t.code, 0, t.stderr);
    const [header, ...lines] = t.stdout.trim().split('\n');
    assert.ok(header?.split('\t').includes('DEVICE'));
    assert.ok(lines.some((l) => /\t\d+ Maria Lopez\t/.test(l)));
  });

  test('list --raw prints the service body', async () => {
    const r = await h.run(['users', 'list', '--raw']);
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout) as { success: string; result: Record<string, UserRec>; resultCount: number };
    assert.equal(typeof body.success, 'string');
    assert.equal(Object.keys(body.result).length, body.resultCount);
  });

  test('get: GET /users/<uid> with the cookie; unknown → 4; bad id → 2 with nothing sent', async () => {
    h.sandbox.clearRequests();
    const demo = await h.json<UserRec>(['users', 'get', '2001']);
    assert.equal(demo.uid, 2001);
    assert.equal(h.sandbox.requests[0]?.path, '/users/2001');
    assert.equal(h.sandbox.requests[0]?.auth.cookie, true);
    const missing = await h.run(['users', 'get', '999999']);
    assert.equal(missing.code, 4, missing.stderr);
    await h.expectUsage(['users', 'get', 'abc'], '"abc"');
    await h.expectUsage(['users', 'get', '12/../1'], '"12/../1"');
  });

  let created: UserRec;
  test('create: POST /v2/users/ with the fields as sent; a tracked user gets a device', async () => {
    h.sandbox.clearRequests();
    created = await h.json<UserRec>(['users', 'create', '--name', 'Ana Silva', '--email', 'ana.silva@example.com', '--type', 'trackedUser', '--sim-phone', '+15551234567']);
    assert.equal(created.name, 'Ana Silva');
    assert.equal(created.userType, 'trackedUser');
    assert.equal(typeof created.did, 'number');
    const post = h.sandbox.requests.find((r) => r.method === 'POST');
    assert.equal(post?.path, '/v2/users/');
    assert.deepEqual(post?.body, { name: 'Ana Silva', email: 'ana.silva@example.com', userType: 'trackedUser', simPhoneNumber: '+15551234567' });
    assert.equal(post?.auth.bearer, true);
  });

  test('create: bad e-mail, bad type, bad phone, missing name → 2 and nothing sent', async () => {
    await h.expectUsage(['users', 'create', '--name', 'X', '--email', 'not-an-address', '--type', 'dispatcher'], 'not-an-address');
    await h.expectUsage(['users', 'create', '--name', 'X', '--email', 'x@example.com', '--type', 'admin'], '"admin"');
    await h.expectUsage(['users', 'create', '--name', 'X', '--email', 'x@example.com', '--type', 'dispatcher', '--sim-phone', 'call me'], 'call me');
    await h.expectUsage(['users', 'create', '--email', 'x@example.com', '--type', 'dispatcher'], '--name');
    await h.expectUsage(['users', 'create', '--name', 'X', '--email', 'x@example.com'], '--type');
  });

  test('create without a terminal names every missing flag at once (exit 2, nothing sent)', async () => {
    await h.expectUsage(['users', 'create'], 'missing --name, --email, --type (no terminal to ask on; --type: one of trackedUser, dispatcher)');
    await h.expectUsage(['users', 'create', '--email', 'x@example.com'], 'missing --name, --type');
    await h.expectUsage(['users', 'create', '--type', 'dispatcher', '--no-input'], 'missing --name, --email (--no-input)');
  });

  test('update: PUT/DELETE /v2/users/<uid>/groupMember/ and /groupViewer/ with comma lists', async () => {
    h.sandbox.clearRequests();
    const uid = created.uid;
    let u = await h.json<UserRec>(['users', 'update', String(uid), '--add-group', '101', '--add-group', '102', '--add-viewer-group', '103']);
    assert.deepEqual([...u.groupMember].sort(), [101, 102]);
    assert.deepEqual(u.groupViewer, [103]);
    assert.deepEqual(h.sent(), [`PUT /v2/users/${uid}/groupMember/101,102`, `PUT /v2/users/${uid}/groupViewer/103`]);
    h.sandbox.clearRequests();
    u = await h.json<UserRec>(['users', 'update', String(uid), '--remove-group', '101', '--remove-viewer-group', '103']);
    assert.deepEqual(u.groupMember, [102]);
    assert.deepEqual(u.groupViewer, []);
    assert.deepEqual(h.sent(), [`DELETE /v2/users/${uid}/groupMember/101`, `DELETE /v2/users/${uid}/groupViewer/103`]);
    const missing = await h.run(['users', 'update', '999999', '--add-group', '101']);
    assert.equal(missing.code, 4, missing.stderr);
  });

  test('update: nothing to change, bad or clashing group ids → 2 and nothing sent', async () => {
    await h.expectUsage(['users', 'update', String(created.uid)], 'nothing to change');
    await h.expectUsage(['users', 'update', String(created.uid), '--add-group', '101,x'], '"x"');
    await h.expectUsage(['users', 'update', String(created.uid), '--add-group', '101', '--remove-group', '101'], '101');
    await h.expectUsage(['users', 'update', 'me', '--add-group', '101'], '"me"');
  });

  test('delete: refuses without --yes (no terminal) and validates every id first', async () => {
    await h.expectUsage(['users', 'delete', String(created.uid)], '--yes');
    await h.expectUsage(['users', 'delete', String(created.uid), 'nope', '--yes'], '"nope"');
  });

  test('delete: the singular /v2/user/<uid> path; one unknown id → 7, the others deleted', async () => {
    const other = await h.json<UserRec>(['users', 'create', '--name', 'Ben Ode', '--email', 'ben.ode@example.com', '--type', 'dispatcher']);
    h.sandbox.clearRequests();
    const r = await h.run(['users', 'delete', String(created.uid), '999999', String(other.uid), '--yes', '-o', 'json']);
    assert.equal(r.code, 7, r.stderr);
    assert.deepEqual(h.sent(), [`DELETE /v2/user/${created.uid}`, 'DELETE /v2/user/999999', `DELETE /v2/user/${other.uid}`]);
    const report = JSON.parse(r.stdout) as Array<{ id: number; ok: boolean; error?: string }>;
    assert.deepEqual(report.map((o) => [o.id, o.ok]), [[created.uid, true], [999999, false], [other.uid, true]]);
    assert.match(r.stderr, /999999/);
    for (const uid of [created.uid, other.uid]) assert.equal((await h.run(['users', 'get', String(uid)])).code, 4);
    const single = await h.run(['users', 'delete', '999999', '--yes']);
    assert.equal(single.code, 4, 'one unknown id keeps its own exit code');
  });

  test('help lists every verb with examples', async () => {
    for (const verb of ['list', 'get', 'create', 'update', 'delete']) {
      const r = await h.run(['users', verb, '--help']);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /Examples:\n {2}\$ trackctl users /);
    }
  });
});
