import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { arr, assertError, type Client, keys, num, only, signedIn, str } from './helpers.js';

const USER_FIELDS = ['uid', 'name', 'email', 'userType', 'loginLevel', 'isActive', 'country', 'timezone', 'lastLoginTime', 'simPhoneNumber', 'groupViewer', 'groupMember'];
const has = (list: unknown, id: number): boolean => (list as number[]).includes(id);

describe('users', () => {
  let c: Client;
  before(async () => {
    c = await signedIn();
  });
  after(async () => {
    await c.sb.close();
  });

  test('POST /v2/users/ creates a dispatcher with every user field', async () => {
    const r = await c.v2('POST', '/v2/users/', { name: 'Dana Scott', email: 'dana@example.com', userType: 'dispatcher', simPhoneNumber: '+13035550123' });
    assert.equal(r.status, 200, r.text);
    assert.equal(str(r.json.success), 'User has been created successfully!');
    const u = only(r.json);
    assert.equal(num(u.uid), num(r.json.id));
    assert.deepEqual(keys(u), USER_FIELDS);
    assert.equal(str(u.loginLevel), 'user');
    assert.equal(num(u.isActive), 1);
  });

  test('a trackedUser gets its own unit (deviceCategory trackedUser), shown as did and device', async () => {
    const r = await c.v2('POST', '/v2/users/', { name: 'Eli Tracked', email: 'eli@example.com', userType: 'trackedUser' });
    assert.equal(r.status, 200, r.text);
    const u = only(r.json);
    const did = num(u.did);
    assert.ok(did > 0);
    const list = await c.s('GET', '/users/');
    assert.equal(list.status, 200);
    assert.equal(num(list.json.resultCount), keys(list.json.result).length);
    const listed = list.json.result[String(num(u.uid))]!;
    assert.equal(num(listed.did), did);
    assert.equal(str(listed.device.deviceCategory), 'trackedUser');
    assert.equal(num(listed.device.did), did);
    const one = await c.s('GET', `/users/${num(u.uid)}`);
    assert.equal(num(one.json.resultCount), 1);
    assert.equal(num(only(one.json).uid), num(u.uid));
    assert.equal((await c.s('GET', `/users/${num(u.uid)}/`)).status, 200);
    // the tracked user's unit is listed by all-units but not as a device of /v2/devices/
    const all = await c.s('GET', '/all-units/');
    assert.ok(all.json.devices[String(did)]);
    assert.ok(all.json.trackedUsers[String(num(u.uid))]);
    assertError(await c.v2('GET', `/v2/devices/did/${did}`), 404, 'not_found');
    // deleting the user (singular path) deletes its unit
    const del = await c.v2('DELETE', `/v2/user/${num(u.uid)}`);
    assert.equal(str(del.json.success), 'User has been deleted successfully!');
    assertError(await c.s('GET', `/users/${num(u.uid)}`), 404, 'not_found');
    assert.equal((await c.s('GET', '/all-units/')).json.devices[String(did)], undefined);
    assertError(await c.v2('DELETE', `/v2/user/${num(u.uid)}`), 404, 'not_found');
    assertError(await c.v2('DELETE', `/v2/users/${num(u.uid)}`), 404, 'not_found');
  });

  test('create validates name, email, userType, simPhoneNumber; duplicate email is a conflict', async () => {
    const good = { name: 'V', email: 'v@example.com', userType: 'dispatcher' };
    assertError(await c.v2('POST', '/v2/users/', { ...good, email: 'not-an-email' }), 422, 'invalid_value', 'email');
    assertError(await c.v2('POST', '/v2/users/', { ...good, userType: 'admin' }), 422, 'invalid_value', 'userType');
    assertError(await c.v2('POST', '/v2/users/', { ...good, userType: 3 }), 400, 'invalid_request', 'userType');
    assertError(await c.v2('POST', '/v2/users/', { ...good, name: '' }), 422, 'invalid_value', 'name');
    assertError(await c.v2('POST', '/v2/users/', { email: 'v@example.com', userType: 'dispatcher' }), 400, 'invalid_request', 'name');
    assertError(await c.v2('POST', '/v2/users/', { ...good, simPhoneNumber: 5551234 }), 400, 'invalid_request', 'simPhoneNumber');
    assertError(await c.v2('POST', '/v2/users/', { ...good, loginLevel: 'admin' }), 400, 'invalid_request', 'loginLevel');
    assertError(await c.v2('POST', '/v2/users/', { ...good, email: 'DEMO@example.com' }), 409, 'conflict', 'email');
    assertError(await c.s('GET', '/users/0'), 400, 'invalid_request', 'uid');
    assertError(await c.s('GET', '/users/424242'), 404, 'not_found', 'uid');
  });

  test('groupMember and groupViewer take comma-separated gids and update both sides', async () => {
    const uid = num((await c.v2('POST', '/v2/users/', { name: 'M', email: 'm@example.com', userType: 'dispatcher' })).json.id);
    const m = await c.v2('PUT', `/v2/users/${uid}/groupMember/101,102`);
    assert.equal(m.status, 200, m.text);
    assert.deepEqual(only(m.json).groupMember, [101, 102]);
    const v = await c.v2('PUT', `/v2/users/${uid}/groupViewer/102,103`);
    assert.deepEqual(only(v.json).groupViewer, [102, 103]);
    const g102 = only((await c.v2('GET', '/v2/groups/102')).json);
    assert.ok(has(g102.groupMembers, uid) && has(g102.groupViewers, uid));
    await c.v2('DELETE', `/v2/users/${uid}/groupMember/101,102`);
    const after1 = await c.v2('DELETE', `/v2/users/${uid}/groupViewer/103`);
    assert.deepEqual(only(after1.json).groupMember, []);
    assert.deepEqual(only(after1.json).groupViewer, [102]);
    assert.ok(!has(only((await c.v2('GET', '/v2/groups/101')).json).groupMembers, uid));
    assertError(await c.v2('PUT', `/v2/users/${uid}/groupViewer/777`), 404, 'not_found', 'gid');
    assertError(await c.v2('PUT', `/v2/users/99999/groupViewer/101`), 404, 'not_found', 'uid');
    assertError(await c.v2('PUT', `/v2/users/${uid}/groupViewer/`), 404, 'not_found');
  });
});

describe('groups', () => {
  let c: Client;
  before(async () => {
    c = await signedIn();
  });
  after(async () => {
    await c.sb.close();
  });

  test('seeded groups; list and get keyed by gid', async () => {
    const r = await c.v2('GET', '/v2/groups/');
    const names = Object.values(r.json.result!).map((g) => str(g.name));
    assert.deepEqual(names, ['North depot', 'South depot', 'Vans']);
    assert.equal(num(r.json.resultCount), 3);
    const g = await c.v2('GET', '/v2/groups/101/');
    assert.deepEqual(keys(only(g.json)), ['gid', 'name', 'groupMembers', 'groupViewers']);
  });

  test('create (empty members/viewers), rename, delete', async () => {
    const r = await c.v2('POST', '/v2/groups/', { name: 'Night shift' });
    assert.equal(str(r.json.success), 'Group has been created successfully!');
    const gid = num(r.json.id);
    assert.deepEqual(only(r.json), { gid, name: 'Night shift', groupMembers: [], groupViewers: [] });
    const p = await c.v2('PATCH', `/v2/groups/${gid}`, { name: 'Day shift' });
    assert.equal(str(only(p.json).name), 'Day shift');
    assertError(await c.v2('PATCH', `/v2/groups/${gid}`, { name: 'x', groupMembers: [] }), 400, 'invalid_request', 'groupMembers');
    assertError(await c.v2('PATCH', `/v2/groups/${gid}`, {}), 400, 'invalid_request', 'name');
    assertError(await c.v2('POST', '/v2/groups/', { name: '  ' }), 422, 'invalid_value', 'name');
    assertError(await c.v2('POST', '/v2/groups/', {}), 400, 'invalid_request', 'name');
    const d = await c.v2('DELETE', `/v2/groups/${gid}`);
    assert.equal(str(d.json.success), 'Group has been deleted successfully!');
    assertError(await c.v2('GET', `/v2/groups/${gid}`), 404, 'not_found', 'gid');
  });

  test('member and viewer changes reply with the nested result and keep both sides consistent', async () => {
    const gid = num((await c.v2('POST', '/v2/groups/', { name: 'Mixed' })).json.id);
    const devices = keys((await c.v2('GET', '/v2/devices/')).json.result).slice(0, 2).map(Number);
    const users = Object.values((await c.s('GET', '/users/')).json.result!);
    const tracked = users.find((u) => str(u.userType) === 'trackedUser')!;
    const dispatcher = users.find((u) => str(u.userType) === 'dispatcher')!;
    const ids = [...devices, num(tracked.uid)];
    const r = await c.v2('PUT', `/v2/groups/${gid}/groupMembers/${ids.join(',')}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(num(r.json.resultCount), 1);
    assert.deepEqual(keys(r.json.result), ['result']);
    const g = r.json.result.result[String(gid)]!;
    assert.deepEqual(g.groupMembers, [...ids].sort((a, b) => a - b));
    for (const d of devices) assert.ok(has(only((await c.v2('GET', `/v2/devices/did/${d}`)).json).groupMember, gid));
    assert.ok(has(only((await c.s('GET', `/users/${num(tracked.uid)}`)).json).groupMember, gid));
    // idempotent
    const again = await c.v2('PUT', `/v2/groups/${gid}/groupMembers/${devices[0]}`);
    assert.equal(arr(again.json.result.result[String(gid)]!.groupMembers).length, 3);

    const v = await c.v2('PUT', `/v2/groups/${gid}/groupViewers/${num(dispatcher.uid)}`);
    assert.deepEqual(v.json.result.result[String(gid)]!.groupViewers, [num(dispatcher.uid)]);
    assert.ok(has(only((await c.s('GET', `/users/${num(dispatcher.uid)}`)).json).groupViewer, gid));
    assertError(await c.v2('PUT', `/v2/groups/${gid}/groupViewers/${devices[0]}`), 422, 'invalid_value', 'id');
    assertError(await c.v2('PUT', `/v2/groups/${gid}/groupMembers/${devices[0]},88888`), 404, 'not_found', 'id');
    assertError(await c.v2('PUT', `/v2/groups/${gid}/groupMembers/1,,2`), 400, 'invalid_request', 'id');
    assertError(await c.v2('PUT', `/v2/groups/777/groupMembers/${devices[0]}`), 404, 'not_found', 'gid');

    const rm = await c.v2('DELETE', `/v2/groups/${gid}/groupMembers/${devices[1]}`);
    assert.ok(!has(rm.json.result.result[String(gid)]!.groupMembers, devices[1]!));
    assert.ok(!has(only((await c.v2('GET', `/v2/devices/did/${devices[1]}`)).json).groupMember, gid));
    const rv = await c.v2('DELETE', `/v2/groups/${gid}/groupViewers/${num(dispatcher.uid)}`);
    assert.deepEqual(rv.json.result.result[String(gid)]!.groupViewers, []);

    // deleting the group removes it from every member's and viewer's arrays, and drops its shares
    await c.v2('PUT', `/v2/groups/${gid}/groupViewers/${num(dispatcher.uid)}`);
    const share = keys((await c.v2('POST', '/v2/location-shares/', { gid, name: 'group share' })).json.result)[0]!;
    await c.v2('DELETE', `/v2/groups/${gid}/`);
    assert.ok(!has(only((await c.v2('GET', `/v2/devices/did/${devices[0]}`)).json).groupMember, gid));
    const t = only((await c.s('GET', `/users/${num(tracked.uid)}`)).json);
    assert.ok(!has(t.groupMember, gid));
    assert.ok(!has(only((await c.s('GET', `/users/${num(dispatcher.uid)}`)).json).groupViewer, gid));
    assertError(await c.v2('GET', `/v2/location-shares/${share}`), 404, 'not_found');
  });
});

describe('all units', () => {
  test('GET /all-units/ has sensors, devices, dispatchers, trackedUsers keyed by id', async () => {
    const c = await signedIn();
    try {
      const r = await c.s('GET', '/all-units/');
      assert.equal(r.status, 200);
      assert.equal(typeof r.json.success, 'string');
      assert.deepEqual(keys(r.json).sort(), ['devices', 'dispatchers', 'sensors', 'success', 'trackedUsers']);
      for (const [id, s] of Object.entries(r.json.sensors!)) {
        assert.equal(str(s.deviceCategory), 'sensor');
        assert.equal(String(num(s.did)), id);
      }
      for (const d of Object.values(r.json.devices!)) assert.notEqual(str(d.deviceCategory), 'sensor');
      for (const [id, u] of Object.entries(r.json.dispatchers!)) {
        assert.equal(str(u.userType), 'dispatcher');
        assert.equal(String(num(u.uid)), id);
        assert.deepEqual(keys(u).sort(), ['country', 'email', 'groupMember', 'groupViewer', 'isActive', 'lastLoginTime', 'loginLevel', 'name', 'simPhoneNumber', 'timezone', 'uid', 'userType']);
      }
      assert.ok(keys(r.json.trackedUsers).length >= 3);
      for (const u of Object.values(r.json.trackedUsers!)) assert.equal(str(u.userType), 'trackedUser');
      assert.equal((await c.s('GET', '/all-units')).status, 200);
    } finally {
      await c.sb.close();
    }
  });
});
