/**
 * Help: topics, `help <command path>`, suggestions for mistyped commands, and a
 * walk of the whole tree that fails when a command lacks a description or
 * examples (it catches omissions in every engineer's commands).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Command } from 'commander';
import { buildProgram } from '../../src/program.js';
import { createContext } from '../../src/context.js';
import { commandPath, examplesOf, visibleCommands, visibleOptions, walkCommands } from '../../src/completion/tree.js';
import { memoryIO } from '../helpers/io.js';
import { runInProcess } from '../helpers/in-process.js';

const ENV = { NO_COLOR: '1', TRACKCTL_CONFIG_DIR: '/nonexistent/trackctl', COLUMNS: '100' };
/** In-process (piped: no terminal): help needs no process of its own. */
const run = (...args: string[]) => runInProcess(args, { env: ENV });

function tree(): Command {
  return buildProgram(createContext(memoryIO(), {}, '0.0.0-test'), '0.0.0-test');
}

describe('help', () => {
  test('help exit-codes lists every exit code of the design', async () => {
    const r = await run('help', 'exit-codes');
    assert.equal(r.code, 0);
    for (const code of ['0', '1', '2', '3', '4', '6', '7', '130']) assert.match(r.stdout, new RegExp(`^\\s+${code}\\s+\\S`, 'm'), `code ${code}`);
  });

  test('help environment lists every environment variable trackctl reads', async () => {
    const r = await run('help', 'environment');
    assert.equal(r.code, 0);
    const vars = ['TRACKCTL_PROFILE', 'TRACKCTL_BASE_URL', 'TRACKCTL_SANDBOX', 'TRACKCTL_OUTPUT', 'TRACKCTL_TOKEN', 'TRACKCTL_EMAIL', 'TRACKCTL_PASSWORD', 'TRACKCTL_TIMEOUT', 'TRACKCTL_RETRIES', 'TRACKCTL_CREDENTIAL_STORE', 'TRACKCTL_CLIENT_ID', 'TRACKCTL_SHARE_URL', 'TRACKCTL_CONFIG_DIR', 'TRACKCTL_DATA_DIR', 'TRACKCTL_NO_CODE_CACHE', 'XDG_CACHE_HOME', 'NO_COLOR', 'FORCE_COLOR', 'CI', 'HTTPS_PROXY', 'NO_PROXY'];
    for (const v of vars) assert.match(r.stdout, new RegExp(`\\b${v}\\b`), v);
  });

  test('help formatting and help auth', async () => {
    const fmt = await run('help', 'formatting');
    for (const w of ['--fields', '--raw', '--no-header', 'ndjson', 'csv', 'yaml', 'geojson']) assert.ok(fmt.stdout.includes(w), w);
    const auth = await run('help', 'auth');
    for (const w of ['TRACKCTL_TOKEN', 'keychain', 'credentials.json', 'refresh', 'login status']) assert.ok(auth.stdout.includes(w), w);
  });

  test('root help mentions the topics and the exit codes', async () => {
    const r = await run('--help');
    assert.equal(r.code, 0);
    for (const w of ['environment', 'formatting', 'exit-codes', 'auth', 'Exit codes', '130']) assert.ok(r.stdout.includes(w), w);
  });

  test('help <command path> equals <command path> --help', async () => {
    for (const path of [['devices', 'list'], ['history'], ['config', 'set'], ['shares']]) {
      const a = await run('help', ...path);
      const b = await run(...path, '--help');
      assert.equal(a.code, 0);
      assert.equal(a.stdout, b.stdout, path.join(' '));
    }
    assert.equal((await run('help')).stdout, (await run('--help')).stdout);
  });

  test('unknown help topic or command: exit 2 with suggestions', async () => {
    const r = await run('help', 'exit-code');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown help topic or command "exit-code"/);
    assert.match(r.stderr, /Did you mean "exit-codes"\?/);
    const nested = await run('help', 'devices', 'lsit');
    assert.equal(nested.code, 2);
    assert.match(nested.stderr, /Did you mean "list"\?/);
    assert.equal(r.stdout + nested.stdout, '');
  });

  test('a mistyped command suggests the nearest one and exits 2, nested too', async () => {
    const top = await run('devics', 'list');
    assert.equal(top.code, 2);
    assert.match(top.stderr, /unknown command 'devics'/);
    assert.match(top.stderr, /Did you mean devices\?/);
    const nested = await run('groups', 'lsit');
    assert.equal(nested.code, 2);
    assert.match(nested.stderr, /Did you mean list\?/);
    const option = await run('devices', 'list', '--actve');
    assert.equal(option.code, 2);
    assert.match(option.stderr, /Did you mean --active\?/);
  });

  test('every command has a description; every leaf command has examples; every option and argument is described', () => {
    const missing: string[] = [];
    for (const cmd of walkCommands(tree())) {
      const path = commandPath(cmd) || 'trackctl';
      if (!cmd.description()) missing.push(`${path}: no description`);
      if (visibleCommands(cmd).length === 0 && examplesOf(cmd).length === 0) missing.push(`${path}: no examples`);
      for (const o of visibleOptions(cmd)) if (!o.description) missing.push(`${path} ${o.flags}: no description`);
      for (const a of cmd.registeredArguments) if (!a.description) missing.push(`${path} <${a.name()}>: no description`);
    }
    assert.deepEqual(missing, []);
  });
});
