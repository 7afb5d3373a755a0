// Build: type-check with tsc, then bundle src/ into dist/ (code splitting, shipped as
// CommonJS) and the tests into dist-test/. `--no-check` skips the type-check (used by the benches);
// `--no-tests` builds dist/ alone (npm pack's prepack: the package holds dist/, never the tests).
import { build, transform } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { assertNoCycles, reshapeChunk, staticImports } from './cjs-chunks.mjs';
import { jqWorkerText } from './jq-worker-text.mjs';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const args = new Set(process.argv.slice(2));

if (!args.has('--no-check')) {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
}

// Start-up trims, each measured. Where a dependency imports a module trackctl never needs at
// start-up, the import gets a stand-in (scripts/shims/, each saying why) or is left out of the
// bundle and loaded at run time, when first used (only files the build writes beside the chunks:
// the package declares no dependency but the keychain binding). Every entry must still match, or
// the build fails.
const shim = (name) => ({ path: join(root, 'scripts/shims', name) });
const inUndici = (file) => new RegExp(`undici[\\\\/]lib[\\\\/]${file.replaceAll('/', '[\\\\/]')}\\.js$`);
const trims = [
  // commander loads node:child_process (with net, dgram and streams, ~8 ms) only to run external subcommands.
  { filter: /^(node:)?child_process$/, importer: /commander[\\/]lib[\\/]command\.js$/, to: () => shim('child-process-lazy.cjs') },
  { filter: /^\.\/client-h2\.js$/, importer: inUndici('dispatcher/client'), to: () => shim('undici-no-h2.cjs') },
  { filter: /^node:http$/, importer: inUndici('(core/util|dispatcher/client)'), to: () => shim('undici-http.cjs') },
  { filter: /^node:assert$/, importer: inUndici('.+'), to: () => shim('undici-assert.cjs') },
  { filter: /^\.\.\/llhttp\/constants\.js$/, importer: inUndici('dispatcher/client-h1'), to: () => shim('undici-llhttp-constants.cjs') },
  // The fetch body code (62 KB with what it needs) is needed only for FormData request bodies, which trackctl never sends.
  { filter: /^\.\.\/web\/fetch\/body\.js$/, importer: inUndici('dispatcher/client-h1'), to: () => shim('undici-no-form-data.cjs') },
  // The two llhttp WebAssembly images (145 KB of base64 source; one is loaded on the first request): see writeWasmImages.
  { filter: /^\.\.\/llhttp\/llhttp(_simd)?-wasm\.js$/, importer: inUndici('dispatcher/client-h1'), to: (p) => ({ path: p.replace('../llhttp/', './'), external: true }) },
];
const startUpTrims = {
  name: 'start-up-trims',
  setup(b) {
    const used = new Set();
    trims.forEach((trim, i) => {
      b.onResolve({ filter: trim.filter }, (args) => {
        if (!trim.importer.test(args.importer)) return undefined;
        used.add(i);
        return trim.to(args.path);
      });
    });
    b.onEnd(() => {
      const stale = trims.filter((_, i) => !used.has(i)).map((t) => `${t.filter} from ${t.importer}`);
      if (stale.length > 0) throw new Error(`start-up-trims: no longer imported: ${stale.join('; ')}; review scripts/build.mjs`);
    });
  },
};

// undici's two llhttp WebAssembly images are modules holding base64 text (72 KB each); the build
// writes each as a .wasm file beside the chunks, with a small module in its place that reads it.
// undici compiles the parser straight after requiring its image, so that module first sets V8's
// --liftoff-only: the parser then stays on the baseline tier. Otherwise V8 recompiles it with its
// optimising tier in the background and the process cannot exit until that is done, 100-250 ms
// after a command's work. The flag is set this late because once any V8 flag is changed, V8
// refuses the code cache of Node's own modules: each one loaded later would be compiled from source.
const undiciLlhttp = join(root, 'node_modules/undici/lib/llhttp');
const wasmImages = ['llhttp_simd-wasm.js', 'llhttp-wasm.js'];
function writeWasmImages(chunksDir) {
  for (const image of wasmImages) {
    const wasm = image.replace(/-wasm\.js$/, '.wasm');
    writeFileSync(join(chunksDir, wasm), createRequire(import.meta.url)(join(undiciLlhttp, image)));
    writeFileSync(
      join(chunksDir, image),
      `'use strict';\n// Written by scripts/build.mjs in place of undici's ${image}.\nglobalThis[Symbol.for('trackctl.v8-flags')]?.();\nrequire('node:v8').setFlagsFromString('--liftoff-only');\nmodule.exports = require('node:fs').readFileSync(require('node:path').join(__dirname, '${wasm}'));\n`,
    );
  }
}

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  // Native addon: must stay a runtime import.
  // zstd-wasm reads its .wasm file beside its own module.
  external: ['@napi-rs/keyring', '@bokuweb/zstd-wasm'],
  define: { __TRACKCTL_VERSION__: JSON.stringify(pkg.version) },
};

// Build beside the output and swap it in, so a process running the old build never sees a half-written one.
async function buildInto(dir, options, finish = async () => undefined) {
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const result = await build({ ...options, outdir: staging });
  await finish(result, staging);
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
}

// esbuild splits code only in ESM, so dist/ is bundled as ESM and each file is then turned into
// CommonJS, dynamic import() becoming require(). The CommonJS loader starts ~8 ms sooner than
// the ES module loader and loads each chunk in a fraction of the time. scripts/cjs-chunks.mjs
// then reshapes esbuild's CommonJS so each chunk costs less to load (see there).
async function toCommonJS(result, staging) {
  const cjs = { format: 'cjs', platform: 'node', target: 'node20', minifyWhitespace: true, minifySyntax: true, logLevel: 'warning' };
  const imports = new Map();
  // All at once: esbuild's service transforms on its own threads while this one reshapes.
  await Promise.all(
    result.outputFiles.map(async (file) => {
      const name = relative(staging, file.path);
      const { code: converted } = await transform(file.text, { ...cjs, supported: { 'dynamic-import': false } });
      // The interop helpers plain exports no longer call stay defined: a second transform to
      // shake them out cost a second of npm start's bundling, and loading them costs nothing measurable.
      const code = reshapeChunk(converted, name);
      imports.set(file.path, staticImports(code, file.path));
      mkdirSync(dirname(file.path), { recursive: true });
      writeFileSync(file.path, code);
    }),
  );
  assertNoCycles(imports);
  writeWasmImages(join(staging, 'chunks'));
  // Names this build's code: V8's compiled code kept between runs is kept per build (bin/trackctl.js).
  const hash = createHash('sha256');
  for (const file of [...result.outputFiles].sort((a, b) => (a.path < b.path ? -1 : 1))) hash.update(file.path.slice(staging.length)).update(readFileSync(file.path));
  writeFileSync(join(staging, 'build-id'), `${hash.digest('hex').slice(0, 16)}\n`);
  writeFileSync(join(staging, 'package.json'), '{ "type": "commonjs" }\n');
}

await buildInto(
  join(root, 'dist'),
  {
    ...common,
    entryPoints: { main: join(root, 'src/main.ts'), sandbox: join(root, 'src/sandbox/index.ts') },
    splitting: true,
    write: false,
    chunkNames: 'chunks/[name]-[hash]',
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [startUpTrims, jqWorkerText],
  },
  toCommonJS,
);

// Map pages inline Leaflet's files, imported `with { type: 'text' }`: the tests' bundles, which
// leave packages to node_modules, must still bundle those as text (Node cannot import text).
const bundledAsText = {
  name: 'bundled-as-text',
  setup(b) {
    b.onResolve({ filter: /^leaflet\/dist\/leaflet\.(js|css)$/ }, (args) =>
      args.with?.type === 'text' ? { path: createRequire(import.meta.url).resolve(args.path) } : undefined,
    );
  },
};

function listTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listTests(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}
const tests = args.has('--no-tests') ? [] : listTests(join(root, 'test'));
if (tests.length > 0) {
  await buildInto(join(root, 'dist-test'), {
    ...common,
    entryPoints: tests,
    outbase: join(root, 'test'),
    // The code the tests share is written once, as chunks: 169 whole bundles were 232 MB to write
    // and took most of `npm test`'s build.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    // The tests stay ES modules; bundled CommonJS dependencies need a real `require`.
    banner: { js: "import { createRequire as __trackctlCreateRequire } from 'node:module'; const require = __trackctlCreateRequire(import.meta.url);" },
    packages: 'external',
    external: [],
    plugins: [bundledAsText, jqWorkerText],
  });
}
