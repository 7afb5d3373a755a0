// Build: type-check with tsc, then bundle src/ into dist/ (code splitting, shipped as
// CommonJS) and the tests into dist-test/. `--no-check` skips the type-check (used by the benches).
import { build, transform } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const args = new Set(process.argv.slice(2));

if (!args.has('--no-check')) {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
}

// Stand-ins for parts of undici that trackctl never reaches (see each shim for why): its HTTP/2
// client, and node:http as its core sees it. Each must still be imported where it was.
const undiciShims = [
  { name: 'client-h2', filter: /^\.\/client-h2\.js$/, importer: /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/, shim: 'undici-no-h2.cjs' },
  { name: 'node:http', filter: /^node:http$/, importer: /undici[\\/]lib[\\/](core[\\/]util|dispatcher[\\/]client)\.js$/, shim: 'undici-http.cjs' },
];
const undiciStandIns = {
  name: 'undici-stand-ins',
  setup(b) {
    const used = new Set();
    for (const { name, filter, importer, shim } of undiciShims) {
      b.onResolve({ filter }, (args) => {
        if (!importer.test(args.importer)) return undefined;
        used.add(name);
        return { path: join(root, 'scripts/shims', shim) };
      });
    }
    b.onEnd(() => {
      const missing = undiciShims.filter((s) => !used.has(s.name)).map((s) => s.name);
      if (missing.length > 0) throw new Error(`undici-stand-ins: undici no longer imports ${missing.join(', ')} where expected; review scripts/shims/`);
    });
  },
};

// commander loads node:child_process (and with it net, dgram and streams, ~8 ms) only to run
// external subcommands, which trackctl has none of: it gets the module on first use instead.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /commander[\\/]lib[\\/]command\.js$/.test(args.importer) ? { path: join(root, 'scripts/shims/child-process-lazy.cjs') } : undefined,
    );
  },
};

// Code undici loads only on demand stays out of the bundle, so it is not parsed at every start-up
// (~3 ms per 100 KB): the two llhttp WebAssembly images (base64, 145 KB; one is loaded on the first
// request) are copied beside the chunks, and the fetch body code, needed only for FormData request
// bodies that trackctl never sends, is left to the installed undici.
const undiciLlhttp = join(root, 'node_modules/undici/lib/llhttp');
// undici compiles the parser straight after requiring its image, so the image sets V8's
// --liftoff-only first: the parser then stays on the baseline tier. Otherwise V8 recompiles it
// with its optimising tier in the background and the process cannot exit until that is done,
// 100-250 ms after a command's work. The flag is set this late because once any V8 flag is
// changed, V8 refuses the code cache of Node's own modules: each one loaded later (net, http,
// tls...) would be compiled from source.
const BASELINE_TIER = "require('node:v8').setFlagsFromString('--liftoff-only');\n";
const wasmImages = ['llhttp_simd-wasm.js', 'llhttp-wasm.js'];
const undiciOnDemand = {
  name: 'undici-on-demand',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/llhttp\/llhttp(_simd)?-wasm\.js$/ }, (args) => ({ path: `./${args.path.slice('../llhttp/'.length)}`, external: true }));
    b.onResolve({ filter: /^\.\.\/web\/fetch\/body\.js$/ }, (args) =>
      /undici[\\/]lib[\\/]dispatcher[\\/]client-h[12]\.js$/.test(args.importer) ? { path: 'undici/lib/web/fetch/body.js', external: true } : undefined,
    );
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  // Native addon: must stay a runtime import.
  external: ['@napi-rs/keyring'],
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
// the ES module loader and loads each chunk in a fraction of the time.
async function toCommonJS(result, staging) {
  for (const file of result.outputFiles) {
    const { code } = await transform(file.text, {
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      supported: { 'dynamic-import': false },
      minifyWhitespace: true,
      minifySyntax: true,
      logLevel: 'warning',
    });
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, code);
  }
  for (const image of wasmImages) {
    const text = readFileSync(join(undiciLlhttp, image), 'utf8');
    if (!text.startsWith("'use strict'\n")) throw new Error(`undici-on-demand: ${image} changed; review the build`);
    writeFileSync(join(staging, 'chunks', image), text.replace("'use strict'\n", `'use strict'\n${BASELINE_TIER}`));
  }
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
    plugins: [undiciStandIns, lazyChildProcess, undiciOnDemand],
  },
  toCommonJS,
);

function listTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listTests(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}
const tests = listTests(join(root, 'test'));
if (tests.length > 0) {
  await buildInto(join(root, 'dist-test'), {
    ...common,
    entryPoints: tests,
    outbase: join(root, 'test'),
    // The tests stay ES modules; bundled CommonJS dependencies need a real `require`.
    banner: { js: "import { createRequire as __trackctlCreateRequire } from 'node:module'; const require = __trackctlCreateRequire(import.meta.url);" },
    packages: 'external',
    external: [],
  });
}
