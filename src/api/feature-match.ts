/**
 * The fast path of the splitter: a feature checked and cut out by one regular expression, run
 * natively over the chunk (as latin1 text, one character per byte). It matches a complete JSON
 * object, nested at most three deep, with exactly one `properties` member whose value is an
 * object and no escapes in its member names: what parseFeature (report-item.ts) would accept. Bytes from 0x80
 * are string content to it, as they are to JSON.parse after UTF-8 decoding (a multi-byte
 * character or U+FFFD; neither is a quote, backslash or control). Anything else (deeper, an
 * escaped name, malformed, or cut off by the chunk's end) goes the byte-by-byte way and is parsed.
 */
const CHARS = '[^"\\\\\\x00-\\x1f]*';
const STRING = `"${CHARS}(?:\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4})${CHARS})*"`;
const SCALAR = `${STRING}|-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null`;

/** The expression with `ws` between tokens: nothing (compact JSON, as services send it) or any JSON whitespace. */
function featureSource(ws: string): string {
  const list = (item: string): string => `(?:${item}(?:${ws},${ws}${item})*)?`;
  const object = (depth: number): string => `\\{${ws}${list(`${STRING}${ws}:${ws}${value(depth - 1)}`)}${ws}\\}`;
  const value = (depth: number): string => (depth === 0 ? `(?:${SCALAR})` : `(?:${SCALAR}|${object(depth)}|\\[${ws}${list(value(depth - 1))}${ws}\\])`);
  const member = `"(?!properties")${CHARS}"${ws}:${ws}${value(2)}`;
  return `\\{${ws}(?:${member}${ws},${ws})*"properties"${ws}:${ws}${object(2)}(?:${ws},${ws}${member})*${ws}\\}`;
}
let compactRe: RegExp | undefined;
let spacedRe: RegExp | undefined;

/**
 * The end of the checked feature that begins at `at` in `text`, or -1. The compact expression
 * goes first: each place where whitespace may stand costs the general one a test (a report
 * has a few hundred), a third of its time; a feature with whitespace fails it early.
 */
export function matchFeature(text: string, at: number): number {
  const end = run((compactRe ??= new RegExp(featureSource(''), 'y')), text, at);
  return end >= 0 ? end : run((spacedRe ??= new RegExp(featureSource('[ \\t\\n\\r]*'), 'y')), text, at);
}

function run(re: RegExp, text: string, at: number): number {
  re.lastIndex = at;
  try {
    return re.test(text) ? re.lastIndex : -1;
  } catch {
    return -1; // the expression's backtracking stack ran out: the slow way decides
  }
}

/** No \n, \r, DEL or C1 control (U+0080–U+009F: 0xC2 then 0x80–0x9F) in the bytes; a 0xC2 at the end counts as one. */
export function clean(chunk: Buffer): boolean {
  if (chunk.indexOf(0x0a) >= 0 || chunk.indexOf(0x0d) >= 0 || chunk.indexOf(0x7f) >= 0) return false;
  for (let i = chunk.indexOf(0xc2); i >= 0; i = chunk.indexOf(0xc2, i + 1)) {
    const next = chunk[i + 1];
    if (next === undefined || (next >= 0x80 && next <= 0x9f)) return false;
  }
  return true;
}
