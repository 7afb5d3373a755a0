/**
 * npm 11 skips a dependency's install scripts unless package.json's allowScripts names it, and
 * warns on every `npm ci` about each one it skipped. Every package of the lockfile with an install
 * script is settled there (allowed or denied), so `npm ci` is quiet and the decision is reviewed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

interface Lock {
  packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
}

test('every dependency with an install script is settled in allowScripts', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as Lock;
  const settled = new Set(Object.keys(pkg.allowScripts ?? {}).map((k) => k.replace(/(.)@.*$/, '$1')));
  const withScripts = Object.entries(lock.packages)
    .filter(([path, p]) => path !== '' && p.hasInstallScript === true)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  assert.ok(withScripts.includes('esbuild'), 'esbuild has an install script (it puts its native binary in place)');
  assert.deepEqual(withScripts.filter((name) => !settled.has(name)), []);
  assert.equal(pkg.allowScripts?.esbuild, true, "esbuild's install script runs");
});
