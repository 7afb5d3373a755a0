/**
 * The lake and Parquet as the engine drives them: a command names its plan (--out-dir, --layout,
 * --compression) and gets its storage, the recovery of a killed run's parts, the lake target and
 * the Parquet sinks from here. Each module of the lake loads only when a run asks for it; what is
 * imported statically are the small declarations the commands' options name.
 */
import type { CutReader, HistoryQuery } from '../api/history.js';
import type { IO } from '../io/delivery/streams.js';
import type { HistorySink } from '../io/pages/geo/sink.js';
import type { Recovered } from '../lake/journal.js';
import type { LakePartition } from '../lake/layout.js';
import type { Compression, PageCodec } from '../lake/parquet/codecs.js';
import type { ParquetFileSink } from '../lake/parquet/index.js';
import type { S3Limits } from '../lake/s3/client.js';
import type { LakeStorage } from '../lake/storage.js';
import type { RunCheckpoint } from './checkpoint.js';
import type { Target } from './targets.js';

export { COMPRESSIONS, DEFAULT_COMPRESSION, type Compression } from '../lake/parquet/codecs.js';
export { DEFAULT_MAX_FILE_BYTES, outDirScheme, type LakePartition } from '../lake/layout.js';
export type { LakeStorage, Recovered };

/** --out-dir DIR (a directory or s3://bucket/prefix) as a lake of `ext` files. */
export async function openLake(dir: string, ext: string, env: Readonly<Record<string, string | undefined>>, limits: S3Limits): Promise<LakeStorage> {
  return (await import('../lake/storage.js')).openStorage(dir, ext, env, limits);
}

/** The lake of a run, checked writable before any request; closed again when it is not. */
export async function prepareLake(dir: string, ext: string, env: Readonly<Record<string, string | undefined>>, limits: S3Limits): Promise<LakeStorage> {
  const storage = await openLake(dir, ext, env, limits);
  try {
    await storage.prepare();
  } catch (err) {
    await storage.close();
    throw err;
  }
  return storage;
}

/**
 * A run killed while publishing parts left them recorded in its checkpoint: they go before
 * anything is fetched again. `storage` is the run's lake, if it has one; otherwise the recorded
 * parts' lake is opened by `open` for this alone.
 */
export async function recoverLakeParts(
  checkpoint: RunCheckpoint, storage: LakeStorage | undefined, open: (() => Promise<LakeStorage>) | undefined,
): Promise<Recovered | undefined> {
  const { recoverPending } = await import('../lake/journal.js');
  const here = storage ?? (await open?.());
  try {
    return await recoverPending(checkpoint, here);
  } finally {
    if (here !== storage) await here?.close();
  }
}

export interface LakeTargetOptions {
  storage: LakeStorage;
  /** Records the run's parts as they are published, so a killed run's are found again. */
  checkpoint: RunCheckpoint | undefined;
  partition: LakePartition;
  ext: string;
  maxFileBytes: number;
  nowMs: number;
  /** The run's format on a new part. */
  openSink(io: IO): Promise<HistorySink>;
}

/** --layout hive: every unit of the run into parts that land together when the run ends. */
export async function lakeTarget(o: LakeTargetOptions): Promise<Target> {
  const [{ LakeTarget }, { journalOf }, { newRunId }, { lakeRunTarget }] = await Promise.all([
    import('../lake/target.js'), import('../lake/journal.js'), import('../lake/layout.js'), import('./targets.js'),
  ]);
  const runId = newRunId(o.nowMs);
  // The out-dir recorded absolute: a re-run from another directory must find the same parts.
  const journal = o.checkpoint ? journalOf(o.checkpoint, runId, await o.storage.home()) : undefined;
  const settings = { partition: o.partition, ext: o.ext, maxFileBytes: o.maxFileBytes, runId };
  return lakeRunTarget(new LakeTarget({ storage: o.storage, settings, journal, openSink: o.openSink }));
}

/** Makes readers of each report's Parquet cells as a reply is cut (lake/parquet/cut-reader.ts): each one reply at a time. */
export async function parquetCutReaders(): Promise<() => CutReader> {
  const parquet = await import('../lake/parquet/index.js');
  return () => new parquet.ParquetCutReader();
}

/** What a run's Parquet files of history say of themselves. */
export interface ParquetOptions {
  version: string;
  compression: Compression;
  /** The run's window (a resumed run's is its checkpoint's) and the time, as each file is opened. */
  window(): HistoryQuery;
  now(): number;
}

/** Parquet sinks of one run, on a stream or into a file put in place when whole; the page codec is made once for all. */
export function parquetSinks(o: ParquetOptions): { stream(stdout: IO['stdout'], without?: readonly string[]): Promise<HistorySink>; file(path: string): Promise<ParquetFileSink> } {
  let codec: Promise<PageCodec> | undefined;
  const opened = async () => {
    const parquet = await import('../lake/parquet/index.js');
    codec ??= parquet.pageCodec(o.compression);
    const options = { createdBy: `trackctl ${o.version}`, codec: await codec, metadata: parquet.historyMetadata(o.version, o.window(), o.now()) };
    return { parquet, options };
  };
  return {
    async stream(stdout, without) {
      const { parquet, options } = await opened();
      return parquet.openParquetStream(stdout, { ...options, without });
    },
    async file(path) {
      const { parquet, options } = await opened();
      return parquet.openParquetFile(path, options);
    },
  };
}
