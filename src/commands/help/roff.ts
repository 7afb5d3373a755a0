/** Small helpers for man(7) source: escaping and the few macros the pages use. */

/** Text for a roff text line: backslashes escaped, no control character at the start. */
export function esc(text: string): string {
  const t = text
    .replace(/\\/g, '\\e')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    // Pages stay ASCII: other characters become roff escapes (→ is \[u2192]).
    .replace(/[^\u0000-\u007f]/gu, (c) => `\\[u${(c.codePointAt(0) ?? 63).toString(16).toUpperCase().padStart(4, '0')}]`);
  return /^[.']/.test(t) ? `\\&${t}` : t;
}

/** A flag or command name: hyphens are minus signs in roff, so they copy and search as typed. */
export function flag(text: string): string {
  return esc(text).replace(/-/g, '\\-');
}

export function bold(text: string): string {
  return `\\fB${flag(text)}\\fR`;
}

export function italic(text: string): string {
  return `\\fI${esc(text)}\\fR`;
}

/** Option flags as "-o, --output <format>" → bold flags, italic value names. */
export function optionTag(flags: string): string {
  return flags
    .split(/(<[^>]+>|\[[^\]]+\])/)
    .map((part) => {
      const m = /^[<[](.+?)(\.\.\.)?[>\]]$/.exec(part);
      if (m) return part.startsWith('[') ? `[${italic(m[1] ?? '')}${m[2] ?? ''}]` : italic(m[1] ?? '');
      return part
        .split(/(,\s*)/)
        .map((p) => (/^-/.test(p.trim()) ? bold(p.trim()) + (p.endsWith(' ') ? ' ' : '') : esc(p)))
        .join('');
    })
    .join('');
}

/** Paragraph text: blank lines separate paragraphs (.PP); the lines of one are joined, roff fills them. */
export function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.split('\n').map((l) => l.trim()).filter((l) => l !== '').join(' '))
    .filter((p) => p !== '')
    .flatMap((p) => ['.PP', esc(p)]);
}

/** A literal block (examples): no filling, one line each. */
export function literal(lines: readonly string[]): string[] {
  if (lines.length === 0) return [];
  return ['.PP', '.EX', ...lines.map((l) => esc(l.replace(/\s+$/, ''))), '.EE'];
}

/** A tagged paragraph: `.TP`, the tag line, then the body. */
export function tagged(tag: string, body: string): string[] {
  return ['.TP', tag, esc(body)];
}

export function heading(title: string): string {
  return `.SH ${title.toUpperCase()}`;
}

export function subheading(title: string): string {
  return `.SS "${title.replace(/"/g, '')}"`;
}

/** Wraps a text line at spaces to at most `width` bytes where it can; each piece stays a valid text line. */
function wrap(line: string, width: number): string[] {
  const out: string[] = [];
  let rest = line;
  while (Buffer.byteLength(rest) > width) {
    let cut = -1;
    for (let i = rest.indexOf(' '); i > 0 && Buffer.byteLength(rest.slice(0, i)) <= width; i = rest.indexOf(' ', i + 1)) cut = i;
    if (cut <= 0) break;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut + 1).replace(/^ +/, '');
    if (/^[.']/.test(rest)) rest = `\\&${rest}`;
  }
  out.push(rest);
  return out;
}

/**
 * The page's final text: no paragraph macro right after a heading or another
 * paragraph macro, text lines wrapped to 80 bytes outside literal blocks and
 * tags, no trailing blanks. This is what keeps `mandoc -Tlint` silent.
 */
export function finish(lines: readonly string[]): string {
  const out: string[] = [];
  let literalBlock = false;
  let tagNext = false;
  for (const line of lines.flatMap((l) => l.split('\n'))) {
    const prev = out[out.length - 1] ?? '';
    if (line === '.PP' && /^\.(SH|SS|PP|TP)\b/.test(prev)) continue;
    if (line === '.EX') literalBlock = true;
    if (line === '.EE') literalBlock = false;
    const isText = !line.startsWith('.');
    if (isText && !literalBlock && !tagNext) out.push(...wrap(line.replace(/\s+$/, ''), 80));
    else out.push(line.replace(/\s+$/, ''));
    tagNext = line === '.TP';
  }
  return `${out.join('\n')}\n`;
}
