import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, type Client, keys, num, only, signedIn, str, arr } from './helpers.js';

const UNIT_FIELDS = [
  'did', 'name', 'uniqueID', 'trackerID', 'deviceType', 'deviceCategory', 'isActive', 'guard', 'humidity', 'airPressure',
  'temperature', 'lastBatteryLevel', 'lastGPSTimestamp', 'lastKnownAddress', 'lastValidLatitude', 'lastValidLongitude',
  'odometerKM', 'groupMember',
];

for (const kind of ['devices', 'sensors'] as const) {
  const category = kind === 'devices' ? 'device' : 'sensor';
  const Title = kind === 'devices' ? 'Device' : 'Sensor';
  const idField = kind === 'devices' ? 'trackerID' : 'uniqueID';
  const other = kind === 'devices' ? 'sensors' : 'devices';

  describe(`/v2/${kind}/`, () => {
    let c: Client;
    before(async () => {
      c = await signedIn();
    });
    after(async () => {
      await c.sb.close();
    });

    test('list: result keyed by did, resultCount, every field of the unit table, only its category', async () => {
      const r = await c.v2('GET', `/v2/${kind}/`);
      assert.equal(r.status, 200);
      assert.equal(typeof r.json.success, 'string');
      const ids = keys(r.json.result);
      assert.equal(num(r.json.resultCount), ids.length);
      assert.ok(ids.length >= (kind === 'devices' ? 12 : 4));
      for (const id of ids) {
        const u = r.json.result[id]!;
        assert.deepEqual(keys(u), UNIT_FIELDS);
        assert.equal(String(num(u.did)), id);
        assert.equal(str(u.deviceCategory), category);
      }
      // the slashless form works too
      assert.equal((await c.v2('GET', `/v2/${kind}`)).status, 200);
    });

    test('demo fleet has inactive, stale and low-battery units with realistic identifiers', async () => {
      if (kind === 'sensors') return;
      const units = Object.values((await c.v2('GET', '/v2/devices/')).json.result!);
      assert.ok(units.some((u) => num(u.isActive) === 0), 'an inactive device');
      assert.ok(units.some((u) => num(u.lastGPSTimestamp) < 1_700_000_000 - 86400), 'a stale device');
      assert.ok(units.some((u) => num(u.lastBatteryLevel) < 20), 'a low battery');
      assert.ok(units.some((u) => str(u.guard) === 'installed'));
      for (const u of units) assert.match(str(u.trackerID), /^\d{15}$/);
    });

    test('create, then look up by did, uniqueID and trackerID; slash or not', async () => {
      const ident = `${kind}-ID-${Date.now()}`;
      const r = await c.v2('POST', `/v2/${kind}/`, { name: 'New unit', [idField]: ident, deviceType: 'GL300', simPhoneNumber: '+1 303 555 0100' });
      assert.equal(r.status, 200, r.text);
      assert.equal(str(r.json.success), `${Title} has been created successfully!`);
      assert.equal(typeof r.json.id, 'number');
      assert.equal(num(r.json.resultCount), 1);
      const rec = only(r.json);
      assert.equal(num(rec.did), num(r.json.id));
      assert.equal(str(rec.deviceCategory), category);
      assert.equal(str(rec[idField]), ident);
      assert.deepEqual(keys(rec), UNIT_FIELDS);
      const did = num(r.json.id);
      for (const path of [`/v2/${kind}/did/${did}`, `/v2/${kind}/did/${did}/`, `/v2/${kind}/${idField}/${encodeURIComponent(ident)}`]) {
        const g = await c.v2('GET', path);
        assert.equal(g.status, 200, path);
        assert.equal(num(only(g.json).did), did);
        assert.equal(num(g.json.resultCount), 1);
      }
      // and not through the other category's routes
      assertError(await c.v2('GET', `/v2/${other}/did/${did}`), 404, 'not_found');
      assertError(await c.v2('GET', `/v2/${kind}/uniqueID/nope`), 404, 'not_found');
      assertError(await c.v2('GET', `/v2/${kind}/trackerID/nope`), 404, 'not_found');
    });

    test('seeded units can be found by their serial and IMEI', async () => {
      const list = Object.values((await c.v2('GET', `/v2/${kind}/`)).json.result!);
      const withTracker = list.find((u) => typeof u.trackerID === 'string')!;
      const withUnique = list.find((u) => typeof u.uniqueID === 'string')!;
      assert.equal(num(only((await c.v2('GET', `/v2/${kind}/trackerID/${str(withTracker.trackerID)}`)).json).did), num(withTracker.did));
      assert.equal(num(only((await c.v2('GET', `/v2/${kind}/uniqueID/${str(withUnique.uniqueID)}`)).json).did), num(withUnique.did));
    });

    test('create validates every field', async () => {
      const good = { name: 'X', [idField]: `v-${kind}`, deviceType: 'GL300' };
      assertError(await c.v2('POST', `/v2/${kind}/`, { ...good, name: '' }), 422, 'invalid_value', 'name');
      assertError(await c.v2('POST', `/v2/${kind}/`, { ...good, name: 5 }), 400, 'invalid_request', 'name');
      assertError(await c.v2('POST', `/v2/${kind}/`, { ...good, [idField]: undefined }), 400, 'invalid_request', idField);
      assertError(await c.v2('POST', `/v2/${kind}/`, { ...good, deviceType: null }), 400, 'invalid_request', 'deviceType');
      assertError(await c.v2('POST', `/v2/${kind}/`, { ...good, simPhoneNumber: 12 }), 400, 'invalid_request', 'simPhoneNumber');
      assertError(await c.v2('POST', `/v2/${kind}/`, { ...good, simPhoneNumber: 'call me' }), 422, 'invalid_value', 'simPhoneNumber');
      assertError(await c.v2('POST', `/v2/${kind}/`, { ...good, color: 'red' }), 400, 'invalid_request', 'color');
      assertError(await c.raw('POST', `/v2/${kind}/`, { token: c.token, rawBody: '{nope' }), 400, 'invalid_request');
      assertError(await c.v2('POST', `/v2/${kind}/`), 400, 'invalid_request');
      assert.equal((await c.v2('POST', `/v2/${kind}/`, good)).status, 200);
      const dup = await c.v2('POST', `/v2/${kind}/`, { ...good, name: 'Y' });
      assertError(dup, 409, 'conflict', idField);
    });

    test('PATCH name and isActive; nothing else', async () => {
      const did = num((await c.v2('POST', `/v2/${kind}/`, { name: 'P', [idField]: `p-${kind}`, deviceType: 'T' })).json.id);
      const r = await c.v2('PATCH', `/v2/${kind}/did/${did}`, { name: 'Renamed', isActive: 0 });
      assert.equal(r.status, 200);
      assert.equal(str(r.json.success), `${Title} has been modified successfully!`);
      assert.equal(str(only(r.json).name), 'Renamed');
      assert.equal(num(only(r.json).isActive), 0);
      assertError(await c.v2('PATCH', `/v2/${kind}/did/${did}`, { isActive: 2 }), 422, 'invalid_value', 'isActive');
      assertError(await c.v2('PATCH', `/v2/${kind}/did/${did}`, { isActive: '1' }), 400, 'invalid_request', 'isActive');
      assertError(await c.v2('PATCH', `/v2/${kind}/did/${did}`, { deviceType: 'X' }), 400, 'invalid_request', 'deviceType');
      assertError(await c.v2('PATCH', `/v2/${kind}/did/${did}`, {}), 400, 'invalid_request');
      assertError(await c.v2('PATCH', `/v2/${kind}/did/999999`, { name: 'x' }), 404, 'not_found');
      assertError(await c.v2('PATCH', `/v2/${kind}/did/abc`, { name: 'x' }), 400, 'invalid_request', 'did');
    });

    test('groupMember PUT/DELETE with comma-separated gids keeps groups consistent both ways', async () => {
      const did = num((await c.v2('POST', `/v2/${kind}/`, { name: 'G', [idField]: `g-${kind}`, deviceType: 'T' })).json.id);
      const put = await c.v2('PUT', `/v2/${kind}/did/${did}/groupMember/101,103`);
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(only(put.json).groupMember, [101, 103]);
      for (const gid of [101, 103]) {
        const g = only((await c.v2('GET', `/v2/groups/${gid}`)).json);
        assert.ok(arr(g.groupMembers).includes(did as unknown as never), `group ${gid} lists ${did}`);
      }
      const del = await c.v2('DELETE', `/v2/${kind}/did/${did}/groupMember/101`);
      assert.deepEqual(only(del.json).groupMember, [103]);
      assert.ok(!arr(only((await c.v2('GET', '/v2/groups/101')).json).groupMembers).includes(did as unknown as never));
      assertError(await c.v2('PUT', `/v2/${kind}/did/${did}/groupMember/101,9999`), 404, 'not_found', 'gid');
      assertError(await c.v2('PUT', `/v2/${kind}/did/${did}/groupMember/1,x`), 400, 'invalid_request', 'gid');
      // nothing changed by the failed call
      assert.deepEqual(only((await c.v2('GET', `/v2/${kind}/did/${did}`)).json).groupMember, [103]);
    });

    test('DELETE removes the unit from groups and its shares', async () => {
      const did = num((await c.v2('POST', `/v2/${kind}/`, { name: 'D', [idField]: `d-${kind}`, deviceType: 'T' })).json.id);
      await c.v2('PUT', `/v2/${kind}/did/${did}/groupMember/102`);
      const share = await c.v2('POST', '/v2/location-shares/', { did, name: 'to delete' });
      const sid = keys(share.json.result)[0]!;
      const r = await c.v2('DELETE', `/v2/${kind}/did/${did}/`);
      assert.equal(r.status, 200);
      assert.equal(str(r.json.success), `${Title} has been deleted successfully!`);
      assertError(await c.v2('GET', `/v2/${kind}/did/${did}`), 404, 'not_found');
      assert.ok(!arr(only((await c.v2('GET', '/v2/groups/102')).json).groupMembers).includes(did as unknown as never));
      assertError(await c.v2('GET', `/v2/location-shares/${sid}`), 404, 'not_found');
      assertError(await c.v2('DELETE', `/v2/${kind}/did/${did}`), 404, 'not_found');
    });
  });
}
