/**
 * Aliases against the sandbox (in-process; a shell alias through the binary): set, list, run (placeholders, appended
 * arguments, exit codes passed through, root options before the name), shell aliases through a
 * real sh, delete; a shadowing or malformed alias refused with exit 2 and nothing written.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/cli.js';

interface Device {
  did: number;
  name: string;
}
const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');

describe('alias', () => {
  let h: Harness;
  let config = '';
  const stored = (): unknown => (existsSync(config) ? (JSON.parse(readFileSync(config, 'utf8')) as { aliases?: unknown }).aliases : undefined);

  before(async () => {
    h = await startHarness({ inProcess: true });
    config = join(h.env.TRACKCTL_CONFIG_DIR!, 'config.json');
  });
  after(async () => {
    await h.close();
  });

  test('a shadowing, malformed or empty alias is exit 2 and writes nothing', async () => {
    for (const [args, mention] of [
      [['alias', 'set', 'devices', 'units'], 'may not shadow'],
      [['alias', 'set', 'wait', 'units'], 'may not shadow'],
      [['alias', 'set', 'alias', 'units'], 'may not shadow'],
      [['alias', 'set', '-x', 'units'], ''],
      [['alias', 'set', '9lives', 'units'], 'invalid alias name'],
      [['alias', 'set', 'q', "devices list --name 'open"], "unclosed '"],
      [['alias', 'set', 'q', '  '], 'empty'],
    ] as const) {
      const r = await h.run([...args]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.ok(r.stderr.includes(mention), r.stderr);
      assert.equal(stored(), undefined, 'nothing written');
    }
  });

  test('set, list, run with placeholders and appended arguments, delete', async () => {
    const devices = await h.json<Device[]>(['devices', 'list']);
    const [a, b] = devices;
    assert.ok(a && b);

    assert.equal((await h.run(['alias', 'set', 'dl', 'devices list --fields did,name'])).code, 0);
    assert.equal((await h.run(['alias', 'set', 'dg', "devices get $1 --fields 'did,name'"])).code, 0);
    const list = await h.json<Array<{ name: string; expansion: string }>>(['alias', 'list']);
    assert.deepEqual(list, [
      { name: 'dg', expansion: "devices get $1 --fields 'did,name'" },
      { name: 'dl', expansion: 'devices list --fields did,name' },
    ]);

    // The alias runs the same command line: same output as typing it.
    const direct = await h.run(['devices', 'list', '--fields', 'did,name', '-o', 'json']);
    const viaAlias = await h.run(['dl', '-o', 'json']);
    assert.equal(viaAlias.code, 0, viaAlias.stderr);
    assert.equal(viaAlias.stdout, direct.stdout);
    // Root options before the name apply to it too.
    assert.equal((await h.run(['-o', 'json', 'dl'])).stdout, direct.stdout);

    const one = await h.run(['dg', String(a.did), '-o', 'json']);
    assert.equal(one.code, 0, one.stderr);
    assert.deepEqual(JSON.parse(one.stdout), { did: a.did, name: a.name });
    // An argument no placeholder used is appended: here, a second operand that devices get refuses.
    const extra = await h.run(['dg', String(a.did), String(b.did)]);
    assert.equal(extra.code, 2, extra.stderr);
    const missing = await h.run(['dg']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /alias dg needs at least 1 argument/);
    // The command's exit code is the alias's: an unknown device is 4.
    assert.equal((await h.run(['dg', '999999'])).code, 4);

    assert.equal((await h.run(['alias', 'set', 'dl', 'devices list --fields did'])).code, 0, 'set replaces');
    assert.deepEqual(lines((await h.run(['dl', '--no-header'])).stdout), devices.map((d) => String(d.did)));
    assert.equal((await h.run(['alias', 'delete', 'dl'])).code, 0);
    assert.equal((await h.run(['alias', 'delete', 'dl'])).code, 4, 'deleting an unknown alias is not found');
    const gone = await h.run(['dl']);
    assert.equal(gone.code, 2);
    assert.match(gone.stderr, /unknown command 'dl'/);
    assert.deepEqual(stored(), { dg: "devices get $1 --fields 'did,name'" });
  });

  test('a ! alias runs through sh with the arguments and the profile, and its exit status', async () => {
    const script = '!printf "%s|" "$0" "$@"; printf "%s\\n" "$TRACKCTL_PROFILE"; exit 5';
    assert.equal((await h.run(['alias', 'set', 'sh1', script])).code, 0);
    // Spawned: sh gets the process's own stdout.
    const r = await h.spawn(['-p', 'ops', 'sh1', 'a b', 'c']);
    assert.equal(r.code, 5, r.stderr);
    assert.equal(r.stdout, 'sh1|a b|c|ops\n');
  });

  test('completion offers aliases beside the commands', async () => {
    await h.run(['alias', 'set', 'zz-fleet', 'units']);
    const r = await h.run(['__complete', '--', 'zz']);
    assert.deepEqual(lines(r.stdout), ['zz-fleet\talias: units']);
  });
});
