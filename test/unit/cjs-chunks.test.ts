/**
 * The build's reshaping of esbuild's CommonJS chunks (scripts/cjs-chunks.mjs), run on what
 * esbuild itself makes of small ES modules: plain exports that behave like the originals,
 * a refusal where they would not, and the import-cycle check.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { transform } from 'esbuild';
import { runInNewContext } from 'node:vm';
import { assertNoCycles, reshapeChunk, staticImports } from '../../scripts/cjs-chunks.mjs';

async function esbuildCjs(source: string): Promise<string> {
  const { code } = await transform(source, { format: 'cjs', minifyWhitespace: true, minifySyntax: true, supported: { 'dynamic-import': false } });
  return code;
}

/** Runs CommonJS code with `require` answering from `modules`; returns its exports. */
function load(code: string, modules: Record<string, unknown> = {}): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  runInNewContext(code, { module, exports: module.exports, require: (id: string) => modules[id], Object, Promise });
  return module.exports;
}

test('exports become plain properties with the values the getters gave', async () => {
  const code = await esbuildCjs(`
    import { base } from './chunk-a.js';
    export const answer = base + 1;
    export function twice(n) { return 2 * n; }
    export class Thing {}
    export const first = 1, second = first + 1;
    export { base as again };`);
  const lean = reshapeChunk(code, 'chunk-b.js');
  // The helpers' definitions stay; nothing calls them.
  assert.doesNotMatch(lean, /__export\(stdin_exports|=__toCommonJS\(/);
  const exports = load(lean, { './chunk-a.js': { base: 41 } });
  assert.equal(exports.answer, 42);
  assert.equal((exports.twice as (n: number) => number)(4), 8);
  assert.equal(typeof exports.Thing, 'function');
  assert.equal(exports.again, 41);
  assert.equal(exports.second, 2);
  assert.equal(exports.__esModule, true);
  assert.deepEqual(Object.getOwnPropertyDescriptor(exports, 'answer'), { value: 42, writable: true, enumerable: true, configurable: true });
});

test('a dynamic import of another chunk gets its exports object as the namespace', async () => {
  const code = await esbuildCjs(`export async function later() { const { x } = await import('./chunk-c.js'); return x; }`);
  const lean = reshapeChunk(code, 'chunk-d.js');
  assert.match(lean, /require\("\.\/chunk-c\.js"\)/);
  assert.doesNotMatch(lean, /__toESM\(require\("\.\/chunk-c\.js"\)\)/);
  const exports = load(lean, { './chunk-c.js': { x: 'from c' } });
  assert.equal(await (exports.later as () => Promise<string>)(), 'from c');
});

test('an exported binding that is reassigned stops the build: a plain export would keep the old value', async () => {
  const code = await esbuildCjs(`export let count = 0; export function bump() { count++; }`);
  assert.throws(() => reshapeChunk(code, 'chunk-e.js'), /chunk-e\.js: exported bindings are reassigned \(count\)/);
});

test('a default value of the same name is no reassignment; each form of assignment is', async () => {
  // esbuild renames a parameter that shadows a name of the chunk; code can still hold one (acorn
  // first reads `(count = 1)` as an assignment, then as a parameter with a default value).
  const code = (await esbuildCjs(`export let count = 0; export const f = (n = 1) => n, g = ([n = 2]) => n;`)).replaceAll(/\bn\b/g, 'count');
  assert.match(code, /\(count=1\)=>count/);
  assert.equal((load(reshapeChunk(code, 'chunk-f.js')).f as () => number)(), 1);
  for (const change of ['count += 2', 'count ||= 1', '--count', 'count--', 'other = 1, count = 2', 'count = 2']) {
    const code = await esbuildCjs(`let other = 0; export let count = 0; export function bump() { ${change}; return other; }`);
    assert.throws(() => reshapeChunk(code, 'chunk-g.js'), /exported bindings are reassigned \(count\)/, change);
  }
});

test('chunks that import each other are refused; a chain is fine', async () => {
  const code = await esbuildCjs(`import { a } from './chunk-a.js'; import { b } from './chunk-b.js'; export const c = a + b;`);
  assert.deepEqual(staticImports(code, '/dist/chunks/chunk-c.js'), ['/dist/chunks/chunk-a.js', '/dist/chunks/chunk-b.js']);
  assertNoCycles(new Map([['a', ['b']], ['b', ['c']], ['c', []]]));
  assert.throws(() => assertNoCycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]])), /chunks import each other: a → b → c → a/);
});

test('a binding declared in a list and written again after a comma is found', async () => {
  // `var first=0,count=0` declares count after a comma; a second write after a comma is no declaration.
  const code = await esbuildCjs(`export let first = 0, count = 0; export function bump(n) { return first = n, count = n; }`);
  assert.match(code, /,count=0/);
  assert.throws(() => reshapeChunk(code, 'chunk-h.js'), /exported bindings are reassigned \(first, count\)/);
  // Text that only looks like a write (in a string) leaves the verdict to the parse: no reassignment.
  const quoted = await esbuildCjs(`export const count = 1; export const text = ",count=2";`);
  assert.equal(load(reshapeChunk(quoted, 'chunk-i.js')).count, 1);
});
