/** The build's stand-ins inside undici (scripts/shims/) must match what they replace. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import http from 'node:http';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

const load = createRequire(import.meta.url);

test("node:http as undici's core sees it carries node's default maxHeaderSize", () => {
  const shim = load(join(ROOT, 'scripts/shims/undici-http.cjs')) as { maxHeaderSize: number; IncomingMessage: unknown };
  assert.equal(shim.maxHeaderSize, http.maxHeaderSize);
  assert.equal(typeof shim.IncomingMessage, 'function');
});

test('the HTTP/2 client stand-in fails loudly if it is ever reached', () => {
  const connectH2 = load(join(ROOT, 'scripts/shims/undici-no-h2.cjs')) as () => void;
  assert.throws(() => connectH2(), /HTTP\/2/);
});
