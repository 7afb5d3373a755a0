/**
 * Start-up stays light: help, version and completion load no HTTP, keychain or
 * sandbox code. NODE_DEBUG=trackctl lists every dist/ file the run loaded; the chunks
 * holding undici, the keychain binding and the sandbox are found by content.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT, loadedDistFiles } from '../helpers/cli.js';

const heavy: Record<string, RegExp> = {
  http: /llhttp|EnvHttpProxyAgent/,
  keychain: /@napi-rs\/keyring/,
  sandbox: /Reports have been successfully retrieved\./,
};

function loadedChunks(args: string[]): string[] {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_DEBUG: 'trackctl', TRACKCTL_CONFIG_DIR: '/nonexistent/trackctl' },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr.slice(-500));
  return loadedDistFiles(r.stderr);
}

const chunkText = (rel: string) => readFileSync(join(ROOT, rel), 'utf8');

test('the heavy chunks exist (so the check below means something)', () => {
  const files = [...readdirSync(join(ROOT, 'dist')).filter((f) => f.endsWith('.js')), ...readdirSync(join(ROOT, 'dist', 'chunks')).map((f) => `chunks/${f}`)];
  const all = files.map((f) => chunkText(join('dist', f)));
  for (const [what, marker] of Object.entries(heavy)) assert.ok(all.some((t) => marker.test(t)), `${what} code is in some chunk`);
});

for (const args of [['--version'], ['--help'], ['devices', '--help'], ['devices', 'list', '--help'], ['help', 'exit-codes'], ['completion', 'bash']]) {
  test(`trackctl ${args.join(' ')} loads no HTTP, keychain or sandbox code`, (t) => {
    if (args[0] === 'completion' || args[0] === 'help') {
      const probe = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
      if (probe.status !== 0) return t.skip(`${args.join(' ')} is not available`);
    }
    const loaded = loadedChunks(args);
    // --version is answered by the CommonJS bin script alone; everything else loads the bundle.
    if (args[0] !== '--version') assert.ok(loaded.length > 0, 'NODE_DEBUG=trackctl reported the loaded files');
    for (const file of loaded) {
      for (const [what, marker] of Object.entries(heavy)) {
        assert.doesNotMatch(chunkText(file), marker, `${file} holds ${what} code`);
      }
    }
  });
}
