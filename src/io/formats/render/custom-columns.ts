/**
 * -o custom-columns=HEADER:.path[,HEADER:.path...] and -o custom-columns-file=FILE, in
 * kubectl's syntax: each path is a JSONPath-like selection from the record as -o json
 * shows it (`.position.lat`, `.groups[0]`, `.groups[*]`, `{.name}`, `name`); a value that
 * is missing prints `<none>`, several values (from `[*]`) print comma-separated. The
 * columns are then drawn by the table renderer: a fitted table on a terminal, tab-separated
 * rows when piped, --no-header honoured.
 */
import { UsageError } from '../../../errors.js';
import type { Column, CustomColumn, Rec } from './types.js';

export const NONE = '<none>';

type Step = CustomColumn['steps'][number];

const NAME = /^[^.[\]{}\s]+/;
const INDEX = /^\[\s*(-?\d+)\s*\]/;
const EVERY = /^\[\s*\*\s*\]/;
const QUOTED = /^\[\s*(?:'([^']*)'|"([^"]*)")\s*\]/;

/** `.position.lat` | `{.groups[0]}` | `name` → steps; a path that cannot be read is a usage error naming it. */
export function parsePath(path: string): CustomColumn['steps'] {
  let rest = path.trim();
  if (rest.startsWith('{') && rest.endsWith('}')) rest = rest.slice(1, -1).trim();
  const bad = (why: string): UsageError =>
    new UsageError(`invalid custom-columns path "${path}": ${why}; write it as .field.nested, .list[0] or .list[*]`);
  if (rest === '' || rest === '.') throw bad('it selects nothing');
  if (!rest.startsWith('.') && !rest.startsWith('[')) rest = `.${rest}`;
  const steps: Step[] = [];
  while (rest !== '') {
    let match: RegExpMatchArray | null;
    if (rest.startsWith('.[')) rest = rest.slice(1); // .['key'] as ['key']
    if (rest.startsWith('.')) {
      match = NAME.exec(rest.slice(1));
      if (!match) throw bad(`a name is missing after "." at "${rest}"`);
      steps.push(match[0]);
      rest = rest.slice(1 + match[0].length);
    } else if ((match = INDEX.exec(rest))) {
      steps.push(Number(match[1]));
      rest = rest.slice(match[0].length);
    } else if ((match = EVERY.exec(rest))) {
      steps.push({ every: true });
      rest = rest.slice(match[0].length);
    } else if ((match = QUOTED.exec(rest))) {
      steps.push(match[1] ?? match[2] ?? '');
      rest = rest.slice(match[0].length);
    } else {
      throw bad(`unexpected "${rest}"`);
    }
  }
  return steps;
}

/** `NAME:.name,LAT:.position.lat` → columns. kubectl's rule: each part is HEADER:PATH, split at its first ':'. */
export function parseCustomColumns(spec: string): CustomColumn[] {
  if (spec.trim() === '') throw new UsageError('-o custom-columns needs columns, e.g. -o custom-columns=ID:.id,NAME:.name');
  return spec.split(',').map((part) => {
    const at = part.indexOf(':');
    const header = part.slice(0, at).trim();
    const path = part.slice(at + 1).trim();
    if (at < 0 || header === '' || path === '') {
      throw new UsageError(`unexpected custom-columns spec "${part}": expected <header>:<json-path-expr>, e.g. NAME:.name`);
    }
    return { header, path, steps: parsePath(path) };
  });
}

/**
 * kubectl's custom-columns file: a line of headers and, under it, a line of paths,
 * separated by blanks (`NAME   LAT\n.name  .position.lat`).
 */
export function parseCustomColumnsFile(text: string, file: string): CustomColumn[] {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
  const [headers, paths] = lines.map((line) => line.split(/\s+/));
  if (lines.length !== 2 || !headers || !paths || headers.length !== paths.length) {
    throw new UsageError(`${file}: a custom-columns file holds two lines, headers and paths, as many of each (e.g. "NAME  LAT" then ".name  .position.lat")`);
  }
  return headers.map((header, i) => ({ header, path: paths[i]!, steps: parsePath(paths[i]!) }));
}

/** Every value the steps reach in the record, in order. */
export function selectPath(rec: unknown, steps: CustomColumn['steps']): unknown[] {
  let values: unknown[] = [rec];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const value of values) {
      if (value === null || typeof value !== 'object') continue;
      if (typeof step === 'string') {
        if (!Array.isArray(value) && Object.hasOwn(value, step)) next.push((value as Rec)[step]);
      } else if (typeof step === 'number') {
        if (!Array.isArray(value)) continue;
        const index = step < 0 ? value.length + step : step;
        if (index >= 0 && index < value.length) next.push(value[index]);
      } else {
        next.push(...(Array.isArray(value) ? value : Object.values(value)));
      }
    }
    values = next;
  }
  return values;
}

function cellValue(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
}

/** What a custom column shows for a record: its value, several joined with ',', or <none>. */
export function customValue(rec: Rec, column: CustomColumn): unknown {
  const values = selectPath(rec, column.steps).filter((value) => value !== undefined && value !== null);
  if (values.length === 0) return NONE;
  if (values.length === 1) return cellValue(values[0]);
  return values.map((value) => String(cellValue(value))).join(',');
}

/** The table columns for a custom-columns spec; text may be cut on a narrow terminal, never dropped. */
export function tableColumns(columns: readonly CustomColumn[]): Column[] {
  return columns.map((column, i) => ({
    key: `column${i + 1}`,
    header: column.header,
    value: (rec: Rec) => customValue(rec, column),
    shrink: true,
  }));
}
