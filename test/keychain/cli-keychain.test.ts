/**
 * The credential store as a user meets it: `trackctl login` with the default
 * credential-store (auto). With a real Secret Service the secrets land there
 * (proved with secret-tool) and no file is written; with no D-Bus at all they
 * fall back to a 0600 file with a one-time warning.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO, startHarness, type Harness } from '../helpers/cli.js';
import { inCI, needTool } from '../helpers/tools.js';

describe('credentials in the OS keychain and the file fallback', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ login: false });
  });
  after(async () => h.close());

  const login = (env: Record<string, string | undefined>) =>
    h.run(['login', '--email', DEMO.email, '--password-stdin', '-p', 'kc'], { input: `${DEMO.password}\n`, env });

  test('with a Secret Service: stored there, found by secret-tool, no credentials file', async (t) => {
    if (!needTool(t, 'secret-tool')) return;
    const bus = process.env.DBUS_SESSION_BUS_ADDRESS;
    if (!bus) {
      if (inCI()) throw new Error('CI must run the tests inside a D-Bus session with a Secret Service (see .ci/run)');
      t.skip('no D-Bus session');
      return;
    }
    const env = { TRACKCTL_CREDENTIAL_STORE: 'auto', DBUS_SESSION_BUS_ADDRESS: bus };
    const r = await login(env);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /warning/);
    const found = spawnSync('secret-tool', ['lookup', 'service', 'trackctl', 'username', 'kc'], { encoding: 'utf8' });
    assert.equal(found.status, 0, 'secret-tool finds the entry');
    const secret = JSON.parse(found.stdout) as { accessToken?: string; refreshToken?: string; cookies?: string };
    assert.ok(secret.accessToken && secret.refreshToken && secret.cookies);
    assert.equal(existsSync(join(h.env.TRACKCTL_DATA_DIR ?? '', 'credentials.json')), false);

    const list = await h.run(['devices', 'list', '-p', 'kc', '-o', 'json'], { env });
    assert.equal(list.code, 0, list.stderr);
    const status = JSON.parse((await h.run(['login', 'status', '-p', 'kc', '-o', 'json'], { env })).stdout) as { source: string };
    assert.equal(status.source, 'keychain');

    assert.equal((await h.run(['logout', '-p', 'kc'], { env })).code, 0);
    const gone = spawnSync('secret-tool', ['lookup', 'service', 'trackctl', 'username', 'kc'], { encoding: 'utf8' });
    assert.notEqual(gone.status, 0, 'logout removed the entry');
  });

  test('with no D-Bus at all: a 0600 file and a warning shown once', async () => {
    const env = { TRACKCTL_CREDENTIAL_STORE: 'auto', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };
    const first = await login(env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /warning: .*file/i);
    const file = join(h.env.TRACKCTL_DATA_DIR ?? '', 'credentials.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const second = await h.run(['devices', 'list', '-p', 'kc'], { env });
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stderr, /warning/, 'the warning is shown once');
  });
});
