/**
 * Row groups of a history file, encoded from the typed column buffers (buffers.ts).
 *
 * Every history column is flat and OPTIONAL, so a column chunk is simple: data pages
 * (version 1, which every engine reads) holding the definition levels (RLE/bit-packed, 1 bit)
 * and the values, PLAIN or, where it pays, RLE_DICTIONARY after a dictionary page. Values are
 * written from typed arrays straight into the page buffer, and each page (up to PAGE_ROWS rows)
 * is compressed as one block. The Thrift structures (page headers, the footer) are
 * hyparquet-writer's; its general encoder (nested columns, boxed cells, BigInt per int64) cost
 * more than the rest of an export and is not used.
 */
import { ByteWriter, type SchemaElement } from 'hyparquet-writer';
import { writePageHeader } from 'hyparquet-writer/src/datapage.js';
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';
import type { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import type { PageCodec } from './codecs.js';
import type { BufferedColumn } from './buffers.js';
import type { ColumnKind } from './columns.js';

type FileMetaData = Parameters<typeof writeMetadata>[1];
export type RowGroup = FileMetaData['row_groups'][number];
type ColumnChunk = RowGroup['columns'][number];
type ColumnMetaData = NonNullable<ColumnChunk['meta_data']>;
type Statistics = NonNullable<ColumnMetaData['statistics']>;

/** Rows per data page: pages of a few hundred KB to a few MB, large blocks for the compressor. */
export const PAGE_ROWS = 65_536;
/** Values looked at before a dictionary is tried: a column whose sample is mostly distinct goes PLAIN at once. */
const SAMPLE = 1000;
/** A dictionary pays when the distinct values are at most this share of the values. */
const DICTIONARY_SHARE = 0.25;
/** The usual cap on a dictionary page (parquet-mr, Arrow): past it, PLAIN. */
const MAX_DICTIONARY_BYTES = 1 << 20;

export interface ChunkOptions {
  codec: PageCodec;
  /** Min, max and null count in the chunk's metadata. */
  statistics: boolean;
}

/** A file's bytes as they are produced: pieces handed on together, and the file offset reached. */
export class FileBytes {
  parts: Uint8Array[] = [];
  constructor(public offset: number) {}

  push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.offset += bytes.length;
  }

  /** The pieces so far as one buffer; the list starts empty again. */
  take(): Buffer {
    const chunk = Buffer.concat(this.parts);
    this.parts = [];
    return chunk;
  }
}

type Dictionary = { values: readonly (string | number)[]; indexes: Int32Array };

/**
 * The dictionary of a column's values, or undefined where it would not pay: a sample spread
 * over the column first (cheap for columns of distinct values: coordinates, dates), then the
 * whole column, given up as soon as it passes its share or the byte cap.
 */
function dictionaryOf(c: BufferedColumn): Dictionary | undefined {
  const n = c.count;
  if (n === 0) return undefined;
  const values: ArrayLike<string | number> = c.kind === 'string' ? c.strings : c.numbers;
  // One value all through (a unit's id, name, source, often its type): the dictionary the Map below would make, without a lookup per value.
  const first = values[0]!;
  if (first !== 0 && (typeof first !== 'string' || 4 + 3 * first.length <= MAX_DICTIONARY_BYTES)) {
    let i = 1;
    if (!c.uniform) while (i < n && values[i] === first) i++;
    if (c.uniform || i === n) return { values: [first], indexes: new Int32Array(n) };
  }
  const maxDistinct = Math.max(1, Math.floor(n * DICTIONARY_SHARE));
  const sample = Math.min(n, SAMPLE);
  const seen = new Set<string | number>();
  for (let i = 0; i < sample; i++) seen.add(values[Math.floor((i * n) / sample)]!);
  if (seen.size > Math.max(1, Math.floor(sample * DICTIONARY_SHARE))) return undefined;
  const byValue = new Map<string | number, number>();
  const indexes = new Int32Array(n);
  const width = c.kind === 'int32' ? 4 : 8;
  let bytes = 0;
  let last: string | number | undefined;
  let lastIndex = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (v === 0 && Object.is(v, -0)) return undefined; // a Map keys -0 as 0: PLAIN keeps the sign
    // A value as the one before (a run: an odometer, the usual type) takes its index without a lookup.
    if (v === last) {
      indexes[i] = lastIndex;
      continue;
    }
    let k = byValue.get(v);
    if (k === undefined) {
      k = byValue.size;
      bytes += typeof v === 'string' ? 4 + 3 * v.length : width; // strings: their UTF-8 bound
      if (k >= maxDistinct || bytes > MAX_DICTIONARY_BYTES) return undefined;
      byValue.set(v, k);
    }
    indexes[i] = k;
    last = v;
    lastIndex = k;
  }
  return { values: [...byValue.keys()], indexes };
}

/** PLAIN values [from, to) of a column kind, appended to `w`. */
function writePlain(w: ByteWriter, kind: ColumnKind, values: ArrayLike<string | number>, from: number, to: number): void {
  if (kind === 'string') {
    let bytes: Buffer | undefined;
    for (let i = from; i < to; i++) {
      const s = values[i] as string;
      w.ensure(4 + 3 * s.length); // UTF-8 takes at most 3 bytes a UTF-16 unit
      if (bytes?.buffer !== w.buffer) bytes = Buffer.from(w.buffer);
      const at = w.index;
      const length = bytes.write(s, at + 4);
      w.view.setUint32(at, length, true);
      w.index += 4 + length;
      w.offset += 4 + length;
    }
    return;
  }
  const width = kind === 'int32' ? 4 : 8;
  w.ensure(width * (to - from));
  const view = w.view;
  let at = w.index;
  for (let i = from; i < to; i++) {
    const v = values[i] as number;
    if (kind === 'double') view.setFloat64(at, v, true);
    else if (kind === 'int32') view.setInt32(at, v, true);
    else {
      // An exact integer (|v| < 2^53) as two's-complement int64, without a BigInt.
      const high = Math.floor(v / 4294967296);
      view.setUint32(at, v - high * 4294967296, true);
      view.setInt32(at + 4, high, true);
    }
    at += width;
  }
  w.offset += at - w.index;
  w.index = at;
}

/**
 * `values` RLE/bit-packed (hyparquet-writer's writeRleBitPackedHybrid, byte for byte); `same` says
 * that every value is the first: then they are one run, written without looking at each (the levels
 * of a column with no null, the indexes of a one-value dictionary).
 */
export function writeHybrid(w: ByteWriter, values: Uint8Array | Int32Array, width: number, same: boolean): number {
  const n = values.length;
  if (!same || n < 8) return writeRleBitPackedHybrid(w, values, width);
  const from = w.offset;
  const first = values[0]!;
  w.appendVarInt(n << 1);
  for (let j = 0; j < (width + 7) >> 3; j++) w.appendUint8((first >> (j << 3)) & 0xff);
  return w.offset - from;
}

function bitWidthOf(distinct: number): number {
  return Math.max(1, Math.ceil(Math.log2(distinct)));
}

/** Unsigned byte order of the UTF-8 encodings, as Parquet orders BYTE_ARRAY statistics. */
function compareUtf8(a: string, b: string): number {
  return a === b ? 0 : Buffer.compare(Buffer.from(a), Buffer.from(b));
}

function statisticsOf(c: BufferedColumn, rows: number, dictionary: Dictionary | undefined): Statistics {
  const statistics: Statistics = { null_count: BigInt(rows - c.count) };
  if (c.count === 0) return statistics;
  if (c.kind === 'string') {
    const values = (dictionary?.values ?? c.strings) as readonly string[];
    let min = values[0]!;
    let max = min;
    for (let i = 1; i < values.length; i++) {
      const v = values[i]!;
      if (compareUtf8(v, min) < 0) min = v;
      else if (compareUtf8(v, max) > 0) max = v;
    }
    return { ...statistics, min_value: min, max_value: max };
  }
  const [min, max] = c.uniform ? [c.numbers[0]!, c.numbers[0]!] : bounds(c.numbers, c.count);
  // The specification's signed zeros: -0 as a minimum, +0 as a maximum.
  return { ...statistics, min_value: min === 0 ? -0 : min, max_value: max === 0 ? 0 : max };
}

/** The least and the greatest of values[0, n) (n ≥ 1): a loop of its own, which V8 keeps to numbers (in statisticsOf it sampled 15 ns a value). */
function bounds(values: Float64Array, n: number): [number, number] {
  let min = values[0]!;
  let max = min;
  for (let i = 1; i < n; i++) {
    const v = values[i]!;
    if (v < min) min = v;
    else if (v > max) max = v;
  }
  return [min, max];
}

/** Writes a page (header, then body compressed as one block) and returns its uncompressed size with the header. */
function writePage(out: FileBytes, codec: PageCodec, body: ByteWriter, header: (compressed: number) => Parameters<typeof writePageHeader>[1]): number {
  const raw = body.getBytes();
  const compress = codec.codec === 'UNCOMPRESSED' ? undefined : codec.compressors[codec.codec];
  const compressed = compress ? compress(raw) : raw.slice(); // a copy: the body buffer is reused
  const head = new ByteWriter(64);
  writePageHeader(head, header(compressed.length));
  out.push(head.getBytes());
  out.push(compressed);
  return head.offset + raw.length;
}

function reset(w: ByteWriter): ByteWriter {
  w.index = 0;
  w.offset = 0;
  return w;
}

/**
 * One column chunk of a row group of `rows` rows: an optional dictionary page, then data
 * pages of up to PAGE_ROWS rows. Returns the chunk's metadata for the footer.
 */
export function writeColumnChunk(out: FileBytes, element: SchemaElement, c: BufferedColumn, rows: number, opts: ChunkOptions, body: ByteWriter): ColumnChunk {
  const start = out.offset;
  const { codec } = opts;
  const dictionary = dictionaryOf(c);
  let uncompressed = 0;
  let dictionaryPageOffset: bigint | undefined;
  if (dictionary) {
    dictionaryPageOffset = BigInt(out.offset);
    writePlain(reset(body), c.kind, dictionary.values, 0, dictionary.values.length);
    uncompressed += writePage(out, codec, body, (compressed) => ({
      type: 'DICTIONARY_PAGE',
      uncompressed_page_size: body.offset,
      compressed_page_size: compressed,
      dictionary_page_header: { num_values: dictionary.values.length, encoding: 'PLAIN' },
    }));
  }
  const encoding = dictionary ? 'RLE_DICTIONARY' : 'PLAIN';
  const values: ArrayLike<string | number> = c.kind === 'string' ? c.strings : c.numbers;
  const dataPageOffset = BigInt(out.offset);
  let pages = 0;
  let value = 0;
  for (let row = 0; row < rows; row += PAGE_ROWS) {
    pages++;
    const end = Math.min(rows, row + PAGE_ROWS);
    const defs = c.defs.subarray(row, end);
    // A page of the whole chunk holds all its values (the usual case: a row group fits a page).
    let present = end - row === rows ? c.count : 0;
    if (end - row !== rows) for (let i = 0; i < defs.length; i++) present += defs[i]!;
    reset(body);
    body.appendUint32(0); // the levels' length, set below
    const levels = writeHybrid(body, defs, 1, present === defs.length || present === 0);
    body.view.setUint32(0, levels, true);
    if (dictionary) {
      const width = bitWidthOf(dictionary.values.length);
      body.appendUint8(width);
      writeHybrid(body, dictionary.indexes.subarray(value, value + present), width, dictionary.values.length === 1);
    } else {
      writePlain(body, c.kind, values, value, value + present);
    }
    value += present;
    uncompressed += writePage(out, codec, body, (compressed) => ({
      type: 'DATA_PAGE',
      uncompressed_page_size: body.offset,
      compressed_page_size: compressed,
      data_page_header: { num_values: end - row, encoding, definition_level_encoding: 'RLE', repetition_level_encoding: 'RLE' },
    }));
  }
  const meta: ColumnMetaData = {
    type: element.type!,
    encodings: dictionary ? ['PLAIN', 'RLE', 'RLE_DICTIONARY'] : ['PLAIN', 'RLE'],
    path_in_schema: [element.name],
    codec: codec.codec,
    num_values: BigInt(rows),
    total_uncompressed_size: BigInt(uncompressed),
    total_compressed_size: BigInt(out.offset - start),
    data_page_offset: dataPageOffset,
    encoding_stats: [
      ...(dictionary ? [{ page_type: 'DICTIONARY_PAGE' as const, encoding: 'PLAIN' as const, count: 1 }] : []),
      { page_type: 'DATA_PAGE', encoding, count: pages },
    ],
  };
  if (dictionaryPageOffset !== undefined) meta.dictionary_page_offset = dictionaryPageOffset;
  if (opts.statistics) meta.statistics = statisticsOf(c, rows, dictionary);
  return { file_offset: BigInt(start), meta_data: meta };
}
