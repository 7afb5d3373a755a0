/**
 * A bound on JSON nesting, checked before JSON.parse: V8 parses deep arrays on
 * its heap and a file of nothing but "[" costs ~70 bytes of memory per byte before
 * it is refused. One pass over the text outside strings, stopping at the first level too deep.
 */

/** Undefined when `text` nests no deeper than `max`; otherwise a sentence saying where it went deeper. */
export function checkJsonNesting(text: string, max: number): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return `arrays and objects nested deeper than ${max} levels, at character ${i + 1}`;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return undefined;
}
