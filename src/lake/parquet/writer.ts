/**
 * History reports as a Parquet file, written as they stream: reports are gathered into
 * column buffers and written out as one row group each time a group fills
 * (DEFAULT_ROW_GROUP_ROWS), so memory holds at most one row group whatever the total.
 * The footer (schema, row-group index) is written by end(); before it, the bytes are
 * not a readable file. Encoding: encode.ts; the page codec is chosen with --compression
 * (codecs.ts), snappy when none is given.
 *
 * Two ways out, both a HistorySink:
 * - openParquetFile(path): a temporary file beside `path`, renamed over it by end() once
 *   whole (a killed run leaves `<path>.<pid>-<hex>.tmp`, never a torn `path`);
 * - openParquetStream(writable): straight to a stream (stdout redirected to a file).
 */
import type { Writable } from 'node:stream';
import { ByteWriter, type SchemaElement } from 'hyparquet-writer';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { snappyCompress } from 'hyparquet-writer/src/snappy.js';
import type { HistoryItem } from '../../api/history.js';
import type { HistorySink } from '../../io/pages/geo/sink.js';
import { openOutputFile, writeChunk } from '../../io/delivery/output-file.js';
import type { PageCodec } from './codecs.js';
import { ColumnBuffers } from './buffers.js';
import { PARQUET_COLUMNS, type ColumnKind } from './columns.js';
import { FileBytes, writeColumnChunk, type RowGroup } from './encode.js';

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
  /** Columns left out: a hive partition's key (`did` under did=2004/), which readers take from the folder. */
  without?: readonly string[];
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

/** The Parquet schema of a history file (root first), for readers and tests; `without` as the sink's option. */
export function parquetSchema(without: readonly string[] = []): SchemaElement[] {
  const columns = PARQUET_COLUMNS.filter((c) => !without.includes(c.name));
  return [{ name: 'root', num_children: columns.length }, ...columns.map((c) => schemaElement(c.name, c.kind))];
}

type Emit = (chunk: Buffer) => Promise<void>;

const MAGIC = Buffer.from('PAR1');
const SNAPPY: PageCodec = { codec: 'SNAPPY', compressors: { SNAPPY: snappyCompress } };

class ParquetSink implements HistorySink {
  count = 0;
  private readonly buffers = new ColumnBuffers();
  private readonly schema: SchemaElement[];
  /** The columns written, as indexes into PARQUET_COLUMNS (and the buffers'). */
  private readonly written: number[];
  private readonly rowGroupRows: number;
  private readonly codec: PageCodec;
  private readonly rowGroups: RowGroup[] = [];
  private readonly bytes = new FileBytes(0);
  /** Page bodies are built here, one at a time (grows to the largest page). */
  private readonly body = new ByteWriter(1 << 16);
  private ended = false;

  constructor(
    private readonly emit: Emit,
    private readonly opts: ParquetSinkOptions,
  ) {
    this.rowGroupRows = opts.rowGroupRows ?? DEFAULT_ROW_GROUP_ROWS;
    if (!Number.isInteger(this.rowGroupRows) || this.rowGroupRows < 1) throw new RangeError(`rowGroupRows must be a positive integer, got ${this.rowGroupRows}`);
    this.codec = opts.codec ?? SNAPPY;
    const without = opts.without ?? [];
    this.schema = parquetSchema(without);
    this.written = PARQUET_COLUMNS.flatMap((c, i) => (without.includes(c.name) ? [] : [i]));
    this.bytes.push(MAGIC);
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
    const footer = new ByteWriter(1 << 14);
    const kv = Object.entries(this.opts.metadata ?? {}).map(([key, value]) => ({ key, value }));
    writeMetadata(footer, {
      version: 2,
      schema: this.schema,
      num_rows: BigInt(this.count),
      row_groups: this.rowGroups,
      ...(kv.length > 0 ? { key_value_metadata: kv } : {}),
      created_by: this.opts.createdBy ?? 'trackctl',
      metadata_length: 0, // not written: writeMetadata appends the footer's length itself
    });
    this.bytes.push(footer.getBytes());
    this.bytes.push(MAGIC);
    await this.emit(this.bytes.take());
  }

  private async writeRowGroup(): Promise<void> {
    this.buffers.settle();
    const { rows, columns } = this.buffers;
    const start = this.bytes.offset;
    const chunks = this.written.map((i, k) =>
      writeColumnChunk(this.bytes, this.schema[k + 1]!, columns[i]!, rows, { codec: this.codec, statistics: WITH_STATISTICS.has(PARQUET_COLUMNS[i]!.name) }, this.body),
    );
    let uncompressed = 0n;
    for (const c of chunks) uncompressed += c.meta_data!.total_uncompressed_size;
    this.rowGroups.push({
      columns: chunks,
      num_rows: BigInt(rows),
      total_byte_size: uncompressed,
      total_compressed_size: BigInt(this.bytes.offset - start),
      file_offset: BigInt(start),
    });
    this.buffers.clear();
    await this.emit(this.bytes.take());
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
