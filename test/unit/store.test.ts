import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FALLBACK_MARKER, MemoryStore, openSecretStore, type StoredCredentials } from '../../src/auth/store/index.js';
import { TrackctlError } from '../../src/errors.js';

const posix = process.platform !== 'win32';
const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-store-'));
  dirs.push(dir);
  return dir;
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const creds: StoredCredentials = {
  email: 'ops@example.com',
  clientId: 'trackctl',
  aid: 7,
  uid: 42,
  accessToken: 'eyJ.access',
  accessExpiresAt: 1_900_000_000,
  refreshToken: 'refresh-1',
  refreshExpiresAt: 1_900_100_000,
  cookies: 'sessionid=abc; csrftoken=def',
  sessionCreatedAt: 1_899_000_000,
};

function collect(): { warn: (m: string) => void; messages: string[] } {
  const messages: string[] = [];
  return { warn: (m) => messages.push(m), messages };
}

describe('file store', () => {
  test('round trip, 0600 file in a 0700 directory, no temp files left', async () => {
    const dataDir = join(tempDir(), 'data');
    const { warn, messages } = collect();
    const store = await openSecretStore({ mode: 'file', dataDir, warn });
    assert.equal(store.kind, 'file');
    assert.equal(store.location, join(dataDir, 'credentials.json'));
    assert.equal(await store.load('default'), undefined);

    await store.save('default', creds);
    await store.save('staging', { accessToken: 't2' });
    await store.save('default', { ...creds, accessToken: 'eyJ.rotated' });
    assert.deepEqual(await store.load('default'), { ...creds, accessToken: 'eyJ.rotated' });
    assert.deepEqual(await store.profiles?.(), ['default', 'staging']);
    if (posix) {
      assert.equal(statSync(store.location).mode & 0o777, 0o600);
      assert.equal(statSync(dataDir).mode & 0o777, 0o700);
    }
    assert.deepEqual(readdirSync(dataDir).sort(), ['credentials.json']);

    await store.remove('default');
    await store.remove('default');
    assert.equal(await store.load('default'), undefined);
    assert.deepEqual(await store.profiles?.(), ['staging']);
    assert.deepEqual(messages, []);
  });

  test('parallel saves for different profiles are all kept', async () => {
    const dataDir = tempDir();
    const store = await openSecretStore({ mode: 'file', dataDir, warn: () => undefined });
    await Promise.all(Array.from({ length: 12 }, (_, i) => store.save(`p${i}`, { uid: i })));
    assert.equal((await store.profiles?.())?.length, 12);
    assert.deepEqual(await store.load('p11'), { uid: 11 });
    assert.deepEqual(readdirSync(dataDir), ['credentials.json']);
  });

  test('warns once when the file is readable by others', { skip: !posix }, async () => {
    const dataDir = tempDir();
    const { warn, messages } = collect();
    const store = await openSecretStore({ mode: 'file', dataDir, warn });
    await store.save('default', creds);
    chmodSync(store.location, 0o644);
    await store.load('default');
    await store.load('default');
    assert.equal(messages.length, 1);
    assert.match(messages[0] ?? '', /readable by others \(mode 0644\); run: chmod 600/);
    await store.save('default', creds);
    assert.equal(statSync(store.location).mode & 0o777, 0o600, 'a save rewrites it 0600');
  });

  test('unknown and mistyped fields are dropped; corrupt file is a clear error', async () => {
    const dataDir = tempDir();
    const path = join(dataDir, 'credentials.json');
    writeFileSync(path, JSON.stringify({ profiles: { default: { accessToken: 'a', uid: '42', extra: 1 } } }), { mode: 0o600 });
    const store = await openSecretStore({ mode: 'file', dataDir, warn: () => undefined });
    assert.deepEqual(await store.load('default'), { accessToken: 'a' });
    writeFileSync(path, '{ broken');
    await assert.rejects(store.load('default'), (err: unknown) => err instanceof TrackctlError && /not valid JSON/.test(err.message));
  });
});

describe('MemoryStore', () => {
  test('round trip and isolation from callers', async () => {
    const store = new MemoryStore({ seeded: { uid: 1 } });
    assert.equal(store.kind, 'memory');
    const mine = { ...creds };
    await store.save('default', mine);
    mine.accessToken = 'changed';
    const loaded = await store.load('default');
    assert.equal(loaded?.accessToken, 'eyJ.access');
    assert.deepEqual(await store.profiles(), ['default', 'seeded']);
    await store.remove('default');
    assert.equal(await store.load('default'), undefined);
  });
});

describe('keychain unavailable', () => {
  // A bus socket that accepts connections and never answers: the worst case.
  let hung: Server;
  let hungPath = '';
  const sockets: Socket[] = [];
  let connections = 0;
  const saved = process.env['DBUS_SESSION_BUS_ADDRESS'];
  before(async () => {
    hungPath = join(tempDir(), 'bus');
    hung = createServer((s) => {
      connections++;
      sockets.push(s);
    });
    await new Promise<void>((resolve) => hung.listen(hungPath, resolve));
  });
  after(() => {
    for (const s of sockets) s.destroy();
    hung.close();
    if (saved === undefined) delete process.env['DBUS_SESSION_BUS_ADDRESS'];
    else process.env['DBUS_SESSION_BUS_ADDRESS'] = saved;
  });

  test('auto falls back to the file with a one-time warning', { skip: process.platform !== 'linux' }, async () => {
    process.env['DBUS_SESSION_BUS_ADDRESS'] = `unix:path=${join(tempDir(), 'no-such-bus')}`;
    const dataDir = join(tempDir(), 'data');
    const first = collect();
    const store = await openSecretStore({ mode: 'auto', dataDir, warn: first.warn });
    assert.equal(store.kind, 'file');
    assert.equal(first.messages.length, 1);
    const message = first.messages[0] ?? '';
    assert.match(message, /no usable OS keychain/);
    assert.ok(message.includes(join(dataDir, 'credentials.json')), message);
    assert.match(message, /gnome-keyring/);
    assert.match(message, /credential-store file/);
    assert.ok(existsSync(join(dataDir, FALLBACK_MARKER)));

    const second = collect();
    const again = await openSecretStore({ mode: 'auto', dataDir, warn: second.warn });
    assert.equal(again.kind, 'file');
    assert.deepEqual(second.messages, []);
    await again.save('default', creds);
    assert.deepEqual(await store.load('default'), creds);
  });

  test('a bus that never answers costs at most timeoutMs', { skip: process.platform !== 'linux' }, async () => {
    process.env['DBUS_SESSION_BUS_ADDRESS'] = `unix:path=${hungPath},guid=0123`;
    const { warn, messages } = collect();
    const started = Date.now();
    const store = await openSecretStore({ mode: 'auto', dataDir: tempDir(), warn, timeoutMs: 300 });
    const took = Date.now() - started;
    assert.equal(store.kind, 'file');
    assert.ok(took >= 250 && took < 15_000, `took ${took} ms`);
    assert.match(messages[0] ?? '', /did not answer within 300 ms/);
  });

  test('keychain mode fails with a hint instead of falling back', { skip: process.platform !== 'linux' }, async () => {
    process.env['DBUS_SESSION_BUS_ADDRESS'] = `unix:path=${join(tempDir(), 'no-such-bus')}`;
    const { warn, messages } = collect();
    await assert.rejects(openSecretStore({ mode: 'keychain', dataDir: tempDir(), warn }), (err: unknown) => {
      assert.ok(err instanceof TrackctlError);
      assert.match(err.message, /the OS keychain is not usable: cannot connect to the D-Bus session bus/);
      assert.match(err.hint ?? '', /credential-store file/);
      return true;
    });
    assert.deepEqual(messages, []);
  });

  test('file mode never touches the keychain', async () => {
    process.env['DBUS_SESSION_BUS_ADDRESS'] = `unix:path=${hungPath}`;
    const before = connections;
    const store = await openSecretStore({ mode: 'file', dataDir: tempDir(), warn: () => undefined });
    await store.save('default', creds);
    assert.equal(store.kind, 'file');
    assert.equal(connections, before);
    assert.equal(readFileSync(store.location, 'utf8').includes('refresh-1'), true);
  });
});
