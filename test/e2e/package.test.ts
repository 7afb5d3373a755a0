/**
 * The package as a user gets it: the files a clean clone holds (git ls-files: tracked and
 * new, nothing ignored, so no dist/) are packed with `npm pack`, whose prepack builds
 * dist/ (without a second type-check); the tarball is installed globally into an empty
 * prefix, and the installed tool is run with a fresh HOME: --version, --sandbox units, every man page through
 * MANPATH, and bash, zsh and fish completion loaded from the installed files. The install
 * pulls in only what dist/ loads at run time (the keychain binding: everything else is
 * bundled), it holds the documents that help and the man pages name, and the install guide's
 * figure for the package's size stays true.
 * The clone shares this checkout's node_modules (what `npm ci` would install) and the
 * install uses npm's usual cache, so nothing is downloaded twice.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { needTool, registryEnv } from '../helpers/tools.js';

interface Out {
  code: number;
  stdout: string;
  stderr: string;
}

/** Async, so the test runner's other files keep going while npm works. */
function run(cmd: string, args: string[], opts: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number } = {}): Promise<Out> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.env ?? process.env)) if (v !== undefined) env[k] = v;
    const child = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Bounds a hang only: npm pack type-checks and bundles, minutes on a loaded 2-core machine.
    const limit = opts.timeoutMs ?? 600_000;
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${limit / 1000} s)`;
      child.kill('SIGKILL');
    }, limit);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; man: string[]; dependencies: Record<string, string> };
const npmCache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();

let dir: string;
let prefix: string;
let installed: string;
let tarball: string;
/** The environment of a user who has just installed it: a new HOME, the prefix's bin first on PATH. */
let userEnv: Record<string, string>;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trackctl-pack-'));
  const clone = join(dir, 'clone');
  const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(files.status, 0, `git ls-files: ${files.stderr}`);
  // node_modules comes from the checkout below (a symlinked node_modules is a file to git, not an ignored folder).
  const wanted = (f: string): boolean => f !== '' && f !== 'node_modules' && !f.startsWith('node_modules/') && existsSync(join(ROOT, f));
  for (const file of files.stdout.split('\0').filter(wanted)) {
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    cpSync(join(ROOT, file), join(clone, file));
  }
  assert.equal(existsSync(join(clone, 'dist')), false, 'a clean clone has no dist/');
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
  // The prepack bundles without type-checking again: `npm test` type-checked these very sources
  // before the suite ran, and tsc was most of this file's time. The bundle is the package's.
  const manifest = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.equal(manifest.scripts.prepack, 'node scripts/build.mjs --no-tests', 'the prepack this file expects');
  manifest.scripts.prepack += ' --no-check';
  writeFileSync(join(clone, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: clone, env: { ...registryEnv(), npm_config_cache: npmCache } });
  assert.equal(packed.code, 0, `npm pack failed:\n${packed.stderr.slice(-2000)}`);
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string }>;
  tarball = join(dir, info!.filename);

  prefix = join(dir, 'prefix');
  mkdirSync(prefix);
  const npmHome = mkdtempSync(join(dir, 'npm-home-'));
  const install = await run('npm', ['install', '-g', tarball, '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: dir,
    // The machine's environment (certificates, proxies) with an empty HOME: no user .npmrc.
    env: { ...registryEnv(), HOME: npmHome, npm_config_cache: npmCache },
  });
  assert.equal(install.code, 0, `npm install -g failed:\n${install.stderr.slice(-2000)}`);
  installed = join(prefix, 'lib', 'node_modules', pkg.name);

  const home = join(dir, 'home');
  mkdirSync(home);
  userEnv = { PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`, HOME: home, LANG: 'C.UTF-8' };
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('npm pack → npm install -g → the installed trackctl', () => {
  test('the tarball holds the built tool and nothing a user does not need', async () => {
    const listed = await run('tar', ['-tzf', tarball]);
    assert.equal(listed.code, 0, listed.stderr);
    const entries = listed.stdout.split('\n').filter((l) => l !== '').map((l) => l.replace(/^package\//, ''));
    for (const needed of ['bin/trackctl.js', 'dist/main.js', 'dist/sandbox.js', 'completions/trackctl.bash', 'man/trackctl.1', 'package.json']) {
      assert.ok(entries.includes(needed), `${needed} is in the package`);
    }
    const top = new Set(entries.map((e) => e.split('/')[0]));
    for (const unwanted of ['src', 'test', 'dist-test', 'scripts', 'bench', '.ci', 'node_modules', 'tsconfig.json']) {
      assert.ok(!top.has(unwanted), `${unwanted} is not in the package`);
    }
  });

  // The keychain binding is a native addon; zstd-wasm reads its .wasm file beside itself (Parquet's zstd on Node < 22.15).
  const RUNTIME = ['@bokuweb/zstd-wasm', '@napi-rs/keyring'];
  test('the install pulls in only the run-time dependencies: the keychain binding and zstd', () => {
    assert.deepEqual(Object.keys(pkg.dependencies), RUNTIME, 'dist/ bundles every other package');
    const modules = join(installed, 'node_modules');
    const names = existsSync(modules)
      ? readdirSync(modules).filter((n) => !n.startsWith('.')).flatMap((n) => (n.startsWith('@') ? readdirSync(join(modules, n)).map((m) => `${n}/${m}`) : [n]))
      : [];
    assert.ok(names.includes('@napi-rs/keyring'), `the keychain binding is installed: ${names.join(', ')}`);
    assert.ok(names.includes('@bokuweb/zstd-wasm'), `zstd-wasm is installed: ${names.join(', ')}`);
    assert.deepEqual(names.filter((n) => !n.startsWith('@napi-rs/keyring') && n !== '@bokuweb/zstd-wasm'), [], 'nothing else is installed');
  });

  test('the documents that help and the man pages name are in the package', async () => {
    const named = new Set<string>();
    for (const page of pkg.man) for (const m of readFileSync(join(ROOT, page), 'utf8').matchAll(/\bdocs\/[\w.-]+\.\w+/g)) named.add(m[0]);
    for (const args of [['apply', '--help'], ['sandbox', '--help'], ['sandbox', 'start', '--help']]) {
      const r = await run('trackctl', args, { env: userEnv });
      for (const m of r.stdout.matchAll(/\bdocs\/[\w.-]+\.\w+/g)) named.add(m[0]);
    }
    assert.ok(named.has('docs/fleet-file.md') && named.has('docs/sandbox.md'), [...named].join(', '));
    for (const doc of named) {
      assert.ok(existsSync(join(installed, doc)), `${doc} is installed`);
      // Relative links inside a shipped document lead to shipped files too.
      if (!doc.endsWith('.md')) continue;
      for (const link of readFileSync(join(installed, doc), 'utf8').matchAll(/\]\(([\w.-]+\.\w+)\)/g)) {
        assert.ok(existsSync(join(installed, 'docs', link[1]!)), `${doc} links to ${link[1]}, which is installed`);
      }
    }
  });

  test("the install guide's figure for the package's size is within 10% of the tarball", () => {
    const guide = readFileSync(join(ROOT, 'docs', 'install.md'), 'utf8');
    const said = /writes `trackctl-<version>\.tgz` \(about (\d+) kB/.exec(guide);
    assert.ok(said, 'docs/install.md states the size in kB');
    const size = statSync(tarball).size / 1000;
    assert.ok(Math.abs(size - Number(said[1])) <= size * 0.1, `docs/install.md says about ${said[1]} kB; the tarball is ${Math.round(size)} kB`);
  });

  test('the installed tool runs what the bundled libraries do: yaml, csv import, a map page, config', async () => {
    const yaml = await run('trackctl', ['--sandbox', 'devices', 'list', '-o', 'yaml'], { env: userEnv });
    assert.equal(yaml.code, 0, yaml.stderr);
    assert.match(yaml.stdout, /^- did: \d+/m);
    const map = await run('trackctl', ['--sandbox', 'units', '-o', 'html'], { env: userEnv });
    assert.equal(map.code, 0, map.stderr);
    assert.match(map.stdout, /Leaflet/);
    const csv = join(dir, 'devices.csv');
    writeFileSync(csv, 'name,tracker-id,type\nPacked van,356938035643817,TT8850\n');
    const imported = await run('trackctl', ['--sandbox', 'devices', 'import', csv, '--dry-run', '-o', 'json'], { env: userEnv });
    assert.equal(imported.code, 0, imported.stderr);
    const set = await run('trackctl', ['config', 'set', 'timeout', '10s'], { env: userEnv });
    assert.equal(set.code, 0, set.stderr);
    assert.equal((await run('trackctl', ['config', 'get', 'timeout'], { env: userEnv })).stdout.trim(), '10s');
  });

  test('trackctl --version prints the package version', async () => {
    const r = await run('trackctl', ['--version'], { env: userEnv });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), pkg.version);
  });

  test('trackctl --sandbox units lists the demo fleet', async () => {
    const r = await run('trackctl', ['--sandbox', 'units', '-o', 'json'], { env: userEnv });
    assert.equal(r.code, 0, r.stderr);
    const units = JSON.parse(r.stdout) as Array<{ category: string }>;
    assert.ok(units.length > 5, 'the demo fleet has units');
    assert.ok(units.some((u) => u.category === 'device'));
  });

  test('man trackctl and every command group page through the prefix MANPATH', (t) => {
    if (!needTool(t, 'man')) return;
    const manDir = join(prefix, 'share', 'man');
    const pages = pkg.man.map((m) => m.replace(/^.*\//, '').replace(/\.1$/, ''));
    assert.deepEqual(readdirSync(join(manDir, 'man1')).sort(), pages.map((p) => `${p}.1`).sort(), 'every page is linked into the prefix');
    for (const page of pages) {
      const r = spawnSync('man', ['-P', 'cat', page], { env: { ...userEnv, MANPATH: manDir, MANWIDTH: '80' }, encoding: 'utf8' });
      assert.equal(r.status, 0, `man ${page}: ${r.stderr}`);
      assert.match(r.stdout, new RegExp(`NAME\\s+${page.replace(/-/g, '\\\\?-')} `), `man ${page} shows its NAME section`);
    }
  });

  test('bash completion from the installed script', async (t) => {
    if (!needTool(t, 'bash')) return;
    const script = `source ${join(installed, 'completions', 'trackctl.bash')}; COMP_WORDS=(trackctl dev); COMP_CWORD=1; _trackctl; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = await run('bash', ['--norc', '--noprofile', '-c', script], { env: userEnv });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.split('\n').filter((l) => l !== ''), ['devices']);
  });

  test('zsh completion from the installed script', async (t) => {
    if (!needTool(t, 'zsh')) return;
    const script = [
      'compadd() { while (( $# )); do case $1 in -a) shift; print -rl -- "${(@P)1}";; -d|-J|-X|-S|-P) shift;; esac; shift; done }',
      '_files() { print -r -- "<files>" }',
      'compdef() { : }',
      `source ${join(installed, 'completions', '_trackctl')}`,
      'words=(trackctl sen); CURRENT=2; _trackctl',
    ].join('\n');
    const r = await run('zsh', ['-f', '-c', script], { env: userEnv });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.split('\n').includes('sensors'), `zsh offered: ${r.stdout}`);
  });

  test('fish completion from the installed script', async (t) => {
    if (!needTool(t, 'fish')) return;
    const r = await run('fish', ['--no-config', '-c', `source ${join(installed, 'completions', 'trackctl.fish')}; complete -C 'trackctl gro'`], { env: userEnv });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^groups\t/m);
  });
});
