/**
 * `-o parquet` for history: a HistorySink that writes typed columns in row groups as the
 * reports stream. Loaded only when parquet is asked for (dynamic import): it brings
 * hyparquet-writer with it. Columns and their types: columns.ts; a row group gathered: buffers.ts; writing: writer.ts.
 */
export { PARQUET_COLUMNS, REPORT_COLUMNS, type ParquetColumn, type ColumnKind } from './columns.js';
export {
  DEFAULT_ROW_GROUP_ROWS, openParquetFile, openParquetStream, parquetSchema, type ParquetFileSink, type ParquetSinkOptions,
} from './writer.js';
export { COMPRESSIONS, DEFAULT_COMPRESSION, pageCodec, type Compression, type PageCodec } from './codecs.js';
export { historyMetadata, SCHEMA_VERSION } from './metadata.js';
export { ParquetCutReader } from './cut-reader.js';
