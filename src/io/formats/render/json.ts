/**
 * JSON text. JSON.stringify escapes C0 controls (ESC becomes \u001b) but leaves
 * DEL and C1 controls (0x9b is an 8-bit CSI) raw; we escape those too so JSON
 * on a terminal can never drive it. Raw C1 can only occur inside JSON strings,
 * so escaping them keeps the value identical. The bidirectional overrides and
 * isolates (U+202A-202E, U+2066-2069, marks) are escaped for the same reason: raw,
 * they reorder what a terminal shows after them.
 */
const UNESCAPED_CONTROL = /[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escapeControls(text: string): string {
  return text.replace(UNESCAPED_CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Pretty JSON (2-space indent), as json output always is. */
export function prettyJson(value: unknown): string {
  return escapeControls(JSON.stringify(value, null, 2) ?? 'null');
}

/** One compact line, for ndjson. */
export function compactJson(value: unknown): string {
  return escapeControls(JSON.stringify(value) ?? 'null');
}

/** A record as an element of a pretty array: the same text JSON.stringify(array, null, 2) gives it. */
export function prettyJsonArrayItem(value: unknown): string {
  return prettyJson(value).replace(/^/gm, '  ');
}
