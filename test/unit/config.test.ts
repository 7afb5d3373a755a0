import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  DEFAULTS,
  PROFILE_KEYS,
  openConfig,
  parseDurationMs,
  validateProfileName,
  validateSetting,
  withDefaults,
} from '../../src/config/index.js';
import { UsageError } from '../../src/errors.js';
import { resolvePaths } from '../../src/paths.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-config-'));
  dirs.push(dir);
  return dir;
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function rejects(key: string, value: string, pattern: RegExp): void {
  assert.throws(() => validateSetting(key, value), (err: unknown) => {
    assert.ok(err instanceof UsageError, `expected UsageError for ${key}=${value}`);
    assert.match(err.message, pattern);
    return true;
  });
}

describe('validateSetting', () => {
  test('base-url and share-url: https anywhere, http only on loopback', () => {
    for (const key of ['base-url', 'share-url']) {
      assert.equal(validateSetting(key, 'https://track.example.com/'), 'https://track.example.com');
      assert.equal(validateSetting(key, 'https://track.example.com/api/'), 'https://track.example.com/api');
      assert.equal(validateSetting(key, 'http://localhost:8080'), 'http://localhost:8080');
      assert.equal(validateSetting(key, 'http://127.0.0.1:3000'), 'http://127.0.0.1:3000');
      assert.equal(validateSetting(key, 'http://127.4.5.6'), 'http://127.4.5.6');
      assert.equal(validateSetting(key, 'http://[::1]:9000/'), 'http://[::1]:9000');
      rejects(key, 'http://track.example.com', /plain http is allowed only for loopback/);
      rejects(key, 'http://10.0.0.1', /loopback/);
      rejects(key, 'http://128.0.0.1', /loopback/);
      rejects(key, 'ftp://track.example.com', /https/);
      rejects(key, 'not a url', /not a URL/);
      rejects(key, 'https://user:pw@track.example.com', /user name or password/);
      rejects(key, 'https://track.example.com/?x=1', /query/);
    }
  });

  test('output and credential-store: enumerations, case-insensitive', () => {
    for (const v of ['table', 'json', 'ndjson', 'csv', 'yaml']) assert.equal(validateSetting('output', v), v);
    assert.equal(validateSetting('output', 'JSON'), 'json');
    rejects('output', 'xml', /must be one of table, json, ndjson, csv, yaml/);
    for (const v of ['auto', 'keychain', 'file']) assert.equal(validateSetting('credential-store', v), v);
    rejects('credential-store', 'vault', /must be one of auto, keychain, file/);
  });

  test('client-id: non-empty, no whitespace', () => {
    assert.equal(validateSetting('client-id', 'trackctl-ci'), 'trackctl-ci');
    rejects('client-id', '', /client-id/);
    rejects('client-id', 'two words', /no spaces/);
    rejects('client-id', 'tab\there', /no spaces/);
  });

  test('timeout: durations, normalised', () => {
    assert.equal(validateSetting('timeout', '30s'), '30s');
    assert.equal(validateSetting('timeout', '30'), '30s');
    assert.equal(validateSetting('timeout', '500ms'), '500ms');
    assert.equal(validateSetting('timeout', '2m'), '2m');
    assert.equal(validateSetting('timeout', '120s'), '2m');
    assert.equal(validateSetting('timeout', '1.5s'), '1500ms');
    assert.equal(validateSetting('timeout', '1m30s'), '90s');
    rejects('timeout', '0s', /greater than zero/);
    rejects('timeout', 'soon', /invalid duration "soon"/);
    rejects('timeout', '-5s', /invalid duration/);
  });

  test('retries: integer 0-10', () => {
    assert.equal(validateSetting('retries', '0'), '0');
    assert.equal(validateSetting('retries', '10'), '10');
    assert.equal(validateSetting('retries', '03'), '3');
    rejects('retries', '11', /0 to 10/);
    rejects('retries', '2.5', /0 to 10/);
    rejects('retries', '-1', /0 to 10/);
    rejects('retries', 'three', /0 to 10/);
  });

  test('unknown key lists the valid keys', () => {
    rejects('password', 'x', /unknown setting "password"; valid keys: base-url, share-url, output, client-id, timeout, retries, credential-store, tz/);
    assert.deepEqual([...PROFILE_KEYS], ['base-url', 'share-url', 'output', 'client-id', 'timeout', 'retries', 'credential-store', 'tz']);
  });

  test('parseDurationMs', () => {
    assert.equal(parseDurationMs('30s'), 30_000);
    assert.equal(parseDurationMs('500ms'), 500);
    assert.equal(parseDurationMs('2m'), 120_000);
    assert.equal(parseDurationMs('1h'), 3_600_000);
    assert.equal(parseDurationMs('45'), 45_000);
    assert.equal(parseDurationMs(' 2M '), 120_000);
    assert.throws(() => parseDurationMs(''), UsageError);
    assert.throws(() => parseDurationMs('5 minutes'), UsageError);
    assert.throws(() => parseDurationMs('s'), UsageError);
  });

  test('profile names', () => {
    assert.equal(validateProfileName('default'), 'default');
    assert.equal(validateProfileName('prod.eu-1_b'), 'prod.eu-1_b');
    for (const bad of ['', '../x', 'a b', '__proto__', '-x', 'x'.repeat(65)]) {
      assert.throws(() => validateProfileName(bad), UsageError, bad);
    }
  });

  test('defaults: share-url follows base-url origin', () => {
    assert.equal(DEFAULTS['client-id'], 'trackctl');
    assert.deepEqual(withDefaults({ 'base-url': 'https://t.example.com/api' }), {
      'base-url': 'https://t.example.com/api',
      'share-url': 'https://t.example.com',
      'client-id': 'trackctl',
      timeout: '30s',
      retries: '3',
      'credential-store': 'auto',
    });
  });
});

describe('openConfig', () => {
  test('read() of a missing file is empty', () => {
    const config = openConfig(join(tempDir(), 'nope'));
    assert.deepEqual(config.read('default'), {});
    assert.deepEqual(config.profiles(), []);
    assert.equal(config.currentProfile(), undefined);
  });

  test('set, read, unset round trip; file is 0600 and atomic', async () => {
    const dir = join(tempDir(), 'cfg');
    const config = openConfig(dir);
    assert.equal(config.path, join(dir, 'config.json'));
    assert.equal(await config.set('default', 'base-url', 'https://t.example.com/'), 'https://t.example.com');
    assert.equal(await config.set('default', 'timeout', '120'), '2m');
    assert.equal(await config.set('staging.eu', 'output', 'YAML'), 'yaml');
    assert.deepEqual(config.read('default'), { 'base-url': 'https://t.example.com', timeout: '2m' });
    assert.deepEqual(config.read('staging.eu'), { output: 'yaml' });
    assert.deepEqual(config.profiles(), ['default', 'staging.eu']);

    const onDisk = JSON.parse(readFileSync(config.path, 'utf8')) as unknown;
    assert.deepEqual(onDisk, {
      profiles: { default: { 'base-url': 'https://t.example.com', timeout: '2m' }, 'staging.eu': { output: 'yaml' } },
    });
    if (process.platform !== 'win32') assert.equal(statSync(config.path).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir), ['config.json']);

    assert.equal(await config.unset('default', 'timeout'), true);
    assert.equal(await config.unset('default', 'timeout'), false);
    assert.deepEqual(config.read('default'), { 'base-url': 'https://t.example.com' });
    await assert.rejects(config.unset('default', 'colour'), /unknown setting "colour"/);
  });

  test('set refuses bad values and writes nothing', async () => {
    const dir = tempDir();
    const config = openConfig(dir);
    await assert.rejects(config.set('default', 'base-url', 'http://track.example.com'), UsageError);
    await assert.rejects(config.set('default', 'token', 'abc'), /unknown setting/);
    assert.deepEqual(readdirSync(dir), []);
  });

  test('current-profile and unknown keys survive writes', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ 'current-profile': 'prod', profiles: { prod: { 'base-url': 'https://p.example.com', future: 'x' } } }),
    );
    const config = openConfig(dir);
    assert.equal(config.currentProfile(), 'prod');
    assert.deepEqual(config.read('prod'), { 'base-url': 'https://p.example.com' });
    await config.set('prod', 'retries', '5');
    const onDisk = JSON.parse(readFileSync(config.path, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(onDisk, {
      'current-profile': 'prod',
      profiles: { prod: { 'base-url': 'https://p.example.com', future: 'x', retries: '5' } },
    });
    await config.setCurrentProfile('default');
    assert.equal(config.currentProfile(), 'default');
  });

  test('malformed file is a usage error naming the path', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), '{ nope');
    assert.throws(() => openConfig(dir).read('default'), /config file .*config\.json is not valid JSON/);
  });
});

describe('resolvePaths', () => {
  test('TRACKCTL_CONFIG_DIR isolates both directories', () => {
    assert.deepEqual(resolvePaths({ TRACKCTL_CONFIG_DIR: '/t/c' }), { configDir: '/t/c', dataDir: join('/t/c', 'data') });
    assert.deepEqual(resolvePaths({ TRACKCTL_CONFIG_DIR: '/t/c', TRACKCTL_DATA_DIR: '/t/d' }), { configDir: '/t/c', dataDir: '/t/d' });
  });

  test('XDG on Linux, relative XDG values ignored', () => {
    assert.deepEqual(resolvePaths({ HOME: '/h', XDG_CONFIG_HOME: '/x/c', XDG_DATA_HOME: '/x/d' }, 'linux'), {
      configDir: '/x/c/trackctl',
      dataDir: '/x/d/trackctl',
    });
    assert.deepEqual(resolvePaths({ HOME: '/h', XDG_CONFIG_HOME: 'rel' }, 'linux'), {
      configDir: '/h/.config/trackctl',
      dataDir: '/h/.local/share/trackctl',
    });
    assert.equal(resolvePaths({ HOME: '/h' }, 'darwin').configDir, '/h/Library/Preferences/trackctl');
  });
});
