/**
 * Aliases: what a name may be, and what an expansion turns a command line into. Pure.
 *
 * An expansion is a command line without `trackctl`, split into words as sh would split it
 * (single and double quotes, backslash escapes; no variables, globs or substitutions).
 * `$1`…`$9` in it are the alias's arguments, and the arguments no placeholder used are
 * appended. An expansion that starts with `!` is a shell command: it runs through `sh -c`,
 * with the arguments as sh's own `$1`, `$2`, … and `"$@"`.
 */
import { UsageError } from '../../errors.js';

const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** Checks an alias name; `commands` are the names it may not shadow. */
export function validateAliasName(name: string, commands: readonly string[]): string {
  if (!NAME.test(name)) throw new UsageError(`invalid alias name "${name}": use 1-64 letters, digits, "_" or "-", starting with a letter`);
  if (commands.includes(name)) throw new UsageError(`"${name}" is a trackctl command: an alias may not shadow it`, { hint: 'Choose another name.' });
  return name;
}

/** Checks an expansion: it must say something, and a non-shell one must split into words. */
export function validateExpansion(expansion: string): string {
  if (expansion.trim() === '' || expansion.trim() === '!') throw new UsageError('the expansion is empty');
  if (!expansion.startsWith('!')) splitWords(expansion);
  return expansion;
}

/** sh-like word splitting: quotes and backslashes; an unclosed quote is an error. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new UsageError(`unclosed ' in "${line}"`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (ch === '"') {
      let text = '';
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        // In double quotes a backslash escapes only what sh lets it escape.
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1]!)) j++;
        text += line[j];
      }
      if (j >= line.length) throw new UsageError(`unclosed " in "${line}"`);
      word = (word ?? '') + text;
      i = j;
    } else if (ch === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

export type Expanded = { kind: 'argv'; argv: string[] } | { kind: 'shell'; script: string; args: string[] };

/** The command line an alias runs, given the arguments typed after its name. */
export function expandAlias(name: string, expansion: string, args: readonly string[]): Expanded {
  if (expansion.startsWith('!')) return { kind: 'shell', script: expansion.slice(1), args: [...args] };
  const used = new Set<number>();
  const argv = splitWords(expansion).map((word) =>
    word.replace(/\$([1-9])/g, (_all, digit: string) => {
      const n = Number(digit);
      if (n > args.length) throw new UsageError(`alias ${name} needs at least ${n} argument${n > 1 ? 's' : ''} ($${n} in "${expansion}")`);
      used.add(n);
      return args[n - 1]!;
    }),
  );
  return { kind: 'argv', argv: [...argv, ...args.filter((_a, i) => !used.has(i + 1))] };
}
