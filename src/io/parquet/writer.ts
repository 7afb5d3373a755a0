/**
 * History reports as a Parquet file, written as they stream: reports are gathered into
 * column buffers and written out as one row group each time a group fills
 * (DEFAULT_ROW_GROUP_ROWS), so memory holds at most one row group whatever the total.
 * The footer (schema, row-group index) is written by end(); before it, the bytes are
 * not a readable file. Encoding is hyparquet-writer's (dictionary/plain pages); the page
 * codec is chosen with --compression (codecs.ts), snappy when none is given.
 *
 * Two ways out, both a HistorySink:
 * - openParquetFile(path): a temporary file beside `path`, renamed over it by end() once
 *   whole (a killed run leaves `<path>.<pid>-<hex>.tmp`, never a torn `path`);
 * - openParquetStream(writable): straight to a stream (stdout redirected to a file).
 */
import type { Writable } from 'node:stream';
import { ByteWriter, ParquetWriter, type ColumnSource, type SchemaElement } from 'hyparquet-writer';
import type { HistoryItem } from '../../api/history.js';
import type { HistorySink } from '../geo/sink.js';
import { openOutputFile, writeChunk } from '../output-file.js';
import type { PageCodec } from './codecs.js';
import { ColumnBuffers, PARQUET_COLUMNS, type ColumnKind } from './columns.js';

/** Rows per row group: big enough for good compression and fast scans, small enough to keep memory flat. */
export const DEFAULT_ROW_GROUP_ROWS = 50_000;

/**
 * Columns whose row groups carry min/max statistics, which readers use to skip row groups
 * (`where date > …`, `did = …`, `reportType = 'sos'`). Free text (addresses, messages) gains
 * nothing from them and costs a quarter of the writing time.
 */
const WITH_STATISTICS = new Set(PARQUET_COLUMNS.filter((c) => c.kind !== 'string').map((c) => c.name).concat('reportType'));

export interface ParquetSinkOptions {
  /** Reports per row group (default DEFAULT_ROW_GROUP_ROWS). */
  rowGroupRows?: number;
  /** The file's `created_by`, e.g. `trackctl 1.2.0`. */
  createdBy?: string;
  /** The page codec (pageCodec()); snappy when not given. */
  codec?: PageCodec;
  /** Key-value metadata of the file's footer (schema version, units, the window). */
  metadata?: Readonly<Record<string, string>>;
}

/** A Parquet file being written: end() renames it into place; discard() removes the temporary file. */
export interface ParquetFileSink extends HistorySink {
  /** The file end() puts in place. */
  readonly path: string;
  /** Abandons the file (closes and removes the temporary file); a no-op once end() has put it in place. */
  discard(): Promise<void>;
}

function schemaElement(name: string, kind: ColumnKind): SchemaElement {
  const repetition_type = 'OPTIONAL';
  switch (kind) {
    case 'int32':
      return { name, type: 'INT32', repetition_type };
    case 'int64':
      return { name, type: 'INT64', repetition_type };
    case 'double':
      return { name, type: 'DOUBLE', repetition_type };
    case 'string':
      return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' }, repetition_type };
    case 'timestamp':
      return {
        name, type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' }, repetition_type,
      };
  }
}

/** The Parquet schema of a history file (root first), for readers and tests. */
export function parquetSchema(): SchemaElement[] {
  return [{ name: 'root', num_children: PARQUET_COLUMNS.length }, ...PARQUET_COLUMNS.map((c) => schemaElement(c.name, c.kind))];
}

type Emit = (chunk: Buffer) => Promise<void>;

/** hyparquet-writer's byte buffer, handed on (and emptied) after each row group and at the end. */
class ChunkWriter extends ByteWriter {
  constructor(private readonly emit: Emit) {
    super(1 << 16); // grows to a row group; small for the many small files of an --out-dir
  }

  private handOn(): Promise<void> {
    const chunk = Buffer.from(new Uint8Array(this.buffer, 0, this.index)); // a copy: the buffer is reused
    this.index = 0;
    return this.emit(chunk);
  }

  flush(): Promise<void> {
    return this.handOn();
  }

  override finish(): Promise<void> {
    return this.handOn();
  }
}

class ParquetSink implements HistorySink {
  count = 0;
  private readonly buffers = new ColumnBuffers();
  private readonly parquet: ParquetWriter;
  private readonly rowGroupRows: number;
  private ended = false;

  constructor(emit: Emit, opts: ParquetSinkOptions) {
    this.rowGroupRows = opts.rowGroupRows ?? DEFAULT_ROW_GROUP_ROWS;
    if (!Number.isInteger(this.rowGroupRows) || this.rowGroupRows < 1) throw new RangeError(`rowGroupRows must be a positive integer, got ${this.rowGroupRows}`);
    const kvMetadata = Object.entries(opts.metadata ?? {}).map(([key, value]) => ({ key, value }));
    this.parquet = new ParquetWriter({
      writer: new ChunkWriter(emit),
      schema: parquetSchema(),
      createdBy: opts.createdBy ?? 'trackctl',
      ...(opts.codec ?? { codec: 'SNAPPY' }),
      ...(kvMetadata.length > 0 ? { kvMetadata } : {}),
    });
  }

  async write(items: readonly HistoryItem[]): Promise<void> {
    if (this.ended) throw new Error('parquet: write after end');
    for (const item of items) {
      this.buffers.append(item);
      this.count++;
      if (this.buffers.rows >= this.rowGroupRows) await this.writeRowGroup();
    }
  }

  /**
   * Completed row groups are written as they fill, so there is nothing more to hand on:
   * the reports of the open row group wait for it to fill or for end(). A Parquet file is
   * readable only once end() has written its footer.
   */
  async flush(): Promise<void> {}

  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    if (this.buffers.rows > 0) await this.writeRowGroup();
    await this.parquet.finish();
  }

  private async writeRowGroup(): Promise<void> {
    const rows = this.buffers.rows;
    const columns = this.buffers.take();
    const columnData: ColumnSource[] = PARQUET_COLUMNS.map((c, i) => ({ name: c.name, data: columns[i]!, statistics: WITH_STATISTICS.has(c.name) }));
    await this.parquet.write({ columnData, rowGroupSize: rows });
  }
}

/** A Parquet file written to a stream (stdout redirected to a file); end() leaves the stream open. */
export function openParquetStream(stream: Writable, opts: ParquetSinkOptions = {}): HistorySink {
  return new ParquetSink((chunk) => writeChunk(stream, chunk), opts);
}

/**
 * A Parquet file at `path`, written to a temporary file in the same directory and renamed
 * over `path` (synced first) once end() has written it whole. Fails at once, before any
 * report, when the directory cannot be written.
 */
export async function openParquetFile(path: string, opts: ParquetSinkOptions = {}): Promise<ParquetFileSink> {
  const file = await openOutputFile(path);
  const sink = new ParquetSink((chunk) => writeChunk(file.stream, chunk), opts);
  return {
    path,
    get count() {
      return sink.count;
    },
    write: (items) => sink.write(items),
    flush: () => sink.flush(),
    async end() {
      await sink.end();
      await file.commit();
    },
    discard: () => file.discard(),
  };
}
