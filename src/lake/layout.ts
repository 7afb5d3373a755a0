/**
 * The lake's names: `day=YYYY-MM-DD/part-<run>-<n>.<ext>` (UTC days) or, by unit,
 * `did=<did>/part-<run>-<n>.<ext>`. Hive-style folders, so DuckDB, Spark, Trino, Athena and
 * pyarrow read the tree as one table with a `day` (or `did`) column. A run id sorts by time
 * and is unique across workers writing the same prefix at once (the shards of a fleet).
 */
import { randomBytes } from 'node:crypto';
import type { HistoryItem } from '../api/history.js';
import { locationScheme } from '../io/location.js';

export type LakePartition = 'day' | 'unit';

/** Default --max-file-size: the size engines read best from object storage. */
export const DEFAULT_MAX_FILE_BYTES = 128 * 1024 * 1024;


/** Hive's name for a partition whose value is missing (a report without a date): readers take it as null. */
export const NULL_PARTITION = '__HIVE_DEFAULT_PARTITION__';

/** `20261124T083000Z-1a2b3c`: the start time, then randomness for runs that start together. */
export function newRunId(nowMs: number, random: () => string = () => randomBytes(3).toString('hex')): string {
  const stamp = new Date(nowMs).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  return `${stamp}-${random()}`;
}

/** The partition folder a report belongs in: `day=2026-11-24`, or `did=2004` by unit. */
export function partitionOf(item: HistoryItem, did: number, by: LakePartition): string {
  if (by === 'unit') return `did=${did}`;
  const d = item.feature.properties.date;
  return typeof d === 'number' && Number.isFinite(d) && Math.abs(d) < 8.64e12 ? `day=${new Date(d * 1000).toISOString().slice(0, 10)}` : `day=${NULL_PARTITION}`;
}

export function partKey(partition: string, runId: string, n: number, ext: string): string {
  return `${partition}/part-${runId}-${n}.${ext}`;
}

/** The extensions a part may have: those of the formats history writes to --out-dir. */
const PART_EXTENSIONS = 'tsv|json|ndjson|csv|yaml|geojson|gpx|kml|parquet|html';
const RUN_ID = String.raw`\d{8}T\d{6}Z-[0-9a-f]{6}`;
/** What partKey writes: a day (as toISOString writes it, years past 9999 included), the null partition, or a did. */
const PART_KEY = new RegExp(String.raw`^(?:day=(?:\d{4}|[+-]\d{6})-\d{2}-\d{2}|day=${NULL_PARTITION}|did=[1-9]\d*)/part-(${RUN_ID})-(?:0|[1-9]\d*)\.(?:${PART_EXTENSIONS})$`);

/** A run id as newRunId makes it. */
export function isRunId(text: string): boolean {
  return new RegExp(`^${RUN_ID}$`).test(text);
}

/**
 * A key this layout writes for `runId` (partKey's shape exactly): what a checkpoint names
 * is removed only when it is one, so a forged record cannot name any other file.
 */
export function isPartKeyOf(key: string, runId: string): boolean {
  return PART_KEY.exec(key)?.[1] === runId;
}

/** A unit's reports of one partition in date order (stable: equal dates keep the service's order; undated last). */
export function byDate(items: HistoryItem[]): HistoryItem[] {
  const date = (i: HistoryItem): number => {
    const d = i.feature.properties.date;
    return typeof d === 'number' && Number.isFinite(d) ? d : Infinity;
  };
  return items.sort((a, b) => {
    const x = date(a);
    const y = date(b);
    return x === y ? 0 : x < y ? -1 : 1;
  });
}

/** Schemes --out-dir takes: a local path (no scheme) or s3://; any other is refused (exit 2). */
export function outDirScheme(outDir: string): 'local' | 's3' {
  return locationScheme(outDir, '--out-dir', ['s3']);
}
