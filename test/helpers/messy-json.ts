/**
 * Seeded generation of messy JSON text (odd numbers and strings, nesting, white space anywhere),
 * for checking the byte readers (src/api/json-bytes.ts and those built on it) against JSON.parse.
 */
import { mulberry32 } from '../../src/sandbox/prng.js';

/** A seeded source of choices, so a failure names a case that can be replayed. */
export interface Random {
  int(n: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
}

export function seeded(seed: number): Random {
  const next = mulberry32(seed);
  return { int: (n) => Math.floor(next() * n), pick: (xs) => xs[Math.floor(next() * xs.length)] as never, chance: (p) => next() < p };
}

export interface MessyJsonOptions {
  numbers: readonly string[];
  strings: readonly string[];
  /** Member names of nested objects. */
  names: readonly string[];
  /** How often no white space stands where it may. */
  bare: number;
  /** From this depth on, no more arrays or objects. */
  flatFrom: number;
  /** Nested objects have fewer members than this. */
  members: number;
}

export function messyJson(o: MessyJsonOptions) {
  const ws = (r: Random): string => (r.chance(o.bare) ? '' : r.pick([' ', '\n', '\t', '\r\n  ']));
  const object = (r: Random, names: readonly string[], val: (name: string) => string): string =>
    `{${ws(r)}${names.map((n) => `${JSON.stringify(n)}${ws(r)}:${ws(r)}${val(n)}`).join(`${ws(r)},${ws(r)}`)}${ws(r)}}`;
  const value = (r: Random, depth: number): string => {
    const k = r.int(depth > o.flatFrom ? 3 : 5);
    if (k === 0) return r.pick(o.numbers);
    if (k === 1) return r.pick(o.strings);
    if (k === 2) return r.pick(['null', 'true', 'false']);
    if (k === 3) return `[${ws(r)}${Array.from({ length: r.int(4) }, () => value(r, depth + 1)).join(`${ws(r)},${ws(r)}`)}${ws(r)}]`;
    return object(r, Array.from({ length: r.int(o.members) }, () => r.pick(o.names)), () => value(r, depth + 1));
  };
  return { ws, object, value };
}

/** Bytes a broken report may gain (broken()). */
export const NOISE = ['{', '}', '[', ']', '"', ',', ':', '\\', ' ', '0', '-', '.', 'e', 'n', 'x', '\u0000', '\u001f', '\u00ff'];

/** A report broken in one place: a byte dropped, added or changed (one of `noise`), or the end cut off. */
export function broken(r: Random, text: string, noise: readonly string[] = NOISE): string {
  const at = r.int(text.length);
  switch (r.int(4)) {
    case 0:
      return text.slice(0, at) + text.slice(at + 1);
    case 1:
      return text.slice(0, at) + r.pick(noise) + text.slice(at);
    case 2:
      return text.slice(0, at) + r.pick(noise) + text.slice(at + 1);
    default:
      return text.slice(0, at);
  }
}
