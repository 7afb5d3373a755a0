// Generates completions/, man/ and docs/reference.md from the command definitions: builds the
// bundle if asked (or missing), asks the binary for every file (`trackctl __gen`,
// which walks the commander tree) and writes them. Deterministic: the same tree
// gives the same bytes. Also keeps package.json's "man" list in step.
//   node scripts/gen.mjs                 build (no type-check), write into the repo
//   node scripts/gen.mjs --no-build      use the existing dist/
//   node scripts/gen.mjs --out DIR       write into DIR instead (the staleness test)
//   node scripts/gen.mjs --check         write nothing; exit 1 naming each committed file that is stale
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const argv = process.argv.slice(2);
const outIndex = argv.indexOf('--out');
const out = outIndex >= 0 ? argv[outIndex + 1] : root;
if (!out) throw new Error('--out needs a directory');

if (!argv.includes('--no-build') || !existsSync(join(root, 'dist/main.js'))) {
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--no-check'], { stdio: 'inherit' });
}

// A fixed environment: no user config, no colour, a fixed width.
const env = { PATH: process.env.PATH, HOME: '/nonexistent', COLUMNS: '80', NO_COLOR: '1', TRACKCTL_CONFIG_DIR: '/nonexistent/trackctl' };
const json = execFileSync(process.execPath, [join(root, 'bin/trackctl.js'), '__gen'], { env, encoding: 'utf8', maxBuffer: 64 << 20 });
const files = JSON.parse(json);

if (argv.includes('--check')) {
  const generated = new Set(Object.keys(files));
  const extra = ['man', 'completions'].flatMap((dir) => (existsSync(join(root, dir)) ? readdirSync(join(root, dir)).map((n) => `${dir}/${n}`) : [])).filter((f) => !generated.has(f));
  const stale = Object.entries(files).filter(([rel, text]) => !existsSync(join(root, rel)) || readFileSync(join(root, rel), 'utf8') !== text).map(([rel]) => rel);
  for (const rel of [...stale, ...extra]) console.error(`gen: ${rel} is stale (run npm run gen)`);
  if (stale.length + extra.length > 0) process.exit(1);
  console.error(`gen: ${generated.size} generated files are current`);
  process.exit(0);
}

// Pages of commands that no longer exist must go.
for (const dir of ['man', 'completions']) {
  const d = join(out, dir);
  if (!existsSync(d)) continue;
  for (const name of readdirSync(d)) {
    if (!(`${dir}/${name}` in files)) rmSync(join(d, name));
  }
}
for (const [rel, text] of Object.entries(files)) {
  const p = join(out, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, text);
}

const pages = Object.keys(files).filter((f) => f.startsWith('man/')).map((f) => `./${f}`);
const pkgPath = join(out === root ? root : out, 'package.json');
if (out === root) {
  const raw = readFileSync(pkgPath, 'utf8');
  const pkg = JSON.parse(raw);
  if (JSON.stringify(pkg.man) !== JSON.stringify(pages)) {
    pkg.man = pages;
    writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
    console.error('gen: updated "man" in package.json');
  }
} else {
  writeFileSync(join(out, 'man-list.json'), `${JSON.stringify(pages, null, 2)}\n`);
}
console.error(`gen: wrote ${Object.keys(files).length} files into ${out}`);
