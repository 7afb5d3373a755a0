// The build's last step for dist/ (scripts/build.mjs): esbuild's CommonJS form of each ES
// module chunk, reshaped to cost less to load. Measured with instruction counts, these take
// 7% off `devices list` and 3% off `devices --help`.
//
// - Plain exports. esbuild gives every export a getter (kept live for ES module semantics)
//   and copies them onto a second object with getters of its own, so each chunk compiles
//   its helpers and every imported name is read through two function calls. A chunk's
//   exports become plain properties, assigned once its code has run; a chunk that imports
//   one from another reads a property. That is the same as long as no exported binding is
//   ever reassigned and no two chunks import each other: both are checked here, and the
//   build fails if either stops holding.
// - Eager module bodies. A bundled CommonJS dependency (commander, undici) is a function
//   per module, run when first required. V8 first skims a function it will compile later
//   and parses it in full when it runs; a function in parentheses it compiles at once, so
//   each module body that will run anyway is parsed once instead of twice.
import { Parser } from 'acorn';
import { dirname, join } from 'node:path';

const EXPORTS_BLOCK = /var stdin_exports=\{\};__export\(stdin_exports,\{(.*?)\}\);module\.exports=__toCommonJS\(stdin_exports\);/s;
const EXPORT_ENTRY = /([\w$]+|"[^"]*"):\(\)=>([\w$.]+)(?:,|$)/y;
const LEXER_HINT = /0&&\(module\.exports=\{[^}]*\}\);?\s*$/;

/**
 * Both reshapings of one chunk, from a single parse (parsing is most of the build's own time:
 * the bundled dependencies are most of the 4 MB of chunks).
 */
export function reshapeChunk(code, name) {
  const block = EXPORTS_BLOCK.exec(code);
  const entries = block ? exportEntries(block[1], name) : [];
  if (!block && !code.includes('__commonJS')) return code;
  const { reassigned, edits } = scan(code, new Set(entries.map((e) => e.value)));
  if (reassigned.length > 0) {
    throw new Error(`${name}: exported bindings are reassigned (${reassigned.join(', ')}); plain exports would not see the new values`);
  }
  edits.sort((a, b) => b.at - a.at);
  const eager = edits.reduce((text, { at, text: insert }) => text.slice(0, at) + insert + text.slice(at), code);
  return block ? withPlainExports(eager, entries) : eager;
}

/** esbuild's export getters → `exports.name = local` after the chunk's code. */
export function plainExports(code, name) {
  const block = EXPORTS_BLOCK.exec(code);
  return block ? reshapeChunk(code, name) : code; // a chunk exporting nothing (the llhttp image loaders are written separately)
}

/** `__commonJS({"path"(exports,module){…}})` → `__commonJS({"path":(function(exports,module){…})})`. */
export function eagerModuleBodies(code) {
  return reshapeChunk(code, 'chunk');
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
 * One parse of the chunk: names among `locals` that are the target of an assignment, ++ or --
 * anywhere, and the edits that parenthesize each bundled CommonJS module's body. (acorn: the
 * parse is most of `npm start`'s build on a fresh clone, and acorn parses these 4 MB of chunks
 * in half the time the TypeScript compiler took, loading in a fraction of it.) The nodes are
 * noted as acorn finishes them, which costs a fraction of walking the tree afterwards.
 */
function scan(code, locals) {
  const parser = new Scanner({ ecmaVersion: 'latest', sourceType: 'script' }, code);
  parser.parse();
  const found = new Set();
  // An assignment acorn later turned into a default value (`(a = 1) => …`) assigns nothing.
  for (const node of parser.assignments) if (node.type === 'AssignmentExpression') target(node.left);
  for (const node of parser.updates) target(node.argument);
  const edits = [];
  for (const node of parser.calls) {
    if (!/(^|\.)__commonJS\)?$/.test(code.slice(node.callee.start, node.callee.end))) continue;
    const [modules] = node.arguments;
    for (const body of modules?.type === 'ObjectExpression' ? modules.properties : []) {
      if (!body.method) continue;
      edits.push({ at: body.end, text: ')' }, { at: body.key.end, text: ':(function' });
    }
  }
  return { reassigned: [...found], edits };

  function target(node) {
    if (node.type === 'Identifier' && locals.has(node.name)) found.add(node.name);
  }
}

class Scanner extends Parser {
  assignments = [];
  updates = [];
  calls = [];
  finishNode(node, type) {
    if (type === 'AssignmentExpression') this.assignments.push(node);
    else if (type === 'UpdateExpression') this.updates.push(node);
    else if (type === 'CallExpression') this.calls.push(node);
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
