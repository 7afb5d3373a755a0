import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { startSandbox, DEMO_ACCOUNT } from '../../src/sandbox/index.js';
import { assertError, cookieLogin, passwordGrant, req, signedIn, str, num, T0 } from './helpers.js';

const decode = (part: string): Record<string, unknown> => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('access token (OAuth password and refresh grants)', () => {
  test('password grant returns a Bearer HS256 JWT with exactly the spec claims', async () => {
    const sb = await startSandbox({ now: () => T0 * 1000 });
    try {
      const r = await passwordGrant(sb.url, 'my-client');
      assert.equal(r.status, 200);
      assert.equal(r.json.token_type as unknown, 'Bearer');
      assert.equal(num(r.json.expires_in), 3600);
      assert.equal(typeof r.json.success, 'string');
      assert.equal(typeof r.json.refresh_token, 'string');
      const [h, p, sig] = str(r.json.access_token).split('.') as [string, string, string];
      assert.deepEqual(decode(h), { typ: 'JWT', alg: 'HS256' });
      const claims = decode(p);
      assert.deepEqual(Object.keys(claims).sort(), ['aud', 'exp', 'iat', 'jti', 'nbf', 'scopes', 'sub']);
      assert.equal(claims.aud, 'my-client');
      assert.equal(claims.iat, T0);
      assert.equal(claims.nbf, T0);
      assert.equal(claims.exp, T0 + 3600);
      assert.match(String(claims.sub), /^1001:\d+$/);
      assert.deepEqual(claims.scopes, ['all']);
      assert.equal(typeof claims.jti, 'string');
      assert.ok(sig.length > 20);
    } finally {
      await sb.close();
    }
  });

  test('the token is a real HMAC-SHA256 signature: a tampered payload is rejected', async () => {
    const c = await signedIn();
    try {
      const [h, p, s] = c.token.split('.') as [string, string, string];
      const claims = decode(p);
      claims.sub = '1001:2002';
      const forged = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
      assertError(await req(c.sb.url, 'GET', '/v2/groups/', { token: forged }), 401, 'unauthorized');
      const wrongKey = createHmac('sha256', 'guess').update(`${h}.${p}`).digest('base64url');
      assertError(await req(c.sb.url, 'GET', '/v2/groups/', { token: `${h}.${p}.${wrongKey}` }), 401, 'unauthorized');
      assertError(await req(c.sb.url, 'GET', '/v2/groups/', { token: 'not-a-jwt' }), 401, 'unauthorized');
      assertError(await req(c.sb.url, 'GET', '/v2/groups/', { headers: { authorization: 'Basic abc' } }), 401, 'unauthorized');
      assert.equal((await c.v2('GET', '/v2/groups/')).status, 200);
    } finally {
      await c.sb.close();
    }
  });

  test('access tokens expire on the sandbox clock (setNow)', async () => {
    const c = await signedIn({ accessTtl: 60 });
    try {
      assert.equal((await c.v2('GET', '/v2/devices/')).status, 200);
      c.sb.setNow((T0 + 59) * 1000);
      assert.equal((await c.v2('GET', '/v2/devices/')).status, 200);
      c.sb.setNow((T0 + 60) * 1000);
      const r = await c.v2('GET', '/v2/devices/');
      assertError(r, 401, 'unauthorized');
      assert.match(str(r.json.message), /expired/);
    } finally {
      await c.sb.close();
    }
  });

  test('refresh grant is a GET with a JSON body and rotates the refresh token', async () => {
    const c = await signedIn();
    try {
      const body = { grant_type: 'refresh_token', scope: 'all', client_id: 'trackctl-test', refresh_token: c.refresh };
      const r = await req(c.sb.url, 'GET', '/v2/access-token/', { body });
      assert.equal(r.status, 200, r.text);
      assert.equal(str(r.json.token_type), 'Bearer');
      assert.notEqual(str(r.json.refresh_token), c.refresh);
      assert.equal((await req(c.sb.url, 'GET', '/v2/devices/', { token: str(r.json.access_token) })).status, 200);
      // the old refresh token is spent
      assertError(await req(c.sb.url, 'GET', '/v2/access-token/', { body }), 401, 'unauthorized');
      // the new one works once
      const again = await req(c.sb.url, 'GET', '/v2/access-token/', { body: { ...body, refresh_token: str(r.json.refresh_token) } });
      assert.equal(again.status, 200);
    } finally {
      await c.sb.close();
    }
  });

  test('refresh tokens expire, and are bound to their client_id', async () => {
    const c = await signedIn({ refreshTtl: 100 });
    try {
      const body = { grant_type: 'refresh_token', scope: 'all', client_id: 'other', refresh_token: c.refresh };
      assertError(await req(c.sb.url, 'GET', '/v2/access-token/', { body }), 401, 'unauthorized');
      const t = await passwordGrant(c.sb.url);
      c.sb.setNow((T0 + 100) * 1000);
      const r = await req(c.sb.url, 'GET', '/v2/access-token/', { body: { ...body, client_id: 'trackctl-test', refresh_token: str(t.json.refresh_token) } });
      assertError(r, 401, 'unauthorized');
      assert.match(str(r.json.message), /expired/);
    } finally {
      await c.sb.close();
    }
  });

  test('token endpoint validates its input', async () => {
    const sb = await startSandbox({ now: () => T0 * 1000 });
    try {
      const good = { grant_type: 'password', scope: 'all', client_id: 'x', username: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password };
      assertError(await req(sb.url, 'POST', '/v2/access-token/', { body: { ...good, password: 'nope' } }), 401, 'unauthorized');
      assertError(await req(sb.url, 'POST', '/v2/access-token/', { body: { ...good, username: 'who@example.com' } }), 401, 'unauthorized');
      assertError(await req(sb.url, 'POST', '/v2/access-token/', { body: { ...good, grant_type: 'client_credentials' } }), 422, 'invalid_value', 'grant_type');
      assertError(await req(sb.url, 'POST', '/v2/access-token/', { body: { ...good, scope: 'read' } }), 422, 'invalid_value', 'scope');
      const { client_id: _drop, ...noClient } = good;
      assertError(await req(sb.url, 'POST', '/v2/access-token/', { body: noClient }), 400, 'invalid_request', 'client_id');
      assertError(await req(sb.url, 'POST', '/v2/access-token/', { body: { ...good, extra: 1 } }), 400, 'invalid_request', 'extra');
      assertError(await req(sb.url, 'POST', '/v2/access-token/', { rawBody: '{"grant_type":' }), 400, 'invalid_request');
      assertError(await req(sb.url, 'GET', '/v2/access-token/'), 400, 'invalid_request');
      assertError(await req(sb.url, 'GET', '/v2/access-token/', { body: { grant_type: 'password', scope: 'all', client_id: 'x', refresh_token: 'r' } }), 422, 'invalid_value', 'grant_type');
      // OAuth clients may send a form body
      const form = new URLSearchParams(good).toString();
      const r = await req(sb.url, 'POST', '/v2/access-token/', { rawBody: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(r.status, 200);
    } finally {
      await sb.close();
    }
  });
});

describe('cookie login', () => {
  test('POST /api/login/ sets an HttpOnly session cookie and returns login data', async () => {
    const sb = await startSandbox({ now: () => T0 * 1000 });
    try {
      const r = await req(sb.url, 'POST', '/api/login/', { body: { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password } });
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.json), ['success', 'aid', 'uid', 'name', 'accountState', 'accountType', 'userType', 'loginLevel', 'hasDevice']);
      assert.equal(str(r.json.success), 'Logged in successfully!');
      assert.equal(str(r.json.userType), 'dispatcher');
      assert.equal(str(r.json.loginLevel), 'admin');
      assert.equal(str(r.json.accountState), 'Active');
      const cookie = String(r.headers['set-cookie']);
      assert.match(cookie, /HttpOnly/);
      assert.match(cookie, /Path=\//);
      assertError(await req(sb.url, 'POST', '/api/login/', { body: { email: DEMO_ACCOUNT.email, password: 'x' } }), 401, 'unauthorized');
      assertError(await req(sb.url, 'POST', '/api/login/', { body: { email: DEMO_ACCOUNT.email } }), 400, 'invalid_request', 'password');
      assertError(await req(sb.url, 'POST', '/api/login/', { body: [] }), 400, 'invalid_request');
    } finally {
      await sb.close();
    }
  });

  test('GET /login/ returns the current session with did; sessions expire (sessionTtl)', async () => {
    const sb = await startSandbox({ now: () => T0 * 1000, sessionTtl: 300 });
    try {
      const cookie = await cookieLogin(sb.url);
      const r = await req(sb.url, 'GET', '/login/', { cookie });
      assert.equal(r.status, 200);
      assert.equal(typeof r.json.did, 'number');
      assert.equal(r.json.hasDevice as unknown, false);
      assert.equal(typeof r.json.success, 'string');
      assertError(await req(sb.url, 'GET', '/login/'), 401, 'unauthorized');
      assertError(await req(sb.url, 'GET', '/login/', { cookie: 'track_session=forged' }), 401, 'unauthorized');
      sb.setNow((T0 + 300) * 1000);
      assertError(await req(sb.url, 'GET', '/login/', { cookie }), 401, 'unauthorized');
    } finally {
      await sb.close();
    }
  });
});

describe('auth placement rule', () => {
  test('/v2/ accepts a bearer token or the cookie; unversioned endpoints only the cookie', async () => {
    const c = await signedIn();
    try {
      assert.equal((await c.v2('GET', '/v2/devices/')).status, 200);
      assert.equal((await c.s('GET', '/v2/devices/')).status, 200);
      assertError(await c.raw('GET', '/v2/devices/'), 401, 'unauthorized');
      for (const path of ['/users/', '/all-units/', '/login/', '/reports/history/2004/', '/users/2001']) {
        const r = await c.v2('GET', path);
        assertError(r, 401, 'unauthorized');
        assert.match(str(r.json.message), /session cookie/, path);
        assert.equal((await c.s('GET', path)).status, 200, path);
        assertError(await c.raw('GET', path), 401, 'unauthorized');
      }
      // token and sign-in endpoints need nothing
      assert.equal((await passwordGrant(c.sb.url)).status, 200);
    } finally {
      await c.sb.close();
    }
  });

  test('the request log records which credentials were presented and the valid sub', async () => {
    const c = await signedIn();
    try {
      c.sb.clearRequests();
      await c.v2('GET', '/v2/groups/');
      await c.s('GET', '/users/');
      await c.raw('GET', '/v2/groups/', { token: 'bad.token.here' });
      const [a, b, d] = c.sb.requests;
      assert.deepEqual(a?.auth, { bearer: true, cookie: false, sub: `1001:2001` });
      assert.deepEqual(b?.auth, { bearer: false, cookie: true, sub: `1001:2001` });
      assert.deepEqual(d?.auth, { bearer: true, cookie: false });
      assert.equal(d?.status, 401);
      assert.equal(a?.time, T0 * 1000);
      assert.equal(a?.method, 'GET');
      assert.equal(a?.path, '/v2/groups/');
    } finally {
      await c.sb.close();
    }
  });
});
