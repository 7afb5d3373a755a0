/**
 * The output layer: the only place records become text. Commands hand it
 * records and column definitions; it renders table, JSON, NDJSON, CSV or YAML
 * to io.out. Renderers for table colour and YAML are imported lazily, so
 * machine output loads neither chalk nor yaml.
 */
import { UsageError } from '../errors.js';
import { checkFields, projectRecord, resolveColumns } from './render/columns.js';
import { csvHeaderLine, csvRowLine } from './render/csv.js';
import { compactJson, prettyJson } from './render/json.js';
import { loadPainter } from './render/paint.js';
import { formatRecordView, recordViewColumns } from './render/record-view.js';
import { openRecordStream } from './render/stream.js';
import { layoutTable, loadTableWriter, ttyRow } from './render/table.js';
import { tsvHeaderLine, tsvRowLine } from './render/tsv.js';
import { OUTPUT_FORMATS, type Column, type OutputFormat, type OutputOptions, type Rec, type RecordStream } from './render/types.js';
import { yamlText } from './render/yaml.js';
import { sanitizeText } from './sanitize.js';

export { OUTPUT_FORMATS };
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
    throw new UsageError(`unknown output format "${value}"; use one of: ${allowed.join(', ')}`);
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
async function renderTerminalTable(records: Rec[], shown: Column[], opts: OutputOptions): Promise<void> {
  if (records.length === 0) return;
  const [painter, writer] = await Promise.all([loadPainter(opts.color), loadTableWriter()]);
  const nowMs = opts.now();
  const rows = records.map((rec) => ttyRow(rec, shown, nowMs));
  const layout = layoutTable(shown, rows, opts.io.columns(), opts.header);
  const header = opts.header ? writer.header(layout, painter) : '';
  await opts.io.out(header + writer.rows(rows, layout, painter));
}

/** A list command: json → array; ndjson → lines; csv → header + rows; yaml → sequence; table → columns (TSV when piped). */
export async function renderList(records: Rec[], columns: Column[], opts: OutputOptions): Promise<void> {
  checkFields(opts.fields, columns, records);
  const shown = resolveColumns(columns, opts.fields);
  const project = (rec: Rec): Rec => projectRecord(rec, opts.fields, columns);
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
      if (opts.tty) return renderTerminalTable(records, shown, opts);
      const header = opts.header ? tsvHeaderLine(shown) : '';
      return opts.io.out(header + records.map((rec) => tsvRowLine(rec, shown)).join(''));
    }
  }
}

/** A get/create: json → the record; ndjson → one line; yaml → mapping; csv → header + row; table → KEY: value lines (TSV when piped). */
export async function renderRecord(record: Rec, columns: Column[], opts: OutputOptions): Promise<void> {
  checkFields(opts.fields, columns, [record]);
  const projected = projectRecord(record, opts.fields, columns);
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
      return opts.io.out(formatRecordView(record, shown, painter, opts.now()));
    }
  }
}

/** Streaming: records written (and flushed) as they arrive; see render/stream.ts. */
export function openStream(columns: Column[], opts: OutputOptions): RecordStream {
  return openRecordStream(columns, opts);
}

/**
 * --raw: the body as the service sent it. On a terminal it is still stripped of
 * control sequences (service text never drives the terminal); piped, it is byte-exact.
 */
export async function renderRaw(body: string, opts: Pick<OutputOptions, 'io'>): Promise<void> {
  await opts.io.out(opts.io.stdoutIsTTY ? sanitizeText(body) : body);
}
