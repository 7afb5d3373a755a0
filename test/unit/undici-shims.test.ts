/** The build's stand-ins inside undici (scripts/shims/) must match what they replace. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import http from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

const load = createRequire(import.meta.url);

test("node:http as undici's core sees it carries node's default maxHeaderSize", () => {
  const shim = load(join(ROOT, 'scripts/shims/undici-http.cjs')) as { maxHeaderSize: number; IncomingMessage: unknown };
  assert.equal(shim.maxHeaderSize, http.maxHeaderSize);
  assert.equal(typeof shim.IncomingMessage, 'function');
});

test("the llhttp constants undici's HTTP/1 client reads are undici's own", () => {
  const real = load(join(ROOT, 'node_modules/undici/lib/llhttp/constants.js')) as { TYPE: unknown; ERROR: unknown };
  const stand = load(join(ROOT, 'scripts/shims/undici-llhttp-constants.cjs')) as { TYPE: unknown; ERROR: unknown };
  assert.deepEqual(stand, { TYPE: real.TYPE, ERROR: real.ERROR });
  const used = readFileSync(join(ROOT, 'node_modules/undici/lib/dispatcher/client-h1.js'), 'utf8').match(/\bconstants\.[A-Z]\w*/g) ?? [];
  assert.deepEqual([...new Set(used)].sort(), ['constants.ERROR', 'constants.TYPE']);
});

test('the HTTP/2 client stand-in fails loudly if it is ever reached', () => {
  const connectH2 = load(join(ROOT, 'scripts/shims/undici-no-h2.cjs')) as () => void;
  assert.throws(() => connectH2(), /HTTP\/2/);
});

test("undici calls node:assert only as assert(value[, message]), and a failed check still throws node's AssertionError", () => {
  const lib = join(ROOT, 'node_modules/undici/lib');
  const methods = readdirSync(lib, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.js'))
    .flatMap((f) => readFileSync(join(lib, f), 'utf8').match(/\bassert\.\w+/g) ?? []);
  assert.deepEqual(methods, []);
  const stand = load(join(ROOT, 'scripts/shims/undici-assert.cjs')) as (value: unknown, message?: string) => void;
  stand(1);
  assert.throws(() => stand(0, 'broken invariant'), { name: 'AssertionError', message: 'broken invariant' });
});

test('the fetch body stand-in fails loudly, and undici loads the real one only to encode FormData', () => {
  const client = readFileSync(join(ROOT, 'node_modules/undici/lib/dispatcher/client-h1.js'), 'utf8');
  const uses = client.match(/require\('\.\.\/web\/fetch\/body\.js'\)/g) ?? [];
  assert.equal(uses.length, 1);
  const before = client.slice(0, client.indexOf("require('../web/fetch/body.js')"));
  assert.match(before.slice(before.lastIndexOf('\n  if (')), /^\n  if \(util\.isFormDataLike\(body\)\) \{/);
  const shim = load(join(ROOT, 'scripts/shims/undici-no-form-data.cjs')) as { extractBody: () => void };
  assert.throws(() => shim.extractBody(), /FormData/);
});
