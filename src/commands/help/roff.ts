/** Small helpers for man(7) source: escaping and the few macros the pages use. */

/** Text for a roff text line: backslashes escaped, no control character at the start. */
export function esc(text: string): string {
  const t = text.replace(/\\/g, '\\e').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
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

/** Paragraph text: one roff line per input line, blank lines become .PP, leading blanks are dropped. */
export function paragraphs(text: string): string[] {
  const out: string[] = [];
  let blank = true;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') {
      blank = true;
      continue;
    }
    if (blank) out.push('.PP');
    blank = false;
    out.push(esc(line));
  }
  return out;
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
