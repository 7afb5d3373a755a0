// Runs the bundled tests with node's built-in runner. Node 20 does not expand
// globs, so the file list is built here. Extra arguments are file filters.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dir = join(root, 'dist-test');
function list(d) {
  if (!existsSync(d)) return [];
  return readdirSync(d).flatMap((n) => {
    const p = join(d, n);
    return statSync(p).isDirectory() ? list(p) : n.endsWith('.test.js') ? [p] : [];
  });
}
const filters = process.argv.slice(2);
const files = list(dir).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=120000', ...files], {
  stdio: 'inherit',
  cwd: root,
});
process.exit(r.status ?? 1);
