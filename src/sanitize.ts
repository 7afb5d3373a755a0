/**
 * Text from the service may carry terminal control sequences (a device named
 * "\x1b]52;c;…\x07" could write the clipboard, "\x1b[2J" clears the screen).
 * Everything that renders service text for a terminal, a table or a CSV cell
 * passes it through here first. Bidirectional overrides, embeddings and isolates
 * go too: a name carrying U+202E would print the rest of its row reversed (and can
 * make one id read as another), and no unit name needs them to display.
 */

// String sequences (OSC ESC ], DCS ESC P, SOS ESC X, PM ESC ^, APC ESC _ and their
// 8-bit C1 forms) run to ST (ESC \ or 0x9c) or, for OSC, BEL. An unterminated one
// runs to the end of the text, as a terminal would swallow it too.
const STRING_SEQUENCE = /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|$)/g;
// CSI: ESC [ or 0x9b, parameter bytes, intermediate bytes, one final byte (possibly cut off).
const CSI_SEQUENCE = /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?/g;
// Any other escape: ESC, intermediates, one final byte (ESC c resets the terminal).
const OTHER_ESCAPE = /\x1b[\x20-\x2f]*[\x30-\x7e]?/g;
// C0 except tab and newline, DEL, C1, and the bidirectional formatting characters:
// ALM U+061C, LRM/RLM U+200E-200F, LRE/RLE/PDF/LRO/RLO U+202A-202E, LRI/RLI/FSI/PDI U+2066-2069.
const CONTROL_CHARACTER = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NEEDS_WORK = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const NEEDS_WORK_SINGLE_LINE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export interface SanitizeOptions {
  /** Table cells: tabs and newlines become spaces so a cell stays on one line. */
  singleLine?: boolean;
}

/** Remove ANSI CSI/OSC/other escape sequences, C0/C1 control characters except tab and newline, and bidi controls. */
export function sanitizeText(text: string, options: SanitizeOptions = {}): string {
  const singleLine = options.singleLine === true;
  if (!(singleLine ? NEEDS_WORK_SINGLE_LINE : NEEDS_WORK).test(text)) return text;
  const cleaned = text
    .replace(STRING_SEQUENCE, '')
    .replace(CSI_SEQUENCE, '')
    .replace(OTHER_ESCAPE, '')
    .replace(CONTROL_CHARACTER, '');
  return singleLine ? cleaned.replace(/[\t\n]/g, ' ') : cleaned;
}

/** A table cell: sanitised and on one line. */
export function sanitizeCell(text: string): string {
  return sanitizeText(text, { singleLine: true });
}

/** Every string of a JSON value, keys too, sanitised: the data --jq and --template see. */
export function sanitizeValue(value: unknown): unknown {
  if (typeof value === 'string') return sanitizeText(value);
  if (Array.isArray(value)) return value.map(sanitizeValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [sanitizeText(k), sanitizeValue(v)]));
  }
  return value;
}
