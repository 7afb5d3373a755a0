/**
 * XML text for GPX and KML. Service strings are escaped, and characters XML 1.0
 * forbids (C0 controls but tab/newline/CR, lone surrogates, U+FFFE/U+FFFF) or that
 * could drive a terminal (ESC sequences, DEL, C1) are dropped, so the document is
 * well-formed and safe to cat.
 */
import { sanitizeText } from '../../../sanitize.js';

const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SPECIAL = /[&<>"']/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text content or attribute value. */
export function xmlText(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = sanitizeText(String(value)).replace(INVALID_XML, '');
  return text.replace(SPECIAL, (ch) => ENTITY[ch] ?? ch);
}

/** `<tag>text</tag>`, or nothing when the value is missing or empty. */
export function xmlElement(tag: string, value: unknown): string {
  const text = xmlText(value);
  return text === '' ? '' : `<${tag}>${text}</${tag}>`;
}
