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
const NUMBER = '-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?';
const SCALAR = `${STRING}|${NUMBER}|true|false|null`;

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

/** Member names a shape spells out as they are: no escape, no character the expression or JSON.parse's key order treats apart. */
export const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Objects nested deeper than this in a feature leave it without a shape. */
const SHAPE_DEPTH = 4;
/** A shape that missed this many features since it was learnt is learnt again, from the next one that has none. */
const RELEARN_AFTER = 64;
/** Shapes replaced before they took RELEARN_AFTER features: after this many, the reply has none worth learning. */
const MAX_FUTILE = 4;
const NUMBER_FIRST = `(?:${NUMBER}|${STRING}|true|false|null)`;
const ANY_SCALAR = `(?:${SCALAR})`;

/**
 * The expression for features shaped like `value` (a parsed feature): compact, the same member
 * names in the same order, a scalar (of any kind, the kind seen tried first) where it has one,
 * an object of the same shape where it has an object, an array of scalars where it has one;
 * exactly one `properties`, an object. Every feature it matches is one the general expression
 * matches. Undefined for a feature it cannot describe that way.
 */
function shapeSource(value: unknown, depth: number): string | undefined {
  if (value === null || typeof value !== 'object') return typeof value === 'number' ? NUMBER_FIRST : ANY_SCALAR;
  if (Array.isArray(value)) return value.every((v) => v === null || typeof v !== 'object') ? `\\[(?:${ANY_SCALAR}(?:,${ANY_SCALAR})*)?\\]` : undefined;
  if (depth === SHAPE_DEPTH) return undefined;
  const members: string[] = [];
  for (const [name, v] of Object.entries(value)) {
    const source = PLAIN_NAME.test(name) ? shapeSource(v, depth + 1) : undefined;
    if (source === undefined) return undefined;
    members.push(`"${name}":${source}`);
  }
  return `\\{${members.join(',')}\\}`;
}

/** Compiled shapes, by source: the units of a fleet mostly share a few. */
const shapes = new Map<string, RegExp>();
const MAX_SHAPES = 32;
/** Expressions compiled so far (a test's measure of the learning's cost). */
export let shapesCompiled = 0;

/** The shape of the checked feature at `at`…`end` in `text`, as a sticky expression; undefined when it has none. */
export function featureShape(text: string, at: number, end: number): RegExp | undefined {
  let feature: unknown;
  try {
    feature = JSON.parse(text.slice(at, end));
  } catch {
    return undefined;
  }
  const props = (feature as { properties?: unknown }).properties;
  if (typeof props !== 'object' || props === null || Array.isArray(props)) return undefined;
  const source = shapeSource(feature, 0);
  if (source === undefined) return undefined;
  let re = shapes.get(source);
  if (re === undefined) {
    if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value as string);
    shapes.set(source, (re = new RegExp(source, 'y')));
    shapesCompiled++;
  }
  return re;
}

/**
 * The check of a reply's features: matchFeature's, with a faster first try. The features of a
 * reply mostly share one shape (the same members in the same order); an expression that spells
 * out those names, and tries the kind of value seen first, checks such a feature in about half
 * the time of the general one, which knows nothing of the names. The shape is learnt from a
 * feature the general expression took; one that misses it is checked the general way, and after
 * RELEARN_AFTER misses the shape is learnt again (a reply whose shape changes part-way).
 */
export class FeatureCheck {
  private shape: RegExp | undefined;
  private untilLearn = 0;
  /** Features the shape took since it was learnt. */
  private hits = 0;
  /** Shapes replaced before they paid for their learning: a reply whose features keep changing shape stops learning. */
  private futile = 0;
  /** The length of the last feature the shape took. */
  private size = 0;

  /** The end of the checked feature that begins at `at` in `text`, or -1 (as matchFeature). */
  end(text: string, at: number): number {
    const shape = this.shape;
    if (shape !== undefined) {
      const end = run(shape, text, at);
      if (end >= 0) {
        this.hits++;
        this.size = end - at;
        return end;
      }
      // Fewer bytes left than the last feature had: most often the chunk's end cut this one off, which the general
      // expressions would find only at the text's end, after trying every way to read it. The byte-by-byte way decides.
      if (text.length - at < this.size) return -1;
    }
    const end = matchFeature(text, at);
    if (end >= 0 && --this.untilLearn <= 0) {
      if (this.shape !== undefined && this.hits < RELEARN_AFTER && ++this.futile > MAX_FUTILE) {
        this.shape = undefined;
        this.untilLearn = Infinity;
      } else {
        this.shape = featureShape(text, at, end);
        this.untilLearn = RELEARN_AFTER;
      }
      this.hits = 0;
    }
    return end;
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
