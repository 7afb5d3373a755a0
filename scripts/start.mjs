// `npm start`: bundle dist/ when its sources changed since the last build, then show the demo
// fleet from the embedded sandbox. Only dist/ is bundled (no type-check, no tests): on the 2-core
// build machine that is 4-5 s of CPU on a fresh clone (`time npm start`), and nothing at all while
// dist/ is newer than everything it is built from. The script says on stderr how long it took.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const built = join(root, 'dist/main.js');
/** What dist/ is built from: the sources, the build scripts, and the installed packages (npm writes node_modules/.package-lock.json). */
const inputs = ['src', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'node_modules/.package-lock.json'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const stale = !existsSync(built) || Math.max(...inputs.map((p) => newest(join(root, p)))) > statSync(built).mtimeMs;
if (stale) {
  process.stderr.write('npm start: bundling dist/ (no type-check) …\n');
  const t0 = performance.now();
  const b = spawnSync(process.execPath, [`${root}scripts/build.mjs`, '--no-check', '--no-tests'], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
  process.stderr.write(`npm start: bundled in ${((performance.now() - t0) / 1000).toFixed(1)} s; skipped next time while the sources are unchanged\n`);
}
const args = process.argv.length > 2 ? process.argv.slice(2) : ['--sandbox', 'units'];
const r = spawnSync(process.execPath, [`${root}bin/trackctl.js`, ...args], { stdio: 'inherit' });
process.exit(r.status ?? 1);
