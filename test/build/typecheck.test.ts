/**
 * The type-check of src/, test/ and bench/ (tsc, as `npm run build` runs it first), run as one
 * test of the suite: `npm test` bundles without it and checks the types here, beside the other
 * tests, so its 25 s of one core fill the time other files spend waiting. A type error fails
 * the suite as it failed the build. (In test/build/ so it sorts first: it starts with the suite.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

test('tsc -p tsconfig.json finds no type error', async () => {
  const tsc = spawn(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.json')], { cwd: ROOT });
  let out = '';
  tsc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  tsc.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    tsc.on('error', reject);
    tsc.on('close', resolve);
  });
  assert.equal(code, 0, out);
});
