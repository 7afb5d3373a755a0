// `npm run build:sea`: trackctl as one executable file that needs no Node on the host, made with
// Node's single executable applications (SEA): `node --build-sea` puts a script and assets into a
// copy of the node binary. Writes dist-sea/trackctl (dist-sea/trackctl.cjs is the script).
//
// - The script is all of trackctl in one CommonJS file (esbuild, no code splitting; the start-up
//   trims of scripts/build.mjs are not used: they leave files beside the chunks, and a SEA reads
//   nothing beside itself). dynamic import() of trackctl's own modules becomes an inline require.
// - `--build-sea` needs Node >= 25.5. With an older node running this script, the node of the
//   registry's node@26 package is installed (npm, once) in node_modules/.cache/trackctl-sea and
//   builds it; TRACKCTL_SEA_NODE=/path/to/node chooses another. The executable is that node.
// - The keychain binding (@napi-rs/keyring) is a native addon, which a SEA cannot require from
//   a file it does not have: the addon goes in as an asset, and on first use of the keychain it is
//   written to the user's cache directory ($XDG_CACHE_HOME/trackctl/native, mode 0700), named by
//   its SHA-256 and checked against it each time, then loaded with process.dlopen. Commands that
//   do not touch the keychain never write it.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { jqWorkerText } from './jq-worker-text.mjs';

const root = new URL('..', import.meta.url).pathname;
const require = createRequire(import.meta.url);
const pkg = require(join(root, 'package.json'));
const out = join(root, 'dist-sea');
const SEA_NODE_MAJOR = 26;

/** A node binary that has --build-sea (>= 25.5). */
function seaNode() {
  if (process.env.TRACKCTL_SEA_NODE) return process.env.TRACKCTL_SEA_NODE;
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 25 || (major === 25 && minor >= 5)) return process.execPath;
  const prefix = join(root, 'node_modules/.cache/trackctl-sea');
  const node = join(prefix, 'node_modules/.bin/node');
  if (!existsSync(node)) {
    console.error(`build:sea: node ${process.versions.node} cannot build a SEA; installing node@${SEA_NODE_MAJOR} into ${prefix}`);
    mkdirSync(prefix, { recursive: true });
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', prefix, `node@${SEA_NODE_MAJOR}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return node;
}

/** The keychain binding of this platform, from the package @napi-rs/keyring would load it from. */
function keyringAddon() {
  const libc = process.platform === 'linux' ? (process.report?.getReport?.().header?.glibcVersionRuntime ? '-gnu' : '-musl') : '';
  const name = `${process.platform}-${process.arch}${libc}`;
  const dir = dirname(require.resolve(`@napi-rs/keyring-${name}/package.json`));
  return join(dir, `keyring.${name}.node`);
}

// The module trackctl imports as '@napi-rs/keyring' inside the executable.
const KEYRING_FROM_ASSET = `
const { createHash } = require('node:crypto');
const { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { homedir } = require('node:os');
const { join } = require('node:path');
const bytes = Buffer.from(require('node:sea').getRawAsset('keyring.node'));
const digest = createHash('sha256').update(bytes).digest('hex');
const dir = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'trackctl', 'native');
const file = join(dir, 'keyring-' + digest.slice(0, 32) + '.node');
let ok = false;
try { ok = createHash('sha256').update(readFileSync(file)).digest('hex') === digest; } catch {}
if (!ok) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const tmp = file + '.' + process.pid + '.tmp';
  writeFileSync(tmp, bytes, { mode: 0o600 });
  renameSync(tmp, file);
}
const m = { exports: {} };
process.dlopen(m, file);
module.exports = m.exports;
`;

const keyringFromAsset = {
  name: 'keyring-from-asset',
  setup(b) {
    b.onResolve({ filter: /^@napi-rs\/keyring$/ }, () => ({ path: 'keyring', namespace: 'sea-asset' }));
    b.onLoad({ filter: /.*/, namespace: 'sea-asset' }, () => ({ contents: KEYRING_FROM_ASSET, loader: 'js' }));
  },
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const script = join(out, 'trackctl.cjs');
await build({
  stdin: {
    // In a SEA, argv[1] is the executable again: the arguments start at 2, as with node bin/trackctl.js.
    contents: "require('./src/main.ts').run(process.argv.slice(2));",
    resolveDir: root,
    sourcefile: 'sea-main.ts',
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  target: `node${SEA_NODE_MAJOR}`,
  format: 'cjs',
  outfile: script,
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  define: { __TRACKCTL_VERSION__: JSON.stringify(pkg.version) },
  plugins: [keyringFromAsset, jqWorkerText],
});

const config = join(out, 'sea-config.json');
const executable = join(out, 'trackctl');
writeFileSync(
  config,
  JSON.stringify(
    {
      main: script,
      output: executable,
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
      assets: { 'keyring.node': keyringAddon() },
    },
    null,
    2,
  ),
);
const node = seaNode();
execFileSync(node, ['--build-sea', config], { stdio: 'inherit' });
chmodSync(executable, 0o755);
const mb = (statSync(executable).size / 1024 / 1024).toFixed(1);
console.error(`build:sea: ${executable} (${mb} MB, node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()})`);
