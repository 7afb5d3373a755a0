/**
 * The fleet-run engine (src/runs/) sits below the commands: it takes an Api, settings and
 * callbacks, never the Context, and nothing of it (nor anything it loads at run time)
 * imports src/commands/ or src/context.ts. Type-only imports are not followed: they load
 * nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '../helpers/cli.js';

const SRC = join(ROOT, 'src');

/** The modules a source text loads: static imports and re-exports (not `import type`), and import() of a literal. */
function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) out.push(m[1] as string);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1] as string);
  return out;
}

function resolveTs(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined; // node: and packages
  const js = resolve(dirname(from), spec);
  const ts = js.replace(/\.js$/, '.ts');
  return existsSync(ts) ? ts : undefined;
}

const forbidden = (file: string): boolean => file.startsWith(join(SRC, 'commands') + '/') || file === join(SRC, 'context.ts');

/** Every path from `start` (through loading imports) that reaches a forbidden module. */
function violations(start: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const walk = (file: string, path: string[]): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      const next = resolveTs(file, spec);
      if (next === undefined) continue;
      const chain = [...path, relative(ROOT, next)];
      if (forbidden(next)) found.push(chain.join(' -> '));
      else walk(next, chain);
    }
  };
  walk(start, [relative(ROOT, start)]);
  return found;
}

test('the scanner sees what loads and what does not', () => {
  const text = [
    "import { a } from '../commands/x.js';",
    "import type { Context } from '../context.js';",
    "export { b } from './b.js';",
    "const m = await import('../context.js');",
    "import './side-effect.js';",
  ].join('\n');
  assert.deepEqual(importsOf(text), ['../commands/x.js', './b.js', './side-effect.js', '../context.js']);
});

test('no module of src/runs/ loads src/commands/ or src/context.ts, directly or through what it imports', () => {
  const files = readdirSync(join(SRC, 'runs')).filter((n) => n.endsWith('.ts')).map((n) => join(SRC, 'runs', n));
  assert.ok(files.length >= 8, `the engine's modules: ${files.length}`);
  const bad = files.flatMap(violations);
  assert.deepEqual(bad, []);
});

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('the lower layers (api, auth, config, fleet, import, io, lake, reports, runs, sandbox) take plain values: none names the Context, not even as a type', () => {
  const files = ['api', 'auth', 'config', 'fleet', 'import', 'io', 'lake', 'reports', 'runs', 'sandbox'].flatMap((d) => sources(join(SRC, d)));
  assert.ok(files.length >= 60, `modules: ${files.length}`);
  const naming = files.filter((f) => /from\s+['"](\.\.\/)+context\.js['"]/.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));
  assert.deepEqual(naming, []);
  assert.deepEqual(files.flatMap(violations), [], 'nor loads commands/ or context.ts');
});


/** Every module a source text names: its imports and re-exports, type-only ones included, and import() of a literal. */
function namedModules(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) out.push(m[1] as string);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1] as string);
  return out;
}

test('imports run one way: no module of src/ reaches itself again through what it names (types included)', () => {
  const files = sources(SRC);
  const edges = new Map(files.map((f) => [f, namedModules(readFileSync(f, 'utf8')).flatMap((s) => resolveTs(f, s) ?? [])]));
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]): void => {
    state.set(file, 'open');
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), next].map((f) => relative(ROOT, f)).join(' -> '));
      else if (!state.has(next)) visit(next, [...path, next]);
    }
    state.set(file, 'done');
  };
  for (const f of files) if (!state.has(f)) visit(f, [f]);
  assert.ok(files.length >= 200, `modules: ${files.length}`);
  assert.deepEqual(circles, []);
});
