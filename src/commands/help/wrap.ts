/**
 * Help prose fitted to the width the option list is wrapped to (the terminal's, or 80 when
 * stdout is no terminal). Commander wraps its own parts (usage, description, options); the
 * text commands add after them is written by hand in long lines, so it is reflowed here.
 *
 * A paragraph is a run of lines that start with a non-blank character; when one of its lines
 * is too wide, its lines are joined and wrapped again at word boundaries. Indented lines
 * (examples, tables, commander's own output) and paragraphs that fit are left as written.
 */
import { displayWidth } from '../../io/formats/render/width.js';

/** Below this the terminal is too narrow to be worth reflowing for (commander's own threshold is 40). */
const MIN_WIDTH = 40;

export function helpWidth(stdoutIsTTY: boolean, columns: number): number {
  return stdoutIsTTY && columns > 0 ? columns : 80;
}

function wrapParagraph(lines: readonly string[], width: number): string[] {
  const words = lines.join(' ').split(/ +/).filter((w) => w !== '');
  const out: string[] = [];
  let line = '';
  for (const word of words) {
    if (line !== '' && displayWidth(line) + 1 + displayWidth(word) > width) {
      out.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') out.push(line);
  return out;
}

export function wrapHelpText(text: string, width: number): string {
  if (width < MIN_WIDTH) return text;
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    if (lines[i] === '' || /^\s/.test(lines[i]!)) {
      out.push(lines[i++]!);
      continue;
    }
    const start = i;
    while (i < lines.length && lines[i] !== '' && !/^\s/.test(lines[i]!)) i++;
    const paragraph = lines.slice(start, i);
    out.push(...(paragraph.some((l) => displayWidth(l) > width) ? wrapParagraph(paragraph, width) : paragraph));
  }
  return out.join('\n');
}
