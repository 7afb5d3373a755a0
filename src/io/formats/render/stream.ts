/**
 * Streaming output (history, --follow): each record is written as it arrives
 * and the writer awaits io.out, so memory stays flat and backpressure holds.
 * The text equals what renderList prints for the same records, except that a
 * terminal table sizes its columns from the first rows only.
 */
import { TtyClock, withZoneHeader } from './cells.js';
import { checkFields, projectRecord, resolveColumns } from './columns.js';
import { csvHeaderLine, csvRowLine } from './csv.js';
import { compactJson, prettyJsonArrayItem } from './json.js';
import { loadPainter, type Painter } from './paint.js';
import { layoutTable, loadTableWriter, ttyRow, type TableLayout, type TableWriter, type TtyCell } from './table.js';
import { tsvHeaderLine, tsvRowLine } from './tsv.js';
import type { Column, OutputOptions, Rec, RecordStream } from './types.js';
import { yamlSequenceItem } from './yaml.js';

/** Rows a terminal table waits for before fixing its column widths. */
export const TABLE_SIZING_ROWS = 200;
/** …or this long, so a slow --follow still shows rows promptly. */
export const TABLE_SIZING_DELAY_MS = 1000;

interface Writer {
  /** Text for one record; `first` is true for the first record of the stream. */
  record(rec: Rec, first: boolean): Promise<string>;
  /** Text that closes the stream; `empty` when no record came. */
  end(empty: boolean): string;
}

function machineWriter(columns: Column[], shown: Column[], opts: OutputOptions): Writer {
  const project = (rec: Rec): Rec => projectRecord(rec, opts.fields, columns);
  const csvHeader = opts.header ? csvHeaderLine(shown) : '';
  const tsvHeader = opts.header ? tsvHeaderLine(shown) : '';
  switch (opts.format) {
    case 'json':
      return {
        record: async (rec, first) => `${first ? '[\n' : ',\n'}${prettyJsonArrayItem(project(rec))}`,
        end: (empty) => (empty ? '[]\n' : '\n]\n'),
      };
    case 'ndjson':
      return { record: async (rec) => `${compactJson(project(rec))}\n`, end: () => '' };
    case 'yaml':
      return { record: (rec) => yamlSequenceItem(project(rec)), end: (empty) => (empty ? '[]\n' : '') };
    case 'csv':
      return {
        record: async (rec, first) => (first ? csvHeader : '') + csvRowLine(rec, shown),
        end: (empty) => (empty ? csvHeader : ''),
      };
    case 'table':
      return {
        record: async (rec, first) => (first ? tsvHeader : '') + tsvRowLine(rec, shown),
        end: (empty) => (empty ? tsvHeader : ''),
      };
  }
}

class MachineStream implements RecordStream {
  private count = 0;
  constructor(
    private readonly writer: Writer,
    private readonly columns: Column[],
    private readonly opts: OutputOptions,
  ) {}

  async write(rec: Rec): Promise<void> {
    if (this.count === 0) checkFields(this.opts.fields, this.columns, [rec]);
    const text = await this.writer.record(rec, this.count === 0);
    this.count += 1;
    await this.opts.io.out(text);
  }

  async end(): Promise<void> {
    const text = this.writer.end(this.count === 0);
    if (text !== '') await this.opts.io.out(text);
  }
}

/** A terminal table: buffer rows to size the columns, then print with those widths. */
class TerminalTableStream implements RecordStream {
  private readonly shown: Column[];
  /** One clock for the stream: a date shows where it changes from the row above; ages are read against each row's now. */
  private clock: TtyClock;
  private buffered: TtyCell[][] = [];
  private layout: TableLayout | undefined;
  private painter: Painter | undefined;
  private writer: TableWriter | undefined;
  private timer: NodeJS.Timeout | undefined;
  private pending: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(
    private readonly columns: Column[],
    private readonly opts: OutputOptions,
  ) {
    this.shown = withZoneHeader(resolveColumns(columns, opts.fields), opts.timeZone);
    this.clock = new TtyClock(opts.now(), opts.timeZone);
  }

  async write(rec: Rec): Promise<void> {
    await this.settle();
    if (!this.painter) {
      checkFields(this.opts.fields, this.columns, [rec]);
      [this.painter, this.writer] = await Promise.all([loadPainter(this.opts.color), loadTableWriter()]);
    }
    this.clock.nowMs = this.opts.now();
    const row = ttyRow(rec, this.shown, this.clock);
    if (this.layout && this.writer) return this.opts.io.out(this.writer.rows([row], this.layout, this.painter));
    this.buffered.push(row);
    if (this.buffered.length >= TABLE_SIZING_ROWS) return this.printBuffered();
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.pending = this.printBuffered().catch((error: unknown) => {
          this.failure = error;
        });
      }, TABLE_SIZING_DELAY_MS);
      this.timer.unref();
    }
  }

  async end(): Promise<void> {
    await this.settle();
    await this.printBuffered();
  }

  private async settle(): Promise<void> {
    await this.pending;
    if (this.failure !== undefined) throw this.failure;
  }

  private async printBuffered(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.layout || this.buffered.length === 0 || !this.painter || !this.writer) return;
    const painter = this.painter;
    const layout = layoutTable(this.shown, this.buffered, this.opts.io.columns(), this.opts.header);
    this.layout = layout;
    const header = this.opts.header ? this.writer.header(layout, painter) : '';
    const rows = this.writer.rows(this.buffered, layout, painter);
    this.buffered = [];
    await this.opts.io.out(header + rows);
  }
}

export function openRecordStream(columns: Column[], opts: OutputOptions): RecordStream {
  if (opts.format === 'table' && opts.tty) return new TerminalTableStream(columns, opts);
  const shown = resolveColumns(columns, opts.fields);
  return new MachineStream(machineWriter(columns, shown, opts), columns, opts);
}
