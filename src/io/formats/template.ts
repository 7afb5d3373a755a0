/**
 * --template: Handlebars templates over the JSON document (or each streamed record),
 * with gh's --template helpers. Handlebars calls helpers the way Go templates call
 * functions (`{{truncate 20 name}}`, `{{join ", " groups}}`), so gh's templates carry
 * over with little change (`{{range .}}…{{end}}` is `{{#each .}}…{{/each}}`, `.name` is
 * `name`). Loaded on first use only.
 *
 * - Nothing is HTML-escaped (noEscape): this is a terminal, not a page.
 * - String literals take Go's escapes, as in gh: `{{"\n"}}` is a newline, `{{join "\t" x}}` a tab.
 * - Text from the service is stripped of control sequences before the template sees it, on
 *   a terminal or not (only --raw, piped, hands it the reply as sent); the helpers' own
 *   colours and links are added after.
 */
import { UsageError } from '../../errors.js';
import { formatRelative, formatRfc3339 } from '../format-time.js';
import { sanitizeValue } from '../../sanitize.js';
import { displayWidth, padding, truncateToWidth } from './render/width.js';

type Handlebars = typeof import('handlebars');

export interface TemplateSettings {
  /** stdout is a terminal: tablerow aligns its columns (else tab-separated) and hyperlink links. */
  tty: boolean;
  /** Colour allowed: color paints, hyperlink links (on a terminal). */
  color: boolean;
  /** --raw: the data as the service sent it, control characters and all (never on a terminal). */
  raw?: boolean | undefined;
  /** Milliseconds, for timeago. */
  now: () => number;
  /** Characters one rendering may produce (TEMPLATE_OUTPUT_LIMIT unless a test wants less). */
  outputLimit?: number;
}

/**
 * The most text one rendering (the document, or one record with -o ndjson) may produce: 64 M
 * characters. Handlebars renders to one string, so a template that repeats {{#each}} inside
 * {{#each}} over a fleet multiplies its text (three levels over 300 units: 27 million rows,
 * 880 MB); past the limit it stops with an error instead.
 */
export const TEMPLATE_OUTPUT_LIMIT = 64 * 1024 * 1024;

/** A compiled template: data → text. Rows of tablerow not yet drawn by tablerender are drawn at the end. */
export type Template = (data: unknown) => string;

export class TemplateError extends UsageError {}

/** Go's escapes in a string literal (gh's templates are Go templates). */
function unescapeGo(text: string): string {
  return text.replace(/\\(?:([abfnrtv\\"'])|x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4}))/g, (_m, c: string | undefined, x: string | undefined, u: string | undefined) => {
    if (x !== undefined || u !== undefined) return String.fromCharCode(parseInt((x ?? u)!, 16));
    const map: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"', "'": "'" };
    return map[c!]!;
  });
}

type Node = { type?: string; [key: string]: unknown };

/** Unescapes every string literal; `{{"…"}}` alone (which Handlebars would look up as a name) becomes text. */
function rewriteLiterals(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteLiterals);
  if (node === null || typeof node !== 'object') return node;
  const n = node as Node;
  const path = n.path as Node | undefined;
  if (n.type === 'MustacheStatement' && path?.type === 'StringLiteral' && (n.params as unknown[]).length === 0 && !n.hash) {
    const text = unescapeGo(String(path.value));
    return { type: 'ContentStatement', original: text, value: text, loc: n.loc };
  }
  if (n.type === 'StringLiteral') {
    const value = unescapeGo(String(n.value));
    return { ...n, value, original: value };
  }
  const out: Node = {};
  for (const [key, value] of Object.entries(n)) out[key] = key === 'loc' ? value : rewriteLiterals(value);
  return out;
}

/** Unix seconds (or milliseconds, or an ISO text) → unix seconds; undefined when it is not a time. */
function toSeconds(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value > 1e11 ? value / 1000 : value;
  if (typeof value === 'string' && value.trim() !== '') {
    if (/^-?\d+(\.\d+)?$/.test(value.trim())) return toSeconds(Number(value));
    const ms = Date.parse(value);
    if (!Number.isNaN(ms)) return ms / 1000;
  }
  return undefined;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** strftime in UTC: %Y %m %d %H %M %S %y %b %a %j %F %T %s %z %Z %%. */
export function strftimeUtc(format: string, seconds: number): string {
  const d = new Date(seconds * 1000);
  const two = (n: number): string => String(n).padStart(2, '0');
  const day0 = Date.UTC(d.getUTCFullYear(), 0, 1);
  const fields: Record<string, () => string> = {
    Y: () => String(d.getUTCFullYear()),
    y: () => two(d.getUTCFullYear() % 100),
    m: () => two(d.getUTCMonth() + 1),
    d: () => two(d.getUTCDate()),
    H: () => two(d.getUTCHours()),
    M: () => two(d.getUTCMinutes()),
    S: () => two(d.getUTCSeconds()),
    b: () => MONTHS[d.getUTCMonth()]!,
    a: () => DAYS[d.getUTCDay()]!,
    j: () => String(Math.floor((d.getTime() - day0) / 86_400_000) + 1).padStart(3, '0'),
    F: () => `${fields.Y!()}-${fields.m!()}-${fields.d!()}`,
    T: () => `${fields.H!()}:${fields.M!()}:${fields.S!()}`,
    s: () => String(Math.floor(seconds)),
    z: () => '+0000',
    Z: () => 'UTC',
    '%': () => '%',
  };
  return format.replace(/%(.)/g, (match, c: string) => fields[c]?.() ?? match);
}

/** Rows of tablerow, drawn aligned on a terminal and tab-separated elsewhere. */
class RowTable {
  private rows: string[][] = [];
  constructor(private readonly tty: boolean) {}

  add(cells: string[]): void {
    this.rows.push(cells);
  }

  draw(): string {
    const rows = this.rows;
    this.rows = [];
    if (rows.length === 0) return '';
    if (!this.tty) return rows.map((row) => `${row.join('\t')}\n`).join('');
    const widths: number[] = [];
    for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, displayWidth(cell))));
    return rows.map((row) => `${row.map((cell, i) => (i === row.length - 1 ? cell : cell + padding(displayWidth(cell), widths[i]!) + '  ')).join('')}\n`).join('');
  }
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

type Paint = (style: string, text: string) => string;

async function loadPaint(color: boolean): Promise<Paint> {
  if (!color) return (_style, t) => t;
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  return (style, t) => {
    let painter: unknown = chalk;
    for (const name of style.split(/[+ ,]/).filter((s) => s !== '')) {
      const next = (painter as Record<string, unknown>)[name];
      if (typeof next !== 'function') throw new TemplateError(`color: unknown style "${name}" (use e.g. red, green, yellow, blue, magenta, cyan, gray, bold, dim, underline, or red+bold)`);
      painter = next;
    }
    return (painter as (s: string) => string)(t);
  };
}

function helpers(settings: TemplateSettings, table: RowTable, paint: Paint): Record<string, (...args: unknown[]) => unknown> {
  // Handlebars passes its options object last; the helpers take only the arguments before it.
  const args = (all: unknown[]): unknown[] => all.slice(0, -1);
  const need = (name: string, given: unknown[], count: number, usage: string): void => {
    if (given.length !== count) throw new TemplateError(`${name} takes ${count} argument${count > 1 ? 's' : ''}: ${usage}`);
  };
  return {
    tablerow: (...all) => {
      table.add(args(all).map(text));
      return '';
    },
    tablerender: () => table.draw(),
    timeago: (...all) => {
      const [value] = args(all);
      need('timeago', args(all), 1, '{{timeago lastReport}}');
      const seconds = toSeconds(value);
      return seconds === undefined ? text(value) : formatRelative(seconds, settings.now());
    },
    timefmt: (...all) => {
      const given = args(all);
      need('timefmt', given, 2, '{{timefmt "%Y-%m-%d %H:%M" lastReport}}');
      const seconds = toSeconds(given[1]);
      if (seconds === undefined) return text(given[1]);
      return given[0] === '' ? formatRfc3339(seconds) : strftimeUtc(text(given[0]), seconds);
    },
    truncate: (...all) => {
      const given = args(all);
      need('truncate', given, 2, '{{truncate 20 name}}');
      const width = Number(given[0]);
      if (!Number.isInteger(width) || width < 1) throw new TemplateError(`truncate: the length must be a whole number above 0, not "${text(given[0])}"`);
      return truncateToWidth(text(given[1]), width);
    },
    join: (...all) => {
      const given = args(all);
      need('join', given, 2, '{{join ", " groups}}');
      const list = given[1];
      return Array.isArray(list) ? list.map(text).join(text(given[0])) : text(list);
    },
    color: (...all) => {
      const given = args(all);
      need('color', given, 2, '{{color "red" name}}');
      return paint(text(given[0]), text(given[1]));
    },
    hyperlink: (...all) => {
      const given = args(all);
      if (given.length < 1 || given.length > 2) throw new TemplateError('hyperlink takes a URL and, optionally, its text: {{hyperlink url name}}');
      const url = text(given[0]);
      const label = given.length === 2 && text(given[1]) !== '' ? text(given[1]) : url;
      // OSC 8: a terminal shows the text and opens the URL; elsewhere the text alone.
      return settings.tty && settings.color ? `\x1b]8;;${url.replace(/[\x00-\x1f\x7f-\x9f]/g, '')}\x1b\\${label}\x1b]8;;\x1b\\` : label;
    },
  };
}

/** Compiles a template (syntax checked now, before anything is sent); helpers are gh's. */
export async function compileTemplate(source: string, settings: TemplateSettings): Promise<Template> {
  const { default: handlebars } = (await import('handlebars')) as unknown as { default: Handlebars };
  const env = handlebars.create();
  let ast: unknown;
  try {
    ast = rewriteLiterals(env.parse(source));
  } catch (err) {
    throw new TemplateError(`--template: ${(err as Error).message}`, { cause: err });
  }
  const table = new RowTable(settings.tty);
  const paint = await loadPaint(settings.color);
  const ours = helpers(settings, table, paint);
  for (const [name, fn] of Object.entries(ours)) env.registerHelper(name, fn as (...a: unknown[]) => unknown);
  // Only known helpers (ours and Handlebars' own: each, if, unless, with, lookup), so a
  // misspelt one is found now, before anything is sent, not at the first record.
  // Each {{#each}} counts what it produced (an inner one's text again in the outer: a bound,
  // not a measure); the count passing the limit stops the rendering at once.
  const limit = settings.outputLimit ?? TEMPLATE_OUTPUT_LIMIT;
  let produced = 0;
  const each = env.helpers.each as (this: unknown, ...args: unknown[]) => string;
  env.registerHelper('each', function (this: unknown, ...args: unknown[]) {
    const out = each.apply(this, args);
    produced += out.length;
    if (produced > limit) {
      throw new TemplateError(
        `--template: the output passed ${Math.round(limit / (1024 * 1024))} MB (each {{#each}} inside another multiplies the text); with -o ndjson the template renders each record alone`,
      );
    }
    return out;
  });
  const options = { noEscape: true, knownHelpersOnly: true, knownHelpers: Object.fromEntries(Object.keys(ours).map((name) => [name, true])) };
  const input = ast as Parameters<typeof env.compile>[0];
  try {
    env.precompile(input, options);
  } catch (err) {
    throw new TemplateError(`--template: ${(err as Error).message}`, { cause: err });
  }
  const render = env.compile(input, options);
  return (data) => {
    produced = 0;
    try {
      const out = render(settings.raw && !settings.tty ? data : sanitizeValue(data), { allowProtoPropertiesByDefault: false });
      return out + table.draw();
    } catch (err) {
      if (err instanceof TemplateError) throw err;
      throw new TemplateError(`--template: ${(err as Error).message}`, { cause: err });
    }
  };
}
