/** What a Parquet column of a history file is: its name and its type (the columns: columns.ts). */
export type ColumnKind = 'int32' | 'int64' | 'double' | 'string' | 'timestamp';

export interface ParquetColumn {
  name: string;
  kind: ColumnKind;
}
