/**
 * Extensions (in-process; spawned where one runs, as it takes the process's stdio): real sh scripts named trackctl-NAME on a PATH of temp
 * directories, run with the arguments, stdin, stdout, stderr, exit status and signal death
 * passed through, the profile's settings in the environment and a token from
 * `trackctl token print`; listed by `extension list`, help and completion; never shadowing a
 * command; and a normal command that loads none of the dispatch code.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT, loadedDistFiles, startHarness, type Harness } from '../helpers/cli.js';

const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');

describe('extensions', () => {
  let h: Harness;
  let first = '';
  let second = '';
  let path = '';

  const script = (dir: string, name: string, body: string): string => {
    const file = join(dir, name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  };

  before(async () => {
    // In-process; spawned where an extension runs (it inherits the process's stdio).
    h = await startHarness({ inProcess: true });
    first = join(h.dir, 'bin1');
    second = join(h.dir, 'bin2');
    mkdirSync(first);
    mkdirSync(second);
    // `trackctl` itself on PATH, as an installed one would be, for extensions that call it.
    script(first, 'trackctl', `exec "${process.execPath}" "${BIN}" "$@"`);
    script(first, 'trackctl-echo', 'printf "%s|" "$@"; printf "\\n%s %s %s\\n" "$TRACKCTL_PROFILE" "$TRACKCTL_BASE_URL" "$TRACKCTL_OUTPUT"; cat; echo oops >&2; exit 3');
    script(first, 'trackctl-die', 'kill -TERM $$');
    script(first, 'trackctl-tok', 'trackctl token print');
    // The first on PATH wins; a trackctl-devices never runs instead of the command.
    script(second, 'trackctl-echo', 'echo second; exit 0');
    script(second, 'trackctl-devices', 'echo hijacked');
    writeFileSync(join(second, 'trackctl-plain'), 'not executable');
    path = `${first}:${second}:${process.env.PATH ?? ''}`;
  });
  after(async () => {
    await h.close();
  });

  test('arguments, stdin, stdout, stderr, the exit status and the profile settings pass through', async () => {
    const r = await h.spawn(['-o', 'json', 'echo', 'a b', '--flag', '-x'], { env: { PATH: path }, input: 'from stdin\n' });
    assert.equal(r.code, 3);
    assert.equal(r.stdout, `a b|--flag|-x|\ndefault ${h.sandbox.url} json\nfrom stdin\n`);
    assert.equal(r.stderr, 'oops\n');
    const prod = await h.spawn(['-p', 'prod', '--base-url', 'https://fleet.example.com', 'echo'], { env: { PATH: path } });
    assert.equal(lines(prod.stdout).at(-1), 'prod https://fleet.example.com ');
  });

  test('a death by signal is 128+N', async () => {
    assert.equal((await h.spawn(['die'], { env: { PATH: path } })).code, 128 + 15);
  });

  test('an extension gets a token with trackctl token print', async () => {
    const direct = await h.run(['token', 'print']);
    assert.equal(direct.code, 0, direct.stderr);
    const r = await h.spawn(['tok'], { env: { PATH: path } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, direct.stdout);
    assert.match(r.stdout.trim(), /^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  test('a command is never an extension; an unknown name is still exit 2', async () => {
    const r = await h.run(['devices', 'list', '--fields', 'did'], { env: { PATH: path } });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes('hijacked'));
    const unknown = await h.run(['plain'], { env: { PATH: path } });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command 'plain'/);
  });

  test('extension list, help and completion list them, the first of a name only', async () => {
    const list = await h.json<Array<{ name: string; path: string }>>(['extension', 'list'], { env: { PATH: path } });
    assert.deepEqual(list, [
      { name: 'die', path: join(first, 'trackctl-die') },
      { name: 'echo', path: join(first, 'trackctl-echo') },
      { name: 'tok', path: join(first, 'trackctl-tok') },
    ]);
    const help = await h.run(['--help'], { env: { PATH: path } });
    assert.match(help.stdout, /Extensions \(trackctl-NAME on PATH\):\n {2}die +\S+trackctl-die\n {2}echo +\S+trackctl-echo\n/);
    const complete = await h.run(['__complete', '--', 'ec'], { env: { PATH: path } });
    assert.deepEqual(lines(complete.stdout), [`echo\textension: ${join(first, 'trackctl-echo')}`]);
  });

  test('a normal command loads none of the alias and extension code', () => {
    const r = spawnSync(process.execPath, [BIN, 'devices', 'list', '--help'], {
      env: { PATH: path, HOME: process.env.HOME, NODE_DEBUG: 'trackctl', TRACKCTL_CONFIG_DIR: '/nonexistent/trackctl' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    const loaded = loadedDistFiles(r.stderr);
    assert.ok(loaded.length > 0);
    for (const file of loaded) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      assert.ok(!text.includes('Extensions (trackctl-NAME on PATH):') && !text.includes('needs at least'), `${file} holds the dispatch code`);
    }
  });
});
