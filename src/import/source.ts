/**
 * Reading an import file: from a path or stdin ('-'), in CSV, NDJSON or a JSON
 * array, into raw rows that remember the line they started on. Nothing here knows
 * what a device or a user is; schema.ts checks the values.
 */
import type { Readable } from 'node:stream';
import { limitText, readFileUpTo, readStreamUpTo } from '../bounded-read.js';
import { UsageError } from '../errors.js';
import { CsvSyntaxError, readCsv } from './csv.js';

export const IMPORT_FORMATS = ['csv', 'ndjson', 'json'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface RawRow {
  /** 1-based line of the file where the row starts. */
  line: number;
  /** A JSON array's element, 1-based: what tells rows apart that start on one line. */
  item?: number;
  /** Column or property name → value as read (CSV cells are strings). */
  values: Record<string, unknown>;
}

export interface Issue {
  line: number;
  /** As RawRow's. */
  item?: number;
  message: string;
}

/** Where a row is, for messages: "line 4", or "item 2 (line 1)" in a JSON array. */
export function rowLabel(at: { line: number; item?: number }): string {
  return at.item === undefined ? `line ${at.line}` : `item ${at.item} (line ${at.line})`;
}

export interface ParsedSource {
  format: ImportFormat;
  rows: RawRow[];
  /** CSV header names (line 1); for JSON the union of property names is checked per row instead. */
  header?: string[];
  issues: Issue[];
}

export function parseFormatOption(value: string | undefined): ImportFormat | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  const found = IMPORT_FORMATS.find((f) => f === v) ?? (v === 'jsonl' ? 'ndjson' : undefined);
  if (!found) throw new UsageError(`invalid --format "${value}": use csv, ndjson or json`);
  return found;
}

export function formatFromName(file: string): ImportFormat | undefined {
  const ext = /\.([A-Za-z]+)$/.exec(file)?.[1]?.toLowerCase();
  if (ext === 'csv') return 'csv';
  if (ext === 'ndjson' || ext === 'jsonl') return 'ndjson';
  if (ext === 'json') return 'json';
  return undefined;
}

/** `[` → json, `{` → ndjson, anything else → csv. */
export function sniffFormat(text: string): ImportFormat {
  const first = /\S/.exec(text.replace(/^\uFEFF/, ''))?.[0];
  if (first === '[') return 'json';
  if (first === '{') return 'ndjson';
  return 'csv';
}

/**
 * An import is read whole before it is checked (every problem is reported before anything is
 * sent). 256 MB is millions of rows, and half of what one string can hold: past it, /dev/zero or
 * an endless pipe is refused once the limit is read, not after all memory is gone.
 */
const MAX_IMPORT_BYTES = 256 * 1048576;

export async function readSource(file: string, stdin: Readable, stdinIsTTY: boolean): Promise<string> {
  if (file === '-' && stdinIsTTY) throw new UsageError('reading the import from a terminal: pipe a file into it, or give a file name');
  let text: string | undefined;
  try {
    text = file === '-' ? await readStreamUpTo(stdin, MAX_IMPORT_BYTES) : await readFileUpTo(file, MAX_IMPORT_BYTES);
  } catch (err) {
    const code = (err as { code?: string }).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : String((err as Error).message);
    throw new UsageError(`cannot read ${file}: ${why}`);
  }
  if (text === undefined) throw new UsageError(`the import ${file === '-' ? 'on stdin' : file} is ${limitText(MAX_IMPORT_BYTES)}`, { hint: 'Split it into several imports.' });
  return text;
}

export function parseSource(text: string, format: ImportFormat): ParsedSource {
  if (format === 'csv') return parseCsvSource(text);
  if (format === 'ndjson') return parseNdjson(text);
  return parseJsonArray(text);
}

function parseCsvSource(text: string): ParsedSource {
  let records;
  try {
    records = readCsv(text);
  } catch (err) {
    if (err instanceof CsvSyntaxError) return { format: 'csv', rows: [], issues: [{ line: err.line, message: `malformed CSV: ${err.message}` }] };
    throw err;
  }
  const [head, ...body] = records;
  if (!head) return { format: 'csv', rows: [], issues: [] };
  const header = head.cells.map((c) => c.trim());
  const issues: Issue[] = [];
  const rows: RawRow[] = [];
  for (const rec of body) {
    if (rec.cells.length !== header.length) {
      issues.push({ line: rec.line, message: `expected ${header.length} cells (as in the header), found ${rec.cells.length}` });
      continue;
    }
    const values: Record<string, unknown> = {};
    header.forEach((name, i) => (values[name] = rec.cells[i]));
    rows.push({ line: rec.line, values });
  }
  return { format: 'csv', rows, header, issues };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** V8's reason without the excerpt of the input it quotes ('Unexpected token '}', ..."x" is not valid JSON'). */
function jsonMessage(err: unknown): string {
  return (err as Error).message
    .replace(/^JSON\.parse: /, '')
    .replace(/, (\.\.\.)?"[\s\S]*$/, '')
    .replace(/ in JSON at position \d+[\s\S]*$/, '');
}

function parseNdjson(text: string): ParsedSource {
  const rows: RawRow[] = [];
  const issues: Issue[] = [];
  text.replace(/^\uFEFF/, '').split('\n').forEach((raw, i) => {
    const lineText = raw.trim();
    if (lineText === '') return;
    let value: unknown;
    try {
      value = JSON.parse(lineText);
    } catch (err) {
      issues.push({ line: i + 1, message: `malformed JSON: ${jsonMessage(err)}` });
      return;
    }
    if (!isPlainObject(value)) issues.push({ line: i + 1, message: 'expected a JSON object on each line' });
    else rows.push({ line: i + 1, values: value });
  });
  return { format: 'ndjson', rows, issues };
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

interface Span {
  start: number;
  /** Offset of the ',' or ']' after the element. */
  end: number;
  line: number;
}

/** Each top-level element of a JSON array: where it starts and ends, and its line. Tolerates malformed text. */
function elementSpans(text: string): Span[] {
  const spans: Span[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let open: Span | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '\n') line++;
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') continue;
    if (depth === 1 && (c === ',' || c === ']')) {
      if (open) spans.push({ ...open, end: i });
      open = undefined;
    } else if (depth === 1 && !open) open = { start: i, end: text.length, line };
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
  }
  if (open) spans.push(open);
  return spans;
}

function elementLines(text: string): number[] {
  return elementSpans(text).map((s) => s.line);
}

/** Where parsing fails when V8 gives no position: the first top-level element that does not parse alone. */
function failingElementLine(text: string): number {
  const spans = elementSpans(text);
  for (const span of spans) {
    try {
      JSON.parse(text.slice(span.start, span.end));
    } catch {
      return lineAt(text, span.start);
    }
  }
  return spans.length > 0 ? lineAt(text, spans[spans.length - 1]?.end ?? 0) : 1;
}

function parseJsonArray(text: string): ParsedSource {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return { format: 'json', rows: [], issues: [] };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    const pos = /position (\d+)/.exec((err as Error).message)?.[1];
    const line = pos === undefined ? failingElementLine(body) : lineAt(body, Number(pos));
    return { format: 'json', rows: [], issues: [{ line, message: `malformed JSON: ${jsonMessage(err)}` }] };
  }
  if (!Array.isArray(value)) return { format: 'json', rows: [], issues: [{ line: 1, message: 'expected a JSON array of objects' }] };
  const lines = elementLines(body);
  const rows: RawRow[] = [];
  const issues: Issue[] = [];
  value.forEach((item: unknown, i) => {
    const line = lines[i] ?? 1;
    if (isPlainObject(item)) rows.push({ line, item: i + 1, values: item });
    else issues.push({ line, item: i + 1, message: 'not a JSON object' });
  });
  return { format: 'json', rows, issues };
}
