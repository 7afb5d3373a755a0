/**
 * Display width of text in terminal cells. Tables are laid out by width, not by string
 * length: CJK and emoji take two cells, combining marks none. Measured by string-width
 * (grapheme clusters, East Asian Width, RGI emoji, zero-width marks, Hangul jamo).
 *
 * Printable ASCII, by far the common case, is one cell a character and is measured here.
 * string-width is loaded on the first other text only: loading it builds an Intl.Segmenter
 * (ICU data, ~15 ms on Node 20) and v-flag Unicode property patterns, which JSON output
 * and ASCII tables never need. It is required, not imported, so the load stays synchronous
 * yet happens only then: esbuild bundles the package as a module initialised on first use.
 */

type StringWidth = (text: string) => number;
let stringWidth: StringWidth | undefined;
function measure(text: string): number {
  stringWidth ??= (require('string-width') as typeof import('string-width')).default;
  return stringWidth(text);
}

// Created on first use, like string-width itself.
let segmenter: Intl.Segmenter | undefined;
function graphemes(text: string): Intl.Segments {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter.segment(text);
}
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Cells the text occupies; the text must already be free of escape sequences. */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  return measure(text);
}

/** Cut to at most `width` cells, ending in '…' when anything was cut. */
export function truncateToWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  if (width === 1) return '…';
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes(text)) {
    const cells = PRINTABLE_ASCII.test(segment) ? segment.length : measure(segment);
    if (used + cells > width - 1) break;
    kept += segment;
    used += cells;
  }
  return `${kept}…`;
}

/** The text in lines of at most `width` cells: broken after spaces where it can be, within a word where one is wider. */
export function wrapToWidth(text: string, width: number): string[] {
  const w = Math.max(1, width);
  if (displayWidth(text) <= w) return [text];
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const word of text.split(/(?<= )/)) {
    const cells = displayWidth(word);
    // a word fits when its letters do: the space after it may stand at the line's end
    if (used + displayWidth(word.trimEnd()) <= w) {
      line += word;
      used += cells;
      continue;
    }
    if (line !== '') lines.push(line.trimEnd());
    line = '';
    used = 0;
    if (cells <= w) {
      line = word;
      used = cells;
      continue;
    }
    for (const { segment } of graphemes(word)) {
      const c = displayWidth(segment);
      if (used + c > w && line !== '') {
        lines.push(line);
        line = '';
        used = 0;
      }
      line += segment;
      used += c;
    }
  }
  if (line.trimEnd() !== '') lines.push(line.trimEnd());
  return lines;
}

/** Spaces that bring text of `used` cells up to `width` cells. */
export function padding(used: number, width: number): string {
  return ' '.repeat(Math.max(0, width - used));
}
