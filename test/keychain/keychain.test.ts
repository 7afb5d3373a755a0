/**
 * Against a REAL Secret Service. Run under:
 *   dbus-run-session -- sh -c 'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; node --test <bundle>'
 * Without a reachable Secret Service the suite is skipped, except with CI=true,
 * where that is a failure (CI must provide one).
 *
 * `secret-tool` (libsecret-tools) proves the secret landed in the Secret
 * Service. @napi-rs/keyring stores items with the attributes
 * `service` = trackctl and `username` = the profile name.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { FALLBACK_MARKER, openSecretStore, type SecretStore, type StoredCredentials } from '../../src/auth/store/index.js';
import { TrackctlError } from '../../src/errors.js';

const lockedWorker = process.env['KEYCHAIN_LOCKED_WORKER'] !== undefined;

async function reportLocked(): Promise<void> {
  // Runs in a fresh D-Bus session whose keyring was never unlocked.
  const dataDir = mkdtempSync(join(tmpdir(), 'trackctl-kc-locked-'));
  const warnings: string[] = [];
  const auto = await openSecretStore({ mode: 'auto', dataDir, warn: (m) => warnings.push(m) });
  const loaded = await auto.load('default');
  const strict = await openSecretStore({ mode: 'keychain', dataDir, warn: () => undefined });
  let keychainError = '';
  await strict.load('default').catch((err: unknown) => {
    keychainError = err instanceof TrackctlError ? err.message : `not a TrackctlError: ${String(err)}`;
  });
  rmSync(dataDir, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify({ kind: auto.kind, loaded: loaded ?? null, warnings, keychainError })}\n`);
}

function secretTool(...args: string[]): { status: number | null; stdout: string } {
  const r = spawnSync('secret-tool', args, { encoding: 'utf8', timeout: 10_000 });
  return { status: r.status, stdout: r.stdout ?? '' };
}

async function probe(dataDir: string): Promise<{ store?: SecretStore; reason?: string }> {
  if (!process.env['DBUS_SESSION_BUS_ADDRESS']) return { reason: 'DBUS_SESSION_BUS_ADDRESS is not set' };
  if (spawnSync('secret-tool', ['--version']).error) return { reason: 'secret-tool (libsecret-tools) is not installed' };
  try {
    return { store: await openSecretStore({ mode: 'keychain', dataDir, warn: () => undefined }) };
  } catch (err) {
    return { reason: (err as Error).message };
  }
}

if (lockedWorker) {
  await reportLocked();
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'trackctl-kc-'));
  const profile = `kc-test-${process.pid}-${Date.now().toString(36)}`;
  const other = `${profile}-other`;
  const { store, reason } = await probe(dataDir);
  const ci = process.env['CI'] === 'true' || process.env['CI'] === '1';
  const skip = store === undefined && !ci ? `no Secret Service: ${reason ?? ''}` : false;

  after(async () => {
    if (store) for (const p of [profile, other]) await store.remove(p).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const creds: StoredCredentials = {
    email: 'ops@example.com',
    aid: 3,
    uid: 9,
    accessToken: 'eyJhbGciOiJIUzI1NiJ9.e30.sig',
    accessExpiresAt: 1_900_000_000,
    refreshToken: 'r-123',
    cookies: 'sessionid=s; csrftoken=c',
  };

  describe('Secret Service backend', { skip }, () => {
    test('a Secret Service is reachable', () => {
      assert.ok(store, `CI=true requires a reachable Secret Service: ${reason ?? ''}`);
    });

    test('save lands in the Secret Service (secret-tool sees it); load and remove', async () => {
      assert.ok(store);
      assert.equal(store.kind, 'keychain');
      assert.equal(store.location, 'Secret Service (service trackctl)');
      await store.save(profile, creds);
      const found = secretTool('lookup', 'service', 'trackctl', 'username', profile);
      assert.equal(found.status, 0, 'secret-tool lookup found the item');
      assert.deepEqual(JSON.parse(found.stdout), creds);
      assert.deepEqual(await store.load(profile), creds);
      assert.ok((await store.profiles?.())?.includes(profile));

      await store.save(profile, { ...creds, accessToken: 'rotated' });
      assert.equal(JSON.parse(secretTool('lookup', 'service', 'trackctl', 'username', profile).stdout).accessToken, 'rotated');

      await store.remove(profile);
      await store.remove(profile);
      assert.notEqual(secretTool('lookup', 'service', 'trackctl', 'username', profile).status, 0);
      assert.equal(await store.load(profile), undefined);
    });

    test('an item written by another libsecret client is read back', async () => {
      assert.ok(store);
      execFileSync('secret-tool', ['store', '--label', 'trackctl test', 'service', 'trackctl', 'username', other], {
        input: JSON.stringify({ accessToken: 'from-secret-tool', uid: 1 }),
      });
      assert.deepEqual(await store.load(other), { accessToken: 'from-secret-tool', uid: 1 });
    });

    test('probes leave no entries behind', async () => {
      assert.ok(store);
      const all = secretTool('search', '--all', 'service', 'trackctl');
      assert.doesNotMatch(all.stdout, /__probe__/);
      assert.ok(!(await store.profiles?.())?.some((p) => p.startsWith('__probe__')));
    });

    test('auto mode uses the keychain silently and clears an old fallback marker', async () => {
      const marker = join(dataDir, FALLBACK_MARKER);
      writeFileSync(marker, 'old');
      const warnings: string[] = [];
      const auto = await openSecretStore({ mode: 'auto', dataDir, warn: (m) => warnings.push(m) });
      assert.equal(await auto.load(`${profile}-absent`), undefined, 'a null read triggers the write probe');
      assert.equal(auto.kind, 'keychain');
      await auto.save(profile, creds);
      assert.equal(secretTool('lookup', 'service', 'trackctl', 'username', profile).status, 0);
      await auto.remove(profile);
      assert.deepEqual(warnings, []);
      assert.equal(existsSync(marker), false);
    });

    const canLock = spawnSync('dbus-run-session', ['--version']).error === undefined;
    test('a locked keyring: auto falls back to the file, keychain mode fails', { skip: !canLock }, () => {
      const home = mkdtempSync(join(tmpdir(), 'trackctl-kc-home-'));
      const r = spawnSync('dbus-run-session', ['--', process.execPath, fileURLToPath(import.meta.url)], {
        encoding: 'utf8',
        timeout: 30_000,
        env: { ...process.env, KEYCHAIN_LOCKED_WORKER: '1', HOME: home, XDG_DATA_HOME: join(home, 'data') },
      });
      rmSync(home, { recursive: true, force: true });
      const line = r.stdout.split('\n').find((l) => l.startsWith('{'));
      assert.ok(line, `worker printed a result; stderr: ${r.stderr}`);
      const result = JSON.parse(line) as { kind: string; loaded: unknown; warnings: string[]; keychainError: string };
      assert.equal(result.kind, 'file');
      assert.equal(result.loaded, null);
      assert.equal(result.warnings.length, 1);
      assert.match(result.warnings[0] ?? '', /no usable OS keychain/);
      assert.match(result.keychainError, /the OS keychain is not usable/);
    });
  });
}
