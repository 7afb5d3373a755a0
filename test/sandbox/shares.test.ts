import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, type Client, keys, num, only, signedIn, str, T0 } from './helpers.js';

describe('location shares', () => {
  let c: Client;
  before(async () => {
    c = await signedIn();
  });
  after(async () => {
    await c.sb.close();
  });

  test('seeded shares: never-expiring, expiring, already expired; records keyed by sid with every field', async () => {
    const r = await c.v2('GET', '/v2/location-shares/');
    assert.equal(r.status, 200);
    const shares = Object.entries(r.json.result!);
    assert.equal(num(r.json.resultCount), shares.length);
    const exps = shares.map(([, s]) => s.expiration as unknown);
    assert.ok(exps.includes('never'));
    assert.ok(exps.some((e) => typeof e === 'number' && e > T0));
    assert.ok(exps.some((e) => typeof e === 'number' && e < T0));
    for (const [sid, s] of shares) {
      assert.equal(str(s.sid), sid);
      assert.match(sid, /^[A-Za-z0-9]{12}$/);
      if (s.did !== undefined) {
        assert.deepEqual(keys(s), ['sid', 'uid', 'did', 'device', 'name', 'timestamp', 'expiration']);
        assert.equal(num(s.device.did), num(s.did));
      } else {
        assert.deepEqual(keys(s), ['sid', 'uid', 'gid', 'group', 'name', 'timestamp', 'expiration']);
        assert.deepEqual(keys(s.group), [String(num(s.gid))]);
        assert.equal(num(s.group[String(num(s.gid))]!.gid), num(s.gid));
      }
    }
  });

  test('create with no expiration → never; owner is the caller; timestamp is now', async () => {
    const r = await c.v2('POST', '/v2/location-shares/', { did: '2004', name: 'ETA' });
    assert.equal(r.status, 200, r.text);
    assert.equal(str(r.json.success), 'Location Share has been created successfully!');
    assert.equal(typeof r.json.id, 'number');
    assert.equal(num(r.json.resultCount), 1);
    const s = only(r.json);
    assert.equal(str(s.expiration), 'never');
    assert.equal(num(s.uid), 2001);
    assert.equal(num(s.timestamp), T0);
    assert.equal(num(s.did), 2004);
    const g = await c.v2('GET', `/v2/location-shares/${str(s.sid)}`);
    assert.equal(num(g.json.resultCount), 1);
    assert.equal(str(only(g.json).name), 'ETA');
  });

  test('absolute and relative expiration', async () => {
    const abs = await c.v2('POST', '/v2/location-shares/', { gid: 101, name: 'abs', expiration: String(T0 + 500) });
    assert.equal(num(only(abs.json).expiration), T0 + 500);
    const absInt = await c.v2('POST', '/v2/location-shares/', { gid: '102', name: 'abs2', expiration: T0 + 900 });
    assert.equal(num(only(absInt.json).expiration), T0 + 900);
    const rel = await c.v2('POST', '/v2/location-shares/', { did: 2004, name: 'rel', days: '1', hours: '2', minutes: '3' });
    assert.equal(num(only(rel.json).expiration), T0 + 86400 + 7200 + 180);
    const relH = await c.v2('POST', '/v2/location-shares/', { did: 2004, name: 'relH', hours: '5' });
    assert.equal(num(only(relH.json).expiration), T0 + 5 * 3600);
  });

  test('create validation', async () => {
    const p = (body: unknown) => c.v2('POST', '/v2/location-shares/', body);
    assertError(await p({ did: 2004, gid: 101, name: 'x' }), 400, 'invalid_request');
    assertError(await p({ name: 'x' }), 400, 'invalid_request', 'did');
    assertError(await p({ did: 999999, name: 'x' }), 404, 'not_found', 'did');
    assertError(await p({ gid: 999, name: 'x' }), 404, 'not_found', 'gid');
    assertError(await p({ did: 'abc', name: 'x' }), 400, 'invalid_request', 'did');
    assertError(await p({ did: 2004 }), 400, 'invalid_request', 'name');
    assertError(await p({ did: 2004, name: '' }), 422, 'invalid_value', 'name');
    assertError(await p({ did: 2004, name: 'x', expiration: T0 + 100, days: '1' }), 400, 'invalid_request');
    assertError(await p({ did: 2004, name: 'x', expiration: 'tomorrow' }), 400, 'invalid_request', 'expiration');
    assertError(await p({ did: 2004, name: 'x', expiration: T0 - 1 }), 422, 'invalid_value', 'expiration');
    assertError(await p({ did: 2004, name: 'x', hours: 'two' }), 400, 'invalid_request', 'hours');
    assertError(await p({ did: 2004, name: 'x', hours: '0' }), 422, 'invalid_value', 'hours');
    assertError(await p({ did: 2004, name: 'x', weeks: '1' }), 400, 'invalid_request', 'weeks');
  });

  test('PATCH changes only name and expiration', async () => {
    const sid = str(only((await c.v2('POST', '/v2/location-shares/', { did: 2004, name: 'old' })).json).sid);
    const r = await c.v2('PATCH', `/v2/location-shares/${sid}`, { name: 'new', expiration: T0 + 3600 });
    assert.equal(r.status, 200, r.text);
    assert.equal(str(r.json.success), 'Location Share has been modified successfully!');
    assert.equal(str(only(r.json).name), 'new');
    assert.equal(num(only(r.json).expiration), T0 + 3600);
    assert.equal(num(r.json.resultCount), 1);
    assertError(await c.v2('PATCH', `/v2/location-shares/${sid}`, { did: 2005 }), 400, 'invalid_request', 'did');
    assertError(await c.v2('PATCH', `/v2/location-shares/${sid}`, { name: 'n', hours: '1' }), 400, 'invalid_request', 'hours');
    assertError(await c.v2('PATCH', `/v2/location-shares/${sid}`, {}), 400, 'invalid_request');
    assertError(await c.v2('PATCH', `/v2/location-shares/${sid}`, { expiration: 'never' }), 400, 'invalid_request', 'expiration');
    assertError(await c.v2('PATCH', '/v2/location-shares/nope', { name: 'x' }), 404, 'not_found', 'sid');
  });

  test('DELETE', async () => {
    const sid = str(only((await c.v2('POST', '/v2/location-shares/', { did: 2004, name: 'bye' })).json).sid);
    const r = await c.v2('DELETE', `/v2/location-shares/${sid}/`);
    assert.equal(str(r.json.success), 'Deleted Successfully!');
    assertError(await c.v2('GET', `/v2/location-shares/${sid}`), 404, 'not_found');
    assertError(await c.v2('DELETE', `/v2/location-shares/${sid}`), 404, 'not_found');
  });
});

test('share ids are deterministic given the seed', async () => {
  // seeded shares come from the seed: compare through the API
  const list = async (seed: number): Promise<string[]> => {
    const c = await signedIn({ seed });
    try {
      const before = keys((await c.v2('GET', '/v2/location-shares/')).json.result);
      const created = keys((await c.v2('POST', '/v2/location-shares/', { did: 2004, name: 'n' })).json.result);
      return [...before, ...created];
    } finally {
      await c.sb.close();
    }
  };
  const a = await list(5);
  assert.deepEqual(await list(5), a);
  assert.notDeepEqual(await list(6), a);
});
