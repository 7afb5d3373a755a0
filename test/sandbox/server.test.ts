import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resetState, startSandbox } from '../../src/sandbox/index.js';
import { assertError, cookieLogin, keys, num, passwordGrant, req, signedIn, str, T0 } from './helpers.js';

describe('routing', () => {
  test('unknown paths are 404 naming method and path; wrong methods 405 with Allow', async () => {
    const c = await signedIn();
    try {
      const r = await c.v2('GET', '/v2/nothing/here');
      assertError(r, 404, 'not_found');
      assert.match(str(r.json.message), /GET \/v2\/nothing\/here/);
      assertError(await c.v2('GET', '/v2/user/2001'), 405, 'method_not_allowed');
      const m = await c.v2('PUT', '/v2/groups/101');
      assertError(m, 405, 'method_not_allowed');
      assert.deepEqual(String(m.headers.allow).split(', ').sort(), ['DELETE', 'GET', 'PATCH']);
      assertError(await c.v2('POST', '/users/'), 405, 'method_not_allowed');
      assertError(await c.v2('GET', '/v2/devices/did/%E0%A4%A'), 400, 'invalid_request');
      assert.equal((await c.v2('GET', '/v2/groups/?page=1')).status, 200);
    } finally {
      await c.sb.close();
    }
  });

  test('control endpoints: request log, clock', async () => {
    const c = await signedIn();
    try {
      await req(c.sb.url, 'DELETE', '/_sandbox/requests');
      await c.v2('POST', '/v2/groups/', { name: 'Logged' });
      const log = await req(c.sb.url, 'GET', '/_sandbox/requests');
      assert.equal(log.status, 200);
      const entries = log.json as unknown as Array<{ method: string; path: string; status: number; body: unknown }>;
      assert.deepEqual(entries.map((e) => [e.method, e.path, e.status]), [['POST', '/v2/groups/', 200]]);
      assert.deepEqual(entries[0]?.body, { name: 'Logged' });
      assert.equal(c.sb.requests.length, 1);
      c.sb.clearRequests();
      assert.equal(c.sb.requests.length, 0);

      assert.equal(num((await req(c.sb.url, 'GET', '/_sandbox/clock')).json.now), T0);
      assert.equal(num((await req(c.sb.url, 'POST', '/_sandbox/clock', { body: { advance: 3600 } })).json.now), T0 + 3600);
      assertError(await c.v2('GET', '/v2/groups/'), 401, 'unauthorized'); // the token expired
      assert.equal(num((await req(c.sb.url, 'POST', '/_sandbox/clock', { body: { now: T0 } })).json.now), T0);
      assert.equal((await c.v2('GET', '/v2/groups/')).status, 200);
      assertError(await req(c.sb.url, 'POST', '/_sandbox/clock', { body: {} }), 400, 'invalid_request');
      assertError(await req(c.sb.url, 'GET', '/_sandbox/nope'), 404, 'not_found');
    } finally {
      await c.sb.close();
    }
  });
});

describe('persistence', () => {
  test('state survives a restart: records, sessions and tokens (secret kept); reset removes it', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const stateFile = join(dir, 'nested', 'state.json');
    let sb = await startSandbox({ stateFile, now: () => T0 * 1000 });
    const token = str((await passwordGrant(sb.url)).json.access_token);
    const cookie = await cookieLogin(sb.url);
    const created = await req(sb.url, 'POST', '/v2/devices/', { token, body: { name: 'Persisted', trackerID: '123456789012345', deviceType: 'GL300' } });
    const did = num(created.json.id);
    await sb.close();
    assert.ok(existsSync(stateFile));
    assert.deepEqual(readdirSync(join(dir, 'nested')), ['state.json'], 'no temp file left behind');
    assert.ok(readFileSync(stateFile).length < 200_000, 'history is not stored');

    sb = await startSandbox({ stateFile, now: () => T0 * 1000, seed: 99 });
    try {
      const r = await req(sb.url, 'GET', `/v2/devices/did/${did}`, { token });
      assert.equal(r.status, 200, 'the old token is still valid');
      assert.equal(str(Object.values(r.json.result!)[0]!.name), 'Persisted');
      assert.equal((await req(sb.url, 'GET', '/login/', { cookie })).status, 200);
      // the loaded state wins over options (seed 99 would have seeded other names)
      assert.ok(keys((await req(sb.url, 'GET', '/v2/groups/', { token })).json.result).includes('101'));
    } finally {
      await sb.close();
    }
    assert.equal(resetState(stateFile), true);
    assert.equal(existsSync(stateFile), false);
    assert.equal(resetState(stateFile), false);
  });

  test('a corrupt state file is a clear error', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-bad-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const stateFile = join(dir, 'state.json');
    writeFileSync(stateFile, '{oops');
    await assert.rejects(startSandbox({ stateFile }), /not valid JSON.*sandbox reset/);
  });

  test('memory mode starts fresh every time', async () => {
    const a = await signedIn();
    await a.v2('POST', '/v2/groups/', { name: 'Ephemeral' });
    await a.sb.close();
    const b = await signedIn();
    try {
      assert.equal(keys((await b.v2('GET', '/v2/groups/')).json.result).length, 3);
    } finally {
      await b.sb.close();
    }
  });
});

describe('scale', () => {
  // How fast is measured, not asserted here (docs/sandbox.md has the figure): a loaded machine would fail a bound.
  test('100,000 extra devices: every one listed, on every call', async () => {
    const c = await signedIn({ devices: 100_000 });
    try {
      const r = await c.v2('GET', '/v2/devices/');
      assert.equal(num(r.json.resultCount), 100_012);
      const again = await c.v2('GET', '/v2/devices/');
      assert.equal(num(again.json.resultCount), 100_012);
    } finally {
      await c.sb.close();
    }
  });
});
