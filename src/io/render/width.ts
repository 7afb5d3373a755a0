/**
 * Display width of text in terminal cells. Tables are laid out by width, not
 * by string length: CJK and emoji take two cells, combining marks none.
 * (cli-table3's bundled string-width 4 predates modern emoji, so we measure here.)
 */

// Created on first use: building a segmenter loads ICU data (~15 ms), which JSON output never needs.
let segmenter: Intl.Segmenter | undefined;
function graphemes(text: string): Intl.Segments {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter.segment(text);
}
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// Unicode property classes are built from ICU data wherever V8 parses the pattern, and a
// pattern written as a literal is parsed with the module, even for JSON output: ~1 ms.
// Built from strings, on first use (only text beyond printable ASCII gets here).
let properties: { zeroWidth: RegExp; emoji: RegExp } | undefined;
function propertyPatterns(): { zeroWidth: RegExp; emoji: RegExp } {
  properties ??= {
    zeroWidth: new RegExp('^[\\p{Mn}\\p{Me}\\p{Cf}\\p{Cc}]+$', 'u'),
    emoji: new RegExp('\\p{Emoji_Presentation}|\\p{Extended_Pictographic}\\uFE0F', 'u'),
  };
  return properties;
}

// East Asian Wide and Fullwidth blocks (the ranges that matter in names and addresses).
const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f], [0x231a, 0x231b], [0x2329, 0x232a], [0x2e80, 0x303e], [0x3041, 0x33ff],
  [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf], [0xa960, 0xa97f], [0xac00, 0xd7a3],
  [0xf900, 0xfaff], [0xfe10, 0xfe19], [0xfe30, 0xfe6f], [0xff00, 0xff60], [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f], [0x1f900, 0x1f9ff], [0x20000, 0x2fffd], [0x30000, 0x3fffd],
];

function isWideCodePoint(codePoint: number): boolean {
  return WIDE_RANGES.some(([low, high]) => codePoint >= low && codePoint <= high);
}

function graphemeWidth(grapheme: string): number {
  const { zeroWidth, emoji } = propertyPatterns();
  if (zeroWidth.test(grapheme)) return 0;
  if (emoji.test(grapheme)) return 2;
  return isWideCodePoint(grapheme.codePointAt(0) ?? 0) ? 2 : 1;
}

/** Cells the text occupies; the text must already be free of escape sequences. */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const { segment } of graphemes(text)) width += graphemeWidth(segment);
  return width;
}

/** Cut to at most `width` cells, ending in '…' when anything was cut. */
export function truncateToWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  if (width === 1) return '…';
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes(text)) {
    const cells = graphemeWidth(segment);
    if (used + cells > width - 1) break;
    kept += segment;
    used += cells;
  }
  return `${kept}…`;
}

/** Spaces that bring text of `used` cells up to `width` cells. */
export function padding(used: number, width: number): string {
  return ' '.repeat(Math.max(0, width - used));
}
