/**
 * --compression for Parquet: the page codec and the function that compresses a page.
 * snappy is hyparquet-writer's; gzip is node:zlib's; zstd is node:zlib's where Node has
 * it (22.15 and later) and otherwise @bokuweb/zstd-wasm, loaded only when zstd is asked for.
 * Level 3 is zstd's own default: about snappy's speed here with gzip's size.
 */
/** A page's compressor, by codec (none for UNCOMPRESSED). */
type Compressors = Partial<Record<'ZSTD' | 'GZIP' | 'SNAPPY', (input: Uint8Array) => Uint8Array>>;

export const COMPRESSIONS = ['zstd', 'snappy', 'gzip', 'none'] as const;
export type Compression = (typeof COMPRESSIONS)[number];
export const DEFAULT_COMPRESSION: Compression = 'zstd';

type Codec = 'ZSTD' | 'SNAPPY' | 'GZIP' | 'UNCOMPRESSED';

/** What the writer takes: the codec named in the file and its compressor. */
export interface PageCodec {
  codec: Codec;
  compressors: Compressors;
}

const ZSTD_LEVEL = 3;

type ZlibWithZstd = typeof import('node:zlib') & { zstdCompressSync?: (b: Uint8Array, o?: object) => Buffer; constants: { ZSTD_c_compressionLevel?: number } };

/**
 * @bokuweb/zstd-wasm's init() instantiates its module again on every call, and its promise
 * settles before the new instance is in place: a second call mid-export swaps the memory under
 * a compression in progress (corrupt frames). So it is called once per process.
 */
let wasmZstd: Promise<(b: Uint8Array) => Uint8Array> | undefined;

async function loadWasmZstd(): Promise<(b: Uint8Array) => Uint8Array> {
  const zstd = await import('@bokuweb/zstd-wasm');
  await zstd.init();
  return (b) => zstd.compress(b, ZSTD_LEVEL);
}

async function zstdCompressor(): Promise<(b: Uint8Array) => Uint8Array> {
  const zlib = (await import('node:zlib')) as ZlibWithZstd;
  const level = zlib.constants.ZSTD_c_compressionLevel;
  if (zlib.zstdCompressSync !== undefined && level !== undefined) {
    const compress = zlib.zstdCompressSync;
    const params = { params: { [level]: ZSTD_LEVEL } };
    return (b) => compress(b, params);
  }
  return (wasmZstd ??= loadWasmZstd());
}

export async function pageCodec(compression: Compression): Promise<PageCodec> {
  switch (compression) {
    case 'none':
      return { codec: 'UNCOMPRESSED', compressors: {} };
    case 'snappy': {
      const { snappyCompress } = await import('hyparquet-writer/src/snappy.js');
      return { codec: 'SNAPPY', compressors: { SNAPPY: snappyCompress } };
    }
    case 'gzip': {
      const { gzipSync } = await import('node:zlib');
      return { codec: 'GZIP', compressors: { GZIP: (b) => gzipSync(b) } };
    }
    case 'zstd':
      return { codec: 'ZSTD', compressors: { ZSTD: await zstdCompressor() } };
  }
}
