// Build: type-check with tsc, then bundle src/ (ESM, code splitting) into dist/
// and the tests into dist-test/. `--no-check` skips the type-check (used by the benches).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const args = new Set(process.argv.slice(2));

if (!args.has('--no-check')) {
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
}

// undici's HTTP/2 client gets a lazy node:http2 (see scripts/shims/http2-lazy.cjs).
const http2Shim = join(root, 'scripts/shims/http2-lazy.cjs');
const lazyHttp2 = {
  name: 'lazy-http2',
  setup(b) {
    let used = false;
    b.onResolve({ filter: /^node:http2$/ }, (args) => {
      if (!/undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/.test(args.importer)) return undefined;
      used = true;
      return { path: http2Shim };
    });
    b.onEnd(() => {
      if (!used) throw new Error('lazy-http2: undici no longer imports node:http2 from client-h2.js; review scripts/shims/http2-lazy.cjs');
    });
  },
};

// CommonJS dependencies bundled into ESM need a real `require`.
const banner = { js: "import { createRequire as __trackctlCreateRequire } from 'node:module'; const require = __trackctlCreateRequire(import.meta.url);" };
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  banner,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  // Native addon: must stay a runtime import.
  external: ['@napi-rs/keyring'],
  define: { __TRACKCTL_VERSION__: JSON.stringify(pkg.version) },
};

// Build beside the output and swap it in, so a process running the old build never sees a half-written one.
async function buildInto(dir, options) {
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  await build({ ...options, outdir: staging });
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
}

await buildInto(join(root, 'dist'), {
  ...common,
  entryPoints: { main: join(root, 'src/main.ts'), sandbox: join(root, 'src/sandbox/index.ts') },
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [lazyHttp2],
});

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
    packages: 'external',
    external: [],
  });
}
