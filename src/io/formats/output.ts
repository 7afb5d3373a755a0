/**
 * The output layer: the only place records become text. Commands hand it
 * records and column definitions; it renders table, JSON, NDJSON, CSV or YAML
 * to io.out, or puts what -o json prints through --jq, --template or -o
 * custom-columns (script.ts). Renderers for table colour and YAML are imported
 * lazily, so machine output loads neither chalk nor yaml; jq and Handlebars
 * load only when asked for.
 */
import { UsageError } from '../../errors.js';
import { TtyClock, withZoneHeader } from './render/cells.js';
import { checkFields, projectRecord, resolveColumns } from './render/columns.js';
import { tableColumns } from './render/custom-columns.js';
import { csvHeaderLine, csvRowLine } from './render/csv.js';
import { compactJson, prettyJson } from './render/json.js';
import { loadPainter } from './render/paint.js';
import { formatRecordView, recordViewColumns } from './render/record-view.js';
import { openScriptedStream, renderRawScripted, renderScripted } from './render/scripted.js';
import { openRecordStream } from './render/stream.js';
import { layoutTable, loadTableWriter, ttyRow } from './render/table.js';
import { tsvHeaderLine, tsvRowLine } from './render/tsv.js';
import { LIST_FORMATS, OUTPUT_FORMATS, type Column, type ListArrangement, type CustomColumn, type OutputFormat, type OutputOptions, type Rec, type RecordStream } from './render/types.js';
import { yamlText } from './render/yaml.js';
import { sanitizeText } from '../../sanitize.js';

export { LIST_FORMATS, OUTPUT_FORMATS };
export { isCustomColumns, resolveScript } from './script.js';
export { fieldNames } from './render/columns.js';
export type { Column, OutputFormat, OutputOptions, Rec, RecordStream };
export type { Tone } from './render/types.js';

/**
 * A format flag value → one of `allowed`. Case-insensitive; undefined or empty →
 * 'table' (or the first allowed format when a command offers no table).
 * Generic so commands with formats of their own (history: geojson, gpx, kml) get them typed.
 */
export function parseFormatFrom<F extends string>(value: string | undefined, allowed: readonly F[]): F {
  const wanted = value?.trim().toLowerCase() ?? '';
  if (wanted === '') {
    const fallback = allowed.find((format) => format === 'table') ?? allowed[0];
    if (fallback === undefined) throw new UsageError('no output format is available for this command');
    return fallback;
  }
  const format = allowed.find((candidate) => candidate === wanted);
  if (format === undefined) {
    throw new UsageError(`unknown output format "${value}"; use one of: ${allowed.join(', ')}`, {
      hint: 'For a shape of your own: -o custom-columns=HEADER:.path,… (as kubectl), --fields a,b,c, --jq EXPR or --template TEXT',
    });
  }
  return format;
}

/** --fields a,b,c → ['a','b','c'] (trimmed, duplicates dropped); undefined when not given. */
export function parseFields(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const fields = [...new Set(value.split(',').map((field) => field.trim()).filter((field) => field !== ''))];
  if (fields.length === 0) throw new UsageError(`--fields "${value}" names no field; give a comma-separated list like id,name`);
  return fields;
}

/** Terminal table of many records, sized to all of them. Empty list → nothing (the caller says so on stderr). */
async function renderTerminalTable(records: Rec[], columns: Column[], opts: OutputOptions, wide = false): Promise<void> {
  if (records.length === 0) return;
  const [painter, writer] = await Promise.all([loadPainter(opts.color), loadTableWriter()]);
  const shown = withZoneHeader(columns, opts.timeZone);
  const clock = new TtyClock(opts.now(), opts.timeZone);
  const rows = records.map((rec) => ttyRow(rec, shown, clock));
  // -o wide: every column, whole, however wide the terminal.
  const layout = layoutTable(shown, rows, wide ? Number.POSITIVE_INFINITY : opts.io.columns(), opts.header);
  const header = opts.header ? writer.header(layout, painter) : '';
  await opts.io.out(header + writer.rows(rows, layout, painter));
}

/** -o custom-columns: the records as a table of the given paths, as the table format draws it. */
function customColumnsOptions(columns: CustomColumn[], opts: OutputOptions): { columns: Column[]; opts: OutputOptions } {
  return { columns: tableColumns(columns), opts: { ...opts, format: 'table', fields: undefined, script: undefined } };
}

/** A list command: json → array; ndjson → lines; csv → header + rows; yaml → sequence; table → columns (TSV when piped). */
export async function renderList(all: Rec[], columns: Column[], opts: OutputOptions): Promise<void> {
  checkFields(opts.fields, columns, all);
  const records = opts.list ? arrange(all, columns, opts.list) : all;
  if (opts.list?.shape === 'name') return opts.io.out(records.map((rec) => `${resourceName(rec)}\n`).join(''));
  const shown = resolveColumns(columns, opts.fields);
  const project = (rec: Rec): Rec => projectRecord(rec, opts.fields, columns);
  const script = opts.script;
  if (script?.kind === 'columns') {
    const custom = customColumnsOptions(script.columns, opts);
    return renderList(records, custom.columns, custom.opts);
  }
  if (script && opts.format === 'ndjson') {
    const stream = openScriptedStream(script, opts);
    for (const rec of records) await stream.write(project(rec));
    return stream.end();
  }
  if (script) return renderScripted(records.map(project), script, opts);
  switch (opts.format) {
    case 'json':
      return opts.io.out(`${prettyJson(records.map(project))}\n`);
    case 'ndjson':
      return opts.io.out(records.map((rec) => `${compactJson(project(rec))}\n`).join(''));
    case 'yaml':
      return opts.io.out(await yamlText(records.map(project)));
    case 'csv': {
      const header = opts.header ? csvHeaderLine(shown) : '';
      return opts.io.out(header + records.map((rec) => csvRowLine(rec, shown)).join(''));
    }
    case 'table': {
      if (opts.tty) return renderTerminalTable(records, shown, opts, opts.list?.shape === 'wide');
      const header = opts.header ? tsvHeaderLine(shown) : '';
      return opts.io.out(header + records.map((rec) => tsvRowLine(rec, shown)).join(''));
    }
  }
}

/** A get/create: json → the record; ndjson → one line; yaml → mapping; csv → header + row; table → KEY: value lines (TSV when piped). */
export async function renderRecord(record: Rec, columns: Column[], opts: OutputOptions): Promise<void> {
  checkFields(opts.fields, columns, [record]);
  const projected = projectRecord(record, opts.fields, columns);
  if (opts.script?.kind === 'columns') return renderList([record], columns, opts);
  if (opts.script) return renderScripted(projected, opts.script, opts);
  switch (opts.format) {
    case 'json':
      return opts.io.out(`${prettyJson(projected)}\n`);
    case 'ndjson':
      return opts.io.out(`${compactJson(projected)}\n`);
    case 'yaml':
      return opts.io.out(await yamlText(projected));
    case 'csv':
      return renderList([record], columns, opts);
    case 'table': {
      if (!opts.tty) return renderList([record], columns, opts);
      const shown = recordViewColumns(record, resolveColumns(columns, opts.fields), opts.fields !== undefined);
      const painter = await loadPainter(opts.color);
      return opts.io.out(formatRecordView(record, shown, painter, opts.now(), opts.timeZone, opts.io.columns()));
    }
  }
}

/** Streaming: records written (and flushed) as they arrive; see render/stream.ts. */
export function openStream(columns: Column[], opts: OutputOptions): RecordStream {
  const script = opts.script;
  if (script?.kind === 'columns') {
    const custom = customColumnsOptions(script.columns, opts);
    return openRecordStream(custom.columns, custom.opts);
  }
  if (!script) return openRecordStream(columns, opts);
  const stream = openScriptedStream(script, opts);
  let first = true;
  return {
    async write(rec) {
      if (first) checkFields(opts.fields, columns, [rec]);
      first = false;
      await stream.write(projectRecord(rec, opts.fields, columns));
    },
    flush: () => stream.flush?.() ?? Promise.resolve(),
    end: () => stream.end(),
  };
}

/**
 * --raw: the body as the service sent it. On a terminal it is still stripped of
 * control sequences (service text never drives the terminal); piped, it is byte-exact.
 * With --jq or --template, the body is their document.
 */
export async function renderRaw(body: string, opts: Pick<OutputOptions, 'io' | 'script'>): Promise<void> {
  const { io, script } = opts;
  if (script && script.kind !== 'columns') return renderRawScripted(body, script, { io, tty: io.stdoutIsTTY });
  await io.out(io.stdoutIsTTY ? sanitizeText(body) : body);
}

/** --sort-by (a column's value, else the record's field; '-' first: descending; no value last) and --limit. */
function arrange(records: Rec[], columns: Column[], list: ListArrangement): Rec[] {
  let out = records;
  if (list.sortBy !== undefined) {
    const descending = list.sortBy.startsWith('-');
    const field = descending ? list.sortBy.slice(1) : list.sortBy;
    const column = columns.find((c) => c.key === field);
    const path = field.split('.');
    const valueOf = (rec: Rec): unknown => (column?.value ? column.value(rec) : path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Rec)[k] : undefined), rec));
    if (column === undefined && records.length > 0 && !records.some((rec) => valueOf(rec) !== undefined)) {
      throw new UsageError(`unknown --sort-by field "${field}": choose from ${columns.map((c) => c.key).join(', ')} or a record field`, {
        hint: "For another order: --jq 'sort_by(.FIELD)'",
      });
    }
    const none = (v: unknown): boolean => v === null || v === undefined || v === '';
    const compare = (a: unknown, b: unknown): number => {
      if (none(a) || none(b)) return none(a) ? (none(b) ? 0 : 1) : -1; // no value last, either way
      const order = typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b), 'en', { numeric: true });
      return descending ? -order : order;
    };
    out = records.map((rec) => ({ rec, key: valueOf(rec) })).sort((x, y) => compare(x.key, y.key)).map((x) => x.rec);
  }
  return list.limit === undefined ? out : out.slice(0, list.limit);
}

/** -o name: `kind/id`, as kubectl prints it (device/2004, sensor/2016, user/2020, group/101, share/Jyjs2YFhY4vA). */
function resourceName(rec: Rec): string {
  if (typeof rec.category === 'string') return `${rec.category}/${String(rec.did ?? rec.uid)}`;
  if (rec.sid !== undefined) return `share/${String(rec.sid)}`;
  if (rec.gid !== undefined && rec.did === undefined && rec.uid === undefined) return `group/${String(rec.gid)}`;
  if (rec.uid !== undefined) return `user/${String(rec.uid)}`;
  if (rec.did !== undefined) return `${rec.deviceCategory === 'sensor' ? 'sensor' : 'device'}/${String(rec.did)}`;
  return String(Object.values(rec)[0] ?? '');
}
