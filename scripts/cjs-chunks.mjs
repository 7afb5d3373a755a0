// The build's last step for dist/ (scripts/build.mjs): esbuild's CommonJS form of each ES
// module chunk, reshaped to cost less to load. Measured with instruction counts, this took
// 7% off `devices list` and 3% off `devices --help` (before the launcher kept V8's compiled code).
//
// - Plain exports. esbuild gives every export a getter (kept live for ES module semantics)
//   and copies them onto a second object with getters of its own, so each chunk compiles
//   its helpers and every imported name is read through two function calls. A chunk's
//   exports become plain properties, assigned once its code has run; a chunk that imports
//   one from another reads a property. That is the same as long as no exported binding is
//   ever reassigned and no two chunks import each other: both are checked here, and the
//   build fails if either stops holding.
import { Parser } from 'acorn';
import { dirname, join } from 'node:path';

const EXPORTS_BLOCK = /var stdin_exports=\{\};__export\(stdin_exports,\{(.*?)\}\);module\.exports=__toCommonJS\(stdin_exports\);/s;
const EXPORT_ENTRY = /([\w$]+|"[^"]*"):\(\)=>([\w$.]+)(?:,|$)/y;
const LEXER_HINT = /0&&\(module\.exports=\{[^}]*\}\);?\s*$/;

/** esbuild's export getters → `exports.name = local` after the chunk's code. */
export function reshapeChunk(code, name) {
  const block = EXPORTS_BLOCK.exec(code);
  if (!block) return code; // a chunk exporting nothing (the llhttp image loaders are written separately)
  const entries = exportEntries(block[1], name);
  const reassigned = reassignedExports(code, entries.map((e) => e.value));
  if (reassigned.length > 0) {
    throw new Error(`${name}: exported bindings are reassigned (${reassigned.join(', ')}); plain exports would not see the new values`);
  }
  return withPlainExports(code, entries);
}

function exportEntries(body, name) {
  const entries = [];
  for (let at = 0; at < body.length; at = EXPORT_ENTRY.lastIndex) {
    EXPORT_ENTRY.lastIndex = at;
    const entry = EXPORT_ENTRY.exec(body);
    if (!entry) throw new Error(`${name}: unexpected export form in esbuild's output: ${body.slice(at, at + 80)}`);
    entries.push({ key: entry[1], value: entry[2] });
  }
  return entries;
}

function withPlainExports(code, entries) {
  const assignments = entries.map(({ key, value }) => `exports${key.startsWith('"') ? `[${key}]` : `.${key}`}=${value};`).join('');
  return `${code
    .replace(EXPORTS_BLOCK, 'Object.defineProperty(exports,"__esModule",{value:!0});')
    .replace(LEXER_HINT, '')
    // A dynamic import of another chunk: its exports object is already the namespace.
    .replace(/__toESM\((require\("\.[^"]+"\))\)/g, '$1')}\n${assignments}\n`;
}

/**
 * Names among `locals` that are the target of an assignment, ++ or -- anywhere in the chunk.
 * A look at the text first: each name written only where it is declared (`var name=`, or the
 * first write of a name in a declaration list `var a=1,name=2` that nothing else declares) is
 * no suspect, and a chunk without suspects is done; acorn parses only a chunk with one (a
 * string holding such text, a default value of the same name), and its verdict stands.
 * Parsing every chunk cost a second of `npm start`'s build on a fresh clone (the bundled
 * dependencies are most of the 4 MB). Not seen: a name declared by destructuring and then
 * written once, after a comma (`[a, name] = x` … `b = 1, name = 2`), which esbuild's output of
 * `export let` has not shown.
 */
function reassignedExports(code, locals) {
  if (locals.length === 0) return [];
  const names = locals.map((n) => n.replace(/[$.]/g, '\\$&')).join('|');
  const declared = new Set([...code.matchAll(new RegExp(`\\b(?:var|let|const|function\\*?|class)\\s+(${names})(?![\\w$])`, 'g'))].map((m) => m[1]));
  // An optional ++/-- before the name, then one after it, or an assignment operator (not == or =>).
  const written = new RegExp(`(\\+\\+|--)?\\s*(?<![\\w$.])(${names})(?![\\w$])\\s*(\\+\\+|--|(?:[-+*/%&|^]|\\*\\*|<<|>>>?|&&|\\|\\||\\?\\?)?=(?![=>]))?`, 'g');
  const writes = new Map();
  for (const m of code.matchAll(written)) {
    if (m[1] === undefined && m[3] === undefined) continue;
    const at = m.index + m[0].lastIndexOf(m[2]);
    const plain = m[1] === undefined && m[3] === '=';
    if (plain && /\b(?:var|let|const)\s+$/.test(code.slice(Math.max(0, at - 8), at))) continue; // its declaration
    writes.set(m[2], [...(writes.get(m[2]) ?? []), { at, plain }]);
  }
  const suspects = [...writes].filter(([name, list]) => !(list.length === 1 && list[0].plain && !declared.has(name) && /,\s*$/.test(code.slice(Math.max(0, list[0].at - 4), list[0].at))));
  return suspects.length === 0 ? [] : scan(code, new Set(locals));
}

/** Names among `locals` that acorn finds assigned (=, op=) or updated (++, --), as it finishes each node. */
function scan(code, locals) {
  const parser = new Scanner({ ecmaVersion: 'latest', sourceType: 'script' }, code);
  parser.parse();
  const found = new Set();
  // An assignment acorn later turned into a default value (`(a = 1) => …`) assigns nothing.
  for (const node of parser.assignments) if (node.type === 'AssignmentExpression') target(node.left);
  for (const node of parser.updates) target(node.argument);
  return [...found];

  function target(node) {
    if (node.type === 'Identifier' && locals.has(node.name)) found.add(node.name);
  }
}

class Scanner extends Parser {
  assignments = [];
  updates = [];
  finishNode(node, type) {
    if (type === 'AssignmentExpression') this.assignments.push(node);
    else if (type === 'UpdateExpression') this.updates.push(node);
    return super.finishNode(node, type);
  }
}

/** The chunks a chunk requires as it loads (its static imports), as paths. */
export function staticImports(code, file) {
  return [...code.matchAll(/import_[\w$]+=require\("(\.[^"]+)"\)/g)].map((m) => join(dirname(file), m[1]));
}

/** Fails on chunks that import each other: plain exports are assigned only once a chunk's code has run. */
export function assertNoCycles(imports) {
  const done = new Set();
  const visit = (file, path) => {
    if (done.has(file)) return;
    if (path.includes(file)) throw new Error(`chunks import each other: ${[...path, file].join(' → ')}`);
    for (const next of imports.get(file) ?? []) visit(next, [...path, file]);
    done.add(file);
  };
  for (const file of imports.keys()) visit(file, []);
}
