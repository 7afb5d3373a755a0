/**
 * Shell completion end to end: the committed scripts loaded into real bash,
 * zsh and fish, calling back into the real binary (on PATH through a wrapper),
 * which answers ids live from a sandbox.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, loadedDistFiles, startHarness, type Harness } from '../helpers/cli.js';
import { needTool } from '../helpers/tools.js';

interface Out {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

let h: Harness;
let binDir: string;
let env: Record<string, string>;

/** Async on purpose: the sandbox answers from this process, so it must not be blocked. */
function shell(cmd: string, args: string[], extraEnv: Record<string, string> = {}): Promise<Out> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr, ms: Date.now() - started }));
  });
}

const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');
const q = (w: string): string => `'${w.replace(/'/g, "'\\''")}'`;

/** COMPREPLY of the bash script for `trackctl <words…>` (the last word is the one being completed). */
async function bash(...words: string[]): Promise<string[]> {
  const script = `source completions/trackctl.bash; COMP_WORDS=(trackctl ${words.map(q).join(' ')}); COMP_CWORD=${words.length}; _trackctl; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = await shell('bash', ['--norc', '--noprofile', '-c', script]);
  assert.equal(r.stderr, '', 'bash completion writes nothing on stderr');
  return lines(r.stdout);
}

/** What the zsh script hands compadd (and _files), with compadd replaced by a recorder. */
async function zsh(...words: string[]): Promise<string[]> {
  const script = [
    'compadd() { while (( $# )); do case $1 in -a) shift; print -rl -- "${(@P)1}";; -d|-J|-X|-S|-P) shift;; esac; shift; done }',
    '_files() { print -r -- "<files>" }',
    'compdef() { : }',
    'source completions/_trackctl',
    `words=(trackctl ${words.map(q).join(' ')}); CURRENT=${words.length + 1}; _trackctl`,
  ].join('\n');
  const r = await shell('zsh', ['-f', '-c', script]);
  assert.equal(r.stderr, '', 'zsh completion writes nothing on stderr');
  return lines(r.stdout);
}

/** fish's own completion of a command line, values only. */
async function fish(line: string): Promise<string[]> {
  const r = await shell('fish', ['--no-config', '-c', `source completions/trackctl.fish; complete -C ${q(line)}`]);
  assert.equal(r.stderr, '', 'fish completion writes nothing on stderr');
  return lines(r.stdout).map((l) => l.split('\t')[0] ?? '');
}

describe('shell completion (bash, zsh, fish) against the sandbox', () => {
  let deviceIds: string[];
  let groupIds: string[];
  let shareIds: string[];

  before(async () => {
    h = await startHarness();
    binDir = mkdtempSync(join(tmpdir(), 'trackctl-bin-'));
    writeFileSync(join(binDir, 'trackctl'), `#!/bin/sh\nexec ${q(process.execPath)} ${q(BIN)} "$@"\n`);
    chmodSync(join(binDir, 'trackctl'), 0o755);
    // A busy machine takes more than the default 1.5 s to start a process and ask the sandbox.
    env = { ...h.env, PATH: `${binDir}:${process.env.PATH ?? ''}`, HOME: h.dir, TRACKCTL_COMPLETE_TIMEOUT: '60s' };
    deviceIds = (await h.json<Array<{ did: number }>>(['devices', 'list'])).map((d) => String(d.did));
    groupIds = (await h.json<Array<{ gid: number }>>(['groups', 'list'])).map((g) => String(g.gid));
    shareIds = (await h.json<Array<{ sid: string }>>(['shares', 'list'])).map((s) => s.sid);
  });
  after(async () => {
    rmSync(binDir, { recursive: true, force: true });
    await h.close();
  });

  test('the committed scripts are what `trackctl completion <shell>` prints', async () => {
    for (const [shellName, file] of [['bash', 'trackctl.bash'], ['zsh', '_trackctl'], ['fish', 'trackctl.fish']] as const) {
      const r = await h.run(['completion', shellName]);
      assert.equal(r.code, 0);
      assert.equal(r.stdout, readFileSync(join(ROOT, 'completions', file), 'utf8'), `completions/${file} is stale: npm run gen`);
    }
    assert.equal((await h.run(['completion', 'tcsh'])).code, 2);
  });

  test('bash: commands, subcommands and flags', async (t) => {
    if (!needTool(t, 'bash')) return;
    assert.deepEqual(await bash('dev'), ['devices']);
    const s = await bash('s');
    for (const c of ['sensors', 'shares', 'sandbox']) assert.ok(s.includes(c), c);
    assert.ok(s.every((c) => c.startsWith('s')));
    const verbs = await bash('devices', '');
    for (const v of ['list', 'get', 'create', 'update', 'delete']) assert.ok(verbs.includes(v), v);
    const flags = await bash('devices', 'update', '12', '--');
    for (const f of ['--name', '--active', '--add-group', '--output', '--profile', '--help']) assert.ok(flags.includes(f), f);
    assert.ok(!(await bash('__')).length, 'hidden commands are not offered');
    assert.deepEqual(await bash('-o', 'js'), ['json']);
  });

  test('bash: enum values', async (t) => {
    if (!needTool(t, 'bash')) return;
    assert.deepEqual(await bash('devices', 'list', '-o', ''), ['table', 'json', 'ndjson', 'csv', 'yaml']);
    assert.deepEqual(await bash('history', '2004', '-o', 'g'), ['geojson', 'gpx']);
    assert.deepEqual(await bash('history', '2004', '--types', 'sos,cr'), ['sos,crash']);
    assert.deepEqual(await bash('users', 'list', '--type', ''), ['trackedUser', 'dispatcher']);
    assert.deepEqual(await bash('users', 'create', '--type', 'd'), ['dispatcher']);
    assert.deepEqual(await bash('units', '--category', ''), ['device', 'sensor', 'trackedUser', 'dispatcher']);
    assert.deepEqual(await bash('login', '--method', ''), ['token', 'session', 'both']);
    assert.deepEqual(await bash('api', '/v2/devices/', '-X', 'P'), ['POST', 'PUT', 'PATCH']);
    assert.deepEqual(await bash('api', '/v2/devices/', '--auth', ''), ['auto', 'token', 'session', 'none']);
    assert.ok((await bash('config', 'set', '')).includes('credential-store'));
    assert.deepEqual(await bash('config', 'set', 'credential-store', ''), ['auto', 'keychain', 'file']);
    assert.deepEqual(await bash('completion', ''), ['bash', 'zsh', 'fish']);
    assert.deepEqual(await bash('help', 'exit'), ['exit-codes']);
    assert.equal((await h.run(['config', 'set', 'timeout', '5s', '-p', 'staging'])).code, 0);
    assert.deepEqual(await bash('-p', ''), ['default', 'staging']);
    assert.deepEqual(await bash('devices', 'list', '--profile', 'st'), ['staging']);
    assert.deepEqual(await bash('config', 'use', 's'), ['staging']);
    // bash splits --output=json at "=": the script glues it back and replaces only the value.
    assert.deepEqual(await bash('devices', 'list', '--output', '=', 'nd'), ['ndjson']);
    assert.ok((await bash('devices', 'list', '--output', '=')).includes('yaml'));
  });

  test('bash: live ids from the service, and file names where a file is wanted', async (t) => {
    if (!needTool(t, 'bash')) return;
    assert.deepEqual(await bash('devices', 'get', ''), deviceIds);
    assert.deepEqual(await bash('devices', 'delete', deviceIds[0] ?? '', ''), deviceIds, 'variadic ids');
    assert.deepEqual(await bash('devices', 'list', '--group', ''), groupIds);
    assert.deepEqual(await bash('shares', 'url', ''), shareIds);
    const prefix = (deviceIds[0] ?? '').slice(0, 3);
    assert.deepEqual(await bash('devices', 'get', prefix), deviceIds.filter((d) => d.startsWith(prefix)));
    const first = groupIds[0] ?? '';
    assert.deepEqual(await bash('devices', 'update', '1', '--add-group', `${first},`), groupIds.map((g) => `${first},${g}`));
    const history = await bash('history', '');
    for (const d of deviceIds) assert.ok(history.includes(d), `history offers unit ${d}`);
    assert.ok((await bash('sandbox', 'start', '--state', 'pack')).includes('package.json'));
    assert.ok((await bash('apply', '-f', 'pack')).includes('package.json'), '-f, --file <path>');
    assert.deepEqual(await bash('api', '/v2/'), [], 'an API path is not a file name');
  });

  test('__complete: ids fail silently and fast without credentials or service', async () => {
    const down = await shell('trackctl', ['__complete', '--', 'devices', 'get', ''], { TRACKCTL_BASE_URL: 'http://127.0.0.1:9', TRACKCTL_TIMEOUT: '30s' });
    assert.deepEqual([down.code, down.stdout, down.stderr], [0, '', '']);
    // A service that takes the connection and never answers: bounded by the id deadline, not by the
    // 30 s --timeout (the bound is generous, as a loaded machine is slow to start a process).
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      for (const deadline of [undefined, '1s']) {
        const hung = await shell('trackctl', ['__complete', '--', 'devices', 'get', ''], { TRACKCTL_BASE_URL: url, TRACKCTL_TIMEOUT: '30s', TRACKCTL_COMPLETE_TIMEOUT: deadline ?? '' });
        assert.deepEqual([hung.code, hung.stdout, hung.stderr], [0, '', '']);
        assert.ok(hung.ms < 15_000, `TRACKCTL_COMPLETE_TIMEOUT=${deadline ?? '(default)'}: took ${hung.ms} ms`);
      }
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
    const signedOut = await shell('trackctl', ['__complete', '--', 'groups', 'get', ''], { TRACKCTL_CONFIG_DIR: join(h.dir, 'nobody'), TRACKCTL_DATA_DIR: join(h.dir, 'nobody') });
    assert.deepEqual([signedOut.code, signedOut.stdout, signedOut.stderr], [0, '', '']);
    const described = await shell('trackctl', ['__complete', '--', 'devices', 'get', '']);
    assert.match(described.stdout, new RegExp(`^${deviceIds[0]}\\t\\S`, 'm'), 'ids carry their names as descriptions');
  });

  test('__complete for commands, flags and values loads no HTTP, keychain or sandbox code', async () => {
    for (const words of [['devices', ''], ['devices', 'list', '--'], ['history', '1', '-o', ''], ['config', 'set', '']]) {
      const r = await shell('trackctl', ['__complete', '--', ...words], { NODE_DEBUG: 'trackctl' });
      assert.equal(r.code, 0);
      const chunks = loadedDistFiles(r.stderr);
      assert.ok(chunks.length > 0, 'NODE_DEBUG=trackctl reported the loaded files');
      for (const chunk of chunks) {
        assert.doesNotMatch(readFileSync(join(ROOT, chunk), 'utf8'), /llhttp|EnvHttpProxyAgent|@napi-rs\/keyring|Reports have been successfully retrieved\./, `${words.join(' ')}: ${chunk}`);
      }
    }
  });

  test('zsh: commands, flags, values and live ids', async (t) => {
    if (!needTool(t, 'zsh')) return;
    assert.deepEqual(await zsh('dev'), ['devices']);
    assert.ok((await zsh('groups', '')).includes('update'));
    assert.ok((await zsh('groups', 'update', '101', '--add-')).includes('--add-member'));
    assert.deepEqual(await zsh('history', '1', '--output=k'), ['--output=kml']);
    assert.deepEqual(await zsh('users', 'list', '--type', ''), ['trackedUser', 'dispatcher']);
    assert.deepEqual(await zsh('shares', 'get', ''), shareIds);
    assert.deepEqual(await zsh('shares', 'create', '--device', ''), deviceIds);
    assert.deepEqual(await zsh('api', '-d', '@'), [], 'no candidates for a JSON body');
    assert.deepEqual(await zsh('sandbox', 'reset', '--state', ''), ['<files>']);
  });

  test('fish: commands, flags, values and live ids', async (t) => {
    if (!needTool(t, 'fish')) return;
    assert.deepEqual(await fish('trackctl dev'), ['devices']);
    const verbs = await fish('trackctl shares ');
    for (const v of ['list', 'get', 'create', 'url', 'embed']) assert.ok(verbs.includes(v), v);
    assert.ok((await fish('trackctl history 1 --fr')).includes('--from'));
    assert.deepEqual(await fish('trackctl history 1 --types sos,cr'), ['sos,crash']);
    assert.deepEqual((await fish('trackctl config set output ')).sort(), ['csv', 'json', 'ndjson', 'table', 'yaml']);
    assert.deepEqual((await fish('trackctl groups delete ')).sort(), [...groupIds].sort());
    assert.deepEqual((await fish('trackctl -p default devices get ')).sort(), [...deviceIds].sort());
  });
});
