/**
 * `npm start` on a fresh clone: it bundles dist/ alone (no tests, no type-check), says how long
 * that took, then runs the command; a second start with nothing changed runs at once; a
 * changed source is bundled again. The clone is this checkout's tracked files, sharing its
 * node_modules.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

let clone: string;

function start(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(clone, 'scripts/start.mjs'), ...args], {
      cwd: clone,
      // Its own config and data (the sandbox state of --sandbox).
      env: { ...process.env, TRACKCTL_CONFIG_DIR: join(clone, 'config') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

before(() => {
  clone = mkdtempSync(join(tmpdir(), 'trackctl-start-'));
  const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(files.status, 0, files.stderr);
  for (const file of files.stdout.split('\0')) {
    if (file === '' || file === 'node_modules' || !existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    cpSync(join(ROOT, file), join(clone, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
});

after(() => {
  if (clone) rmSync(clone, { recursive: true, force: true });
});

test('npm start bundles dist/ only when its sources changed, and says how long it took', { timeout: 400_000 }, async () => {
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const fresh = await start(['--version']);
  assert.equal(fresh.code, 0, fresh.stderr);
  assert.equal(fresh.stdout.trim(), version);
  assert.match(fresh.stderr, /^npm start: bundled in \d+\.\d s;/m);
  assert.ok(existsSync(join(clone, 'dist/main.js')));
  assert.equal(existsSync(join(clone, 'dist-test')), false, 'the tests are not bundled');

  const again = await start(['--version']);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout.trim(), version);
  assert.equal(again.stderr, '', 'nothing changed: no bundling');

  // A source edited after the bundle (dated a minute ahead: no clock-resolution race).
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(clone, 'src/main.ts'), later, later);
  const changed = await start(['--sandbox', 'units', '-o', 'json']);
  assert.equal(changed.code, 0, changed.stderr);
  assert.match(changed.stderr, /npm start: bundled in/);
  assert.ok((JSON.parse(changed.stdout) as unknown[]).length > 5, 'then it runs the command');
});
