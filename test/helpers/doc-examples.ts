/**
 * Every `trackctl …` example a reader is shown: the shell blocks and inline code of the README
 * and docs/, and the examples of every command's help (the EXAMPLES of its generated man page,
 * which a test keeps in step with --help). Each example is cut into the trackctl commands it
 * runs (a pipeline's other programs, redirections and `&& ./page.sh` are the reader's own), so
 * the doc test can run each against the sandbox.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DocExample {
  /** Where a reader finds it: README.md:120, man/trackctl-watch.1. */
  where: string;
  /** The trackctl commands in it, each as shell text: `[VAR=value …] trackctl args…`. */
  commands: string[];
}

/** Shell lines of the fenced blocks (sh, bash, shell or none) of a Markdown text, with their line numbers. */
function fencedLines(text: string): Array<{ at: number; line: string }> {
  const out: Array<{ at: number; line: string }> = [];
  const lines = text.split('\n');
  let inBlock = false;
  let shell = false;
  let pending: { at: number; line: string } | undefined;
  lines.forEach((raw, i) => {
    const fence = /^\s*```\s*([\w-]*)/.exec(raw);
    if (fence) {
      inBlock = !inBlock;
      shell = inBlock && ['', 'sh', 'bash', 'shell', 'console'].includes(fence[1] ?? '');
      pending = undefined;
      return;
    }
    if (!inBlock || !shell) return;
    const line = raw.replace(/^\s*\$ /, '');
    if (pending) pending.line += ` ${line.trim()}`;
    else pending = { at: i + 1, line };
    if (/\\$/.test(pending.line)) {
      pending.line = pending.line.replace(/\\$/, '');
      return;
    }
    out.push(pending);
    pending = undefined;
  });
  return out;
}

/** Inline code spans that are a whole trackctl command with nothing left for the reader to fill in. */
function inlineCommands(text: string): Array<{ at: number; line: string }> {
  const out: Array<{ at: number; line: string }> = [];
  let inBlock = false;
  text.split('\n').forEach((raw, i) => {
    if (/^\s*```/.test(raw)) inBlock = !inBlock;
    if (inBlock) return;
    for (const m of raw.matchAll(/`((?:[A-Z_]+=\S+ )*trackctl [^`]+)`/g)) {
      const code = m[1] ?? '';
      if (isTemplate(code)) continue;
      out.push({ at: i + 1, line: code });
    }
  });
  return out;
}

/**
 * A synopsis, not an example: placeholders (`<id>`, `FILE`, `DID`), alternatives (`a|b`),
 * optional parts (`[--x]`) or an ellipsis.
 */
function isTemplate(code: string): boolean {
  const unquoted = code.replace(/'[^']*'|"[^"]*"/g, "''");
  if (/<[\w-]+>|(?:^|\s)\[|…|\.\.\.|\\\||\{[a-z]/.test(unquoted)) return true;
  const words = unquoted.split(/\s+/);
  return words.some((w) => /[^|\s]\|[^|\s]/.test(w) || /^[A-Z][A-Z_]+(=.*)?$/.test(w.replace(/^-+[\w-]+=/, '')) && !/=/.test(w));
}

/** EXAMPLES of a generated man page: `$ trackctl …` lines between .EX and .EE. */
function manExamples(text: string): string[] {
  const at = text.indexOf('.SH EXAMPLES');
  if (at < 0) return [];
  const block = /\.EX\n([\s\S]*?)\n\.EE/.exec(text.slice(at));
  return (block?.[1] ?? '')
    .split('\n')
    .map((l) => l.replace(/^\$ /, '').replace(/\\-/g, '-').replace(/\\e/g, '\\').replace(/\\\(aq/g, "'"))
    .filter((l) => /\btrackctl\b/.test(l));
}

/**
 * The trackctl commands of a shell line: it is cut at unquoted `|`, `||`, `&&`, `;`, `&`, `(`, `)`
 * and `$(`, unquoted redirections are dropped, and the pieces that run trackctl (after optional
 * `VAR=value` assignments) are kept. Quotes are kept as written, for the shell that runs them.
 */
export function trackctlCommands(line: string): string[] {
  const pieces: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  let redirect = false; // skipping a redirection's target word
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote) {
      if (!redirect) current += c;
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && !redirect) current += line[++i] ?? '';
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      if (!redirect) current += c;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] ?? ''))) {
      break; // a comment to the end of the line
    } else if ('|&;()'.includes(c) || (c === '$' && line[i + 1] === '(')) {
      if (c === '&' && (line[i - 1] === '>' || line[i + 1] === '>')) continue; // 2>&1, &>
      // `cat FILE | trackctl …`: the file is trackctl's input.
      const cat = /^\s*cat\s+(\S+)\s*$/.exec(current);
      pieces.push(current);
      current = c === '|' && line[i + 1] !== '|' && cat ? ` < ${cat[1]} ` : '';
      redirect = false;
      if (c === '$') i++;
    } else if (c === '<') {
      current += c; // input is the command's: `apply -f - < fleet.json` runs as written
    } else if (c === '>') {
      if (/\d$/.test(current) && /\s\d$|^\d$/.test(current)) current = current.slice(0, -1);
      redirect = true;
      while (line[i + 1] === '>' || line[i + 1] === '&') i++;
      while (/\s/.test(line[i + 1] ?? '')) i++;
    } else if (/\s/.test(c)) {
      redirect = false;
      current += c;
    } else if (c === '\\') {
      if (!redirect) current += c + (line[i + 1] ?? '');
      i++;
    } else if (!redirect) {
      current += c;
    }
  }
  pieces.push(current);
  return pieces
    .map((p) => p.trim().replace(/^(<\s*\S+)\s+(.*)$/, '$2 $1'))
    .filter((p) => /^(?:[A-Za-z_][A-Za-z0-9_]*=\S* +)*trackctl(?:\s|$)/.test(p));
}

/** Every example of the README, docs/*.md and the man pages under `root`. */
export function docExamples(root: string): DocExample[] {
  const examples: DocExample[] = [];
  const add = (where: string, line: string): void => {
    const commands = trackctlCommands(line);
    if (commands.length > 0) examples.push({ where, commands });
  };
  const markdown = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  for (const file of markdown) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const { at, line } of fencedLines(text)) if (!isTemplate(line.replace(/\s#\s.*$/, ''))) add(`${file}:${at}`, line);
    for (const { at, line } of inlineCommands(text)) add(`${file}:${at}`, line);
  }
  for (const page of readdirSync(join(root, 'man')).filter((f) => f.endsWith('.1')).sort()) {
    for (const line of manExamples(readFileSync(join(root, 'man', page), 'utf8'))) add(`man/${page}`, line);
  }
  return examples;
}
