import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { startHarness, type Harness } from '../helpers/cli.js';

describe('config profiles', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ login: false, inProcess: true });
  });
  after(async () => h.close());

  test('set, get, list, unset and path on the default and a named profile', async () => {
    assert.equal((await h.run(['config', 'set', 'timeout', '10s'])).code, 0);
    assert.equal((await h.run(['config', 'get', 'timeout'])).stdout, '10s\n');
    assert.equal((await h.run(['config', 'set', 'output', 'json', '-p', 'ci'])).code, 0);
    assert.equal((await h.run(['config', 'get', 'output', '-p', 'ci'])).stdout, 'json\n');
    assert.equal((await h.run(['config', 'get', 'output'], { env: { TRACKCTL_PROFILE: 'ci' } })).stdout, 'json\n');
    assert.equal((await h.run(['config', 'get', 'output'])).code, 2, 'not set on the default profile');

    const list = await h.json<Array<{ key: string; value: string; source: string }>>(['config', 'list']);
    assert.deepEqual(
      list.map((r) => r.key),
      ['base-url', 'share-url', 'output', 'client-id', 'timeout', 'retries', 'credential-store', 'tz'],
    );
    assert.deepEqual(list.find((r) => r.key === 'timeout'), { key: 'timeout', value: '10s', source: 'profile' });
    assert.equal(list.find((r) => r.key === 'retries')?.source, 'default');

    const path = (await h.run(['config', 'path'])).stdout.trim();
    assert.equal(statSync(path).mode & 0o077, 0, 'config file readable by its owner only');
    const file = JSON.parse(readFileSync(path, 'utf8')) as { profiles: Record<string, Record<string, string>> };
    assert.equal(file.profiles.ci?.output, 'json');
    assert.ok(!JSON.stringify(file).match(/token|password|cookie/i), 'no secret in the config file');

    assert.equal((await h.run(['config', 'unset', 'timeout'])).code, 0);
    assert.equal((await h.run(['config', 'get', 'timeout'])).stdout, '30s\n');
  });

  test("share-url left unset is base-url's origin, shown as the default", async () => {
    const p = ['-p', 'links'];
    assert.equal((await h.run(['config', 'get', 'share-url', ...p])).code, 2, 'nothing to derive it from');
    assert.equal((await h.run(['config', 'set', 'base-url', 'https://fleet.example.com/api/', ...p])).code, 0);
    assert.equal((await h.run(['config', 'get', 'share-url', ...p])).stdout, 'https://fleet.example.com\n');
    const list = await h.json<Array<{ key: string; value: string; source: string }>>(['config', 'list', ...p]);
    assert.deepEqual(list.find((r) => r.key === 'share-url'), { key: 'share-url', value: 'https://fleet.example.com', source: 'default' });
    assert.equal((await h.run(['config', 'set', 'share-url', 'https://share.example.com', ...p])).code, 0);
    assert.equal((await h.run(['config', 'get', 'share-url', ...p])).stdout, 'https://share.example.com\n');
  });

  test("the profile's output setting is the default format; -o and TRACKCTL_OUTPUT override it", async () => {
    await h.login();
    assert.match((await h.run(['devices', 'list'])).stdout, /^DID\t/);
    assert.equal((await h.run(['config', 'set', 'output', 'ndjson'])).code, 0);
    const nd = (await h.run(['devices', 'list'])).stdout.trim().split('\n');
    assert.ok(nd.every((line) => typeof (JSON.parse(line) as { did: number }).did === 'number'));
    assert.ok(Array.isArray(JSON.parse((await h.run(['devices', 'list', '-o', 'json'])).stdout)));
    assert.ok(Array.isArray(JSON.parse((await h.run(['devices', 'list'], { env: { TRACKCTL_OUTPUT: 'json' } })).stdout)));
    assert.equal((await h.run(['config', 'unset', 'output'])).code, 0);
    // A profile without credentials of its own is not signed in: the profile is really in force.
    assert.equal((await h.run(['devices', 'list', '-p', 'ci'])).code, 3);
  });

  test('config use selects the profile for later commands; -p and TRACKCTL_PROFILE still win', async () => {
    assert.equal((await h.run(['config', 'set', 'timeout', '7s', '-p', 'picked'])).code, 0);
    assert.equal((await h.run(['config', 'use', 'picked'])).code, 0);
    assert.equal((await h.run(['config', 'get', 'timeout'])).stdout, '7s\n');
    assert.equal((await h.run(['config', 'get', 'timeout', '-p', 'default'])).stdout, '30s\n');
    assert.equal((await h.run(['config', 'get', 'timeout'], { env: { TRACKCTL_PROFILE: 'default' } })).stdout, '30s\n');
    assert.equal((await h.run(['config', 'use', 'default'])).code, 0);
    assert.equal((await h.run(['config', 'get', 'timeout'])).stdout, '30s\n');
    assert.equal((await h.run(['config', 'use', 'no good'])).code, 2);
  });

  test('unknown keys and bad values are exit 2 and change nothing', async () => {
    const before = (await h.run(['config', 'list', '-o', 'json'])).stdout;
    const cases = [
      ['config', 'set', 'colour', 'red'],
      ['config', 'get', 'nope'],
      ['config', 'unset', 'nope'],
      ['config', 'set', 'base-url', 'http://fleet.example.com'],
      ['config', 'set', 'base-url', 'not a url'],
      ['config', 'set', 'output', 'xml'],
      ['config', 'set', 'timeout', 'soon'],
      ['config', 'set', 'retries', '-1'],
      ['config', 'set', 'retries', '11'],
      ['config', 'set', 'credential-store', 'vault'],
      ['config', 'set', 'client-id', 'has space'],
    ];
    for (const args of cases) {
      const r = await h.run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /error/);
    }
    assert.equal((await h.run(['config', 'list', '-o', 'json'])).stdout, before);
  });

  test('a loopback http:// base URL and https:// ones are accepted', async () => {
    assert.equal((await h.run(['config', 'set', 'base-url', 'http://127.0.0.1:8080', '-p', 'local'])).code, 0);
    assert.equal((await h.run(['config', 'set', 'base-url', 'https://fleet.example.com/', '-p', 'prod'])).code, 0);
    assert.equal((await h.run(['config', 'get', 'base-url', '-p', 'prod'])).stdout, 'https://fleet.example.com\n');
  });
});
