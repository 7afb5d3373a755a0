/** The build's stand-in for node:http2 inside undici must carry the real constants. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import http2 from 'node:http2';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

test('every constant the shim gives undici equals node:http2', () => {
  const shim = createRequire(import.meta.url)(join(ROOT, 'scripts/shims/http2-lazy.cjs')) as {
    constants: Record<string, string | number>;
    connect: unknown;
  };
  const real = http2.constants as unknown as Record<string, string | number>;
  for (const [name, value] of Object.entries(shim.constants)) assert.equal(value, real[name], name);
  assert.equal(typeof shim.connect, 'function');
});
