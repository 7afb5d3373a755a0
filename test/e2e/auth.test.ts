import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO, startHarness, type Harness } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

interface Stored {
  profiles: Record<string, { accessToken?: string; refreshToken?: string; cookies?: string; password?: string; email?: string }>;
}

function stored(h: Harness, profile = 'default') {
  const file = join(h.env.TRACKCTL_DATA_DIR ?? '', 'credentials.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as Stored).profiles[profile] ?? {};
}

const refreshes = (h: Harness) => h.sandbox.requests.filter((r) => r.method === 'GET' && r.path === '/v2/access-token/').length;

describe('login, status, token, logout (file credential store)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ login: false, inProcess: true });
  });
  after(async () => h.close());

  test('without credentials: exit 3 with a hint, nothing sent', async () => {
    h.sandbox.clearRequests();
    const r = await h.run(['devices', 'list']);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /not signed in/);
    assert.match(r.stderr, /trackctl login/);
    assert.deepEqual(h.sandbox.requests, []);
  });

  test('login without a terminal and without a password is exit 2 naming the flags', async () => {
    const r = await h.run(['login', '--email', DEMO.email]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--password-stdin/);
    // Both missing: named at once, for login and token create alike, with the environment as the other way.
    for (const args of [['login'], ['token', 'create']]) {
      await h.expectUsage(args, 'missing --email, --password-stdin (no terminal to ask on)');
      await h.expectUsage(args, 'TRACKCTL_EMAIL and TRACKCTL_PASSWORD');
    }
    const fromEnv = await h.run(['login'], { env: { TRACKCTL_EMAIL: DEMO.email } });
    assert.equal(fromEnv.code, 2);
    assert.match(fromEnv.stderr, /missing --password-stdin \(no terminal/);
  });

  test('wrong password is exit 3', async () => {
    const r = await h.run(['login', '--email', DEMO.email, '--password-stdin'], { input: 'wrong\n' });
    assert.equal(r.code, 3);
  });

  test('login stores both credentials in a 0600 file; status reports them', async () => {
    await h.login('both');
    const file = join(h.env.TRACKCTL_DATA_DIR ?? '', 'credentials.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const creds = stored(h);
    assert.ok(creds.accessToken && creds.refreshToken && creds.cookies);
    assert.equal(creds.password, undefined, 'the password is not kept without --save-password');

    const status = await h.json<Record<string, unknown>>(['login', 'status']);
    assert.equal(status.source, 'file');
    assert.equal(status.email, DEMO.email);
    assert.equal(status.sessionCookie, true);
    assert.ok(Number(status.accessTokenSecondsLeft) > 3500);
    // When each lapses: the refresh token a month on (the interface's lifetime), the cookie as its Max-Age says.
    const nowS = Date.now() / 1000;
    assert.ok(Math.abs(Number(status.refreshTokenExpiresAt) - (nowS + 30 * 86_400)) < 600, String(status.refreshTokenExpiresAt));
    assert.ok(Math.abs(Number(status.sessionExpiresAt) - (nowS + 86_400)) < 600, String(status.sessionExpiresAt)); // the sandbox's Max-Age=86400
    assert.equal((status.login as { name?: string }).name, 'Demo Admin');
    const req = h.sandbox.requests.find((q) => q.path === '/login/');
    assert.ok(req?.auth.cookie && !req.auth.bearer, 'GET /login/ carries the cookie only');
  });

  test('placement: bearer on /v2/, cookie only on unversioned paths', async () => {
    h.sandbox.clearRequests();
    assert.equal((await h.run(['devices', 'list'])).code, 0);
    assert.equal((await h.run(['api', '/all-units/'])).code, 0);
    const [v2, unversioned] = h.sandbox.requests;
    assert.ok(v2?.auth.bearer);
    assert.ok(unversioned?.auth.cookie);
    const tokenOnly = await h.run(['api', '/all-units/', '--auth', 'token']);
    assert.equal(tokenOnly.code, 3);
  });

  test('token show decodes the claims and never prints the token; token print does', async () => {
    const creds = stored(h);
    const show = await h.run(['token', 'show', '-o', 'json']);
    assert.equal(show.code, 0, show.stderr);
    const claims = JSON.parse(show.stdout) as Record<string, unknown>;
    assert.equal(claims.sub, '1001:2001');
    assert.equal(claims.aid, 1001);
    assert.equal(claims.uid, 2001);
    assert.deepEqual(claims.scopes, ['all']);
    assert.ok(Number(claims.secondsLeft) > 3500);
    assert.ok(!show.stdout.includes(creds.accessToken ?? '?') && !show.stderr.includes(creds.accessToken ?? '?'));

    const print = await h.run(['token', 'print']);
    assert.equal(print.stdout.trim(), creds.accessToken);
    const res = await fetch(`${h.sandbox.url}/v2/groups/`, { headers: { authorization: `Bearer ${print.stdout.trim()}` } });
    assert.equal(res.status, 200);
  });

  test('token refresh uses the refresh grant (a GET with a JSON body) and stores the rotated tokens', async () => {
    const before = stored(h);
    h.sandbox.clearRequests();
    const r = await h.run(['token', 'refresh']);
    assert.equal(r.code, 0, r.stderr);
    const req = h.sandbox.requests.find((q) => q.path === '/v2/access-token/');
    assert.equal(req?.method, 'GET');
    const after = stored(h);
    assert.notEqual(after.accessToken, before.accessToken);
    assert.notEqual(after.refreshToken, before.refreshToken);
  });

  test('-v traces requests with every secret redacted', async () => {
    const secrets = () => {
      const c = stored(h);
      return [c.accessToken, c.refreshToken, ...(c.cookies ?? '').split('; ').map((kv) => kv.split('=')[1]), DEMO.password === 'demo' ? undefined : DEMO.password];
    };
    const login = await h.run(['login', '--email', DEMO.email, '--password-stdin', '-v'], { input: `${DEMO.password}\n` });
    assert.equal(login.code, 0, login.stderr);
    const list = await h.run(['devices', 'list', '-v']);
    const users = await h.run(['api', '/login/', '-v']);
    const refresh = await h.run(['token', 'refresh', '-v']);
    const trace = login.stderr + list.stderr + users.stderr + refresh.stderr;
    assert.match(trace, /> POST http:\/\/127\.0\.0\.1:\d+\/v2\/access-token\//);
    assert.match(trace, /< 200/);
    assert.match(trace, /authorization: Bearer \[REDACTED\]/i);
    assert.match(trace, /"password":"\[REDACTED\]"/);
    assert.match(trace, /"access_token":"\[REDACTED\]"/);
    for (const secret of [...secrets(), ...login.stderr.match(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g) ?? []]) {
      if (secret) assert.ok(!trace.includes(secret), 'no secret in the trace');
    }
    // Secrets a user puts in a query string or a body of their own are masked too; other values are not.
    const own = await h.run(['api', '/v2/devices/?access_token=QSECRET&api_key=KSECRET&page=2', '-X', 'POST', '-d', '{"secret":"BSECRET","apiKey":"CSECRET","name":"shown"}', '-v']);
    assert.match(own.stderr, /\?access_token=\[REDACTED\]&api_key=\[REDACTED\]&page=2/);
    assert.match(own.stderr, /"secret":"\[REDACTED\]","apiKey":"\[REDACTED\]","name":"shown"/);
    for (const secret of ['QSECRET', 'KSECRET', 'BSECRET', 'CSECRET']) assert.ok(!own.stderr.includes(secret), secret);
  });

  test("signing in one way keeps the other way's credentials of the same account", async () => {
    const before = stored(h);
    const r = await h.run(['login', '--email', DEMO.email, '--password-stdin', '--method', 'session'], { input: `${DEMO.password}\n` });
    assert.equal(r.code, 0, r.stderr);
    const after = stored(h);
    assert.equal(after.refreshToken, before.refreshToken);
    assert.equal(after.accessToken, before.accessToken);
    assert.notEqual(after.cookies, before.cookies);
    // So does `token create` with the password from the environment: the stored cookie stays.
    const token = await h.run(['token', 'create'], { env: { TRACKCTL_EMAIL: DEMO.email, TRACKCTL_PASSWORD: DEMO.password } });
    assert.equal(token.code, 0, token.stderr);
    const renewed = stored(h);
    assert.ok(renewed.accessToken);
    assert.equal(renewed.cookies, after.cookies);
    assert.equal((await h.run(['units', '-o', 'json'])).code, 0, 'the session cookie still works');
  });

  test('logout forgets the credentials; the next command is exit 3', async () => {
    const r = await h.run(['logout']);
    assert.equal(r.code, 0);
    assert.equal(stored(h).accessToken, undefined);
    assert.equal((await h.run(['devices', 'list'])).code, 3);
  });
});

describe('renewal', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ login: false, inProcess: true });
  });
  after(async () => h.close());

  test('an expired access token is refreshed after a 401 and the request retried once', async () => {
    await h.login('both');
    h.sandbox.setNow(Date.now() + 2 * 3600_000); // server-side, the token is now expired
    h.sandbox.clearRequests();
    const r = await h.run(['devices', 'list', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      h.sandbox.requests.map((q) => `${q.method} ${q.path} ${q.status}`),
      ['GET /v2/devices/ 401', 'GET /v2/access-token/ 200', 'GET /v2/devices/ 200'],
    );
  });

  test('a token with under a minute left is refreshed before use — once across 20 parallel processes', async () => {
    const now = Date.now();
    h.sandbox.setNow(now - 3600_000 + 20_000); // tokens issued now expire in ~20 s
    await h.login('token');
    h.sandbox.setNow(now);
    h.sandbox.clearRequests();
    // Processes: the refresh lock is between processes.
    const runs = await Promise.all(Array.from({ length: 20 }, () => h.spawn(['devices', 'list', '-o', 'json'])));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    assert.equal(refreshes(h), 1, 'exactly one refresh request');
    assert.equal(h.sandbox.requests.filter((q) => q.status === 401).length, 0);
  });

  test('a rejected refresh token with no way to renew is exit 3 with a hint', async () => {
    await h.login('token');
    h.sandbox.setNow(Date.now() + 40 * 24 * 3600_000); // past the refresh token's month
    const r = await h.run(['devices', 'list']);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /trackctl login/);
  });

  test('an expired session is renewed by signing in again when the password was saved', async () => {
    h.sandbox.setNow(Date.now());
    const r0 = await h.run(['login', '--email', DEMO.email, '--password-stdin', '--save-password'], { input: `${DEMO.password}\n` });
    assert.equal(r0.code, 0, r0.stderr);
    h.sandbox.setNow(Date.now() + 3 * 24 * 3600_000); // session cookie (1 day) expired
    h.sandbox.clearRequests();
    const r = await h.run(['api', '/all-units/']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      h.sandbox.requests.map((q) => `${q.method} ${q.path} ${q.status}`),
      ['GET /all-units/ 401', 'POST /api/login/ 200', 'GET /all-units/ 200'],
    );
  });

  test('without a saved password an expired session is exit 3', async () => {
    h.sandbox.setNow(Date.now());
    await h.login('both');
    h.sandbox.setNow(Date.now() + 3 * 24 * 3600_000);
    const r = await h.run(['api', '/all-units/']);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /login/);
  });
});

describe('credentials from the environment', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ login: false, inProcess: true });
  });
  after(async () => h.close());

  test('TRACKCTL_TOKEN works for /v2/ and nothing is stored', async () => {
    const tokenRes = await fetch(`${h.sandbox.url}/v2/access-token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', scope: 'all', client_id: 'ci', username: DEMO.email, password: DEMO.password }),
    });
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    // credential-store=keychain would fail loudly here if it were touched: there is no usable keychain for this profile.
    const env = { TRACKCTL_TOKEN: access_token, TRACKCTL_CREDENTIAL_STORE: 'keychain', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' };
    const r = await h.run(['devices', 'list', '-o', 'json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const status = await h.run(['login', 'status', '-o', 'json'], { env });
    assert.equal((JSON.parse(status.stdout) as { source: string }).source, 'environment');
    assert.equal(existsSync(join(h.env.TRACKCTL_DATA_DIR ?? '', 'credentials.json')), false);
    const unversioned = await h.run(['api', '/all-units/'], { env });
    assert.equal(unversioned.code, 3);
    assert.match(unversioned.stderr, /session cookie/);
  });

  test('TRACKCTL_EMAIL + TRACKCTL_PASSWORD sign in as needed for both kinds of endpoint', async () => {
    const env = { TRACKCTL_EMAIL: DEMO.email, TRACKCTL_PASSWORD: DEMO.password };
    assert.equal((await h.run(['devices', 'list'], { env })).code, 0);
    assert.equal((await h.run(['api', '/all-units/'], { env })).code, 0);
    assert.equal(existsSync(join(h.env.TRACKCTL_DATA_DIR ?? '', 'credentials.json')), false);
  });

  test('refused environment credentials point at the variables, not at trackctl login', async () => {
    const wrong = await h.run(['devices', 'list'], { env: { TRACKCTL_EMAIL: DEMO.email, TRACKCTL_PASSWORD: 'wrong' } });
    assert.equal(wrong.code, 3);
    assert.match(wrong.stderr, /TRACKCTL_EMAIL and TRACKCTL_PASSWORD: check them/);
    const cookie = await h.run(['api', '/all-units/'], { env: { TRACKCTL_EMAIL: DEMO.email, TRACKCTL_PASSWORD: 'wrong' } });
    assert.equal(cookie.code, 3);
    assert.match(cookie.stderr, /TRACKCTL_EMAIL and TRACKCTL_PASSWORD: check them/);
    const token = await h.run(['devices', 'list'], { env: { TRACKCTL_TOKEN: 'not-a-token' } });
    assert.equal(token.code, 3);
    assert.match(token.stderr, /TRACKCTL_TOKEN was refused/);
    for (const r of [wrong, cookie, token]) assert.doesNotMatch(r.stderr, /trackctl login\b(?! --method)/);
  });

  test('--sandbox needs no set-up at all', async () => {
    const r = await runInProcess(['--sandbox', 'devices', 'list', '-o', 'json'], { env: { TRACKCTL_CONFIG_DIR: join(h.dir, 'fresh') } });
    assert.equal(r.code, 0, r.stderr);
    assert.ok((JSON.parse(r.stdout) as unknown[]).length >= 12);
  });
});
