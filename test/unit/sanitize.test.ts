import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sanitizeCell, sanitizeText } from '../../src/sanitize.js';

test('plain text, tabs, newlines and non-ASCII pass unchanged', () => {
  for (const text of ['Truck 7', 'a\tb\nc', '配送トラック 🚚', 'Zürich – Ω', '']) assert.equal(sanitizeText(text), text);
});

test('CSI sequences (colours, cursor moves, screen clears) are removed', () => {
  assert.equal(sanitizeText('\x1b[31mred\x1b[0m'), 'red');
  assert.equal(sanitizeText('a\x1b[2Jb\x1b[1;1Hc\x1b[?25ld'), 'abcd');
  assert.equal(sanitizeText('8-bit\x9b31m CSI'), '8-bit CSI');
  assert.equal(sanitizeText('cut off \x1b['), 'cut off ');
});

test('OSC and other string sequences are removed with their payload', () => {
  assert.equal(sanitizeText('x\x1b]52;c;aGVsbG8=\x07y'), 'xy', 'clipboard write (BEL-terminated)');
  assert.equal(sanitizeText('\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\'), 'link', 'hyperlink (ST-terminated)');
  assert.equal(sanitizeText('t\x1b]0;new title\x9cu'), 'tu');
  assert.equal(sanitizeText('d\x1bPq#0;2;0;0;0\x1b\\e'), 'de', 'DCS / sixel');
  assert.equal(sanitizeText('open \x1b]0;never closed'), 'open ');
});

test('other ESC sequences and lone controls are removed', () => {
  assert.equal(sanitizeText('reset\x1bc!'), 'reset!');
  assert.equal(sanitizeText('charset\x1b(0x'), 'charsetx');
  assert.equal(sanitizeText('bell\x07 back\x08 nul\x00 cr\r del\x7f c1\x85.'), 'bell back nul cr del c1.');
  assert.equal(sanitizeText('lone \x1b'), 'lone ');
});

test('sanitizeCell also flattens tabs and newlines to spaces', () => {
  assert.equal(sanitizeCell('a\tb\r\nc\x1b[1m'), 'a b c');
  assert.equal(sanitizeCell('plain'), 'plain');
});

test('no control character survives any input', () => {
  let text = '';
  for (let code = 0; code < 0xa0; code += 1) text += `${String.fromCharCode(code)}x`;
  assert.doesNotMatch(sanitizeText(text), /[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  assert.doesNotMatch(sanitizeCell(text), /[\x00-\x1f\x7f-\x9f]/);
});

test('bidirectional overrides, embeddings, isolates and marks are removed', () => {
  // "Van 7" + RLO + "gnp.exe": shown raw, the rest of the row would read right to left.
  assert.equal(sanitizeCell('Van 7\u202egnp.exe'), 'Van 7gnp.exe');
  const bidi = [0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
  const text = bidi.map((code) => `${String.fromCharCode(code)}x`).join('');
  assert.equal(sanitizeText(text), 'x'.repeat(bidi.length));
  assert.equal(sanitizeCell(text), 'x'.repeat(bidi.length));
  // Right-to-left text itself is data and stays.
  assert.equal(sanitizeCell('שלום עולם مرحبا'), 'שלום עולם مرحبا');
});
