/**
 * --layout hive: every unit of the run in fleet-wide files, one partition (a UTC day, or a
 * unit) at a time, units in did order and each unit's reports in date order, a new part
 * started when one reaches --max-file-size.
 *
 * Units arrive side by side, in any order, so each unit's reports are spooled per
 * partition while it is fetched; the parts are written when every unit is in (end()).
 *
 * Exactly once (with a checkpoint, through the journal): all parts are staged first; the
 * journal records their keys; they are published (renamed or uploaded); only then does
 * each unit's progress move, in the same checkpoint save that clears the record.
 * A run killed between the two saves leaves its keys recorded, and the next run removes
 * those parts before fetching the same reports again. Staged parts of a killed run were
 * never visible. A unit that failed is in no part, and its progress does not move.
 */
import type { WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { HistoryItem } from '../api/history.js';
import { runPool } from '../pool.js';
import type { HistorySink } from '../io/pages/geo/sink.js';
import { fileIO } from '../io/delivery/outdir.js';
import { makeSpoolDir, SpoolFile, type SpoolDir } from '../io/delivery/spool.js';
import type { IO } from '../io/delivery/streams.js';
import type { LakeJournal } from './journal.js';
import { byDate, partitionOf, partKey, type LakePartition } from './layout.js';
import type { LakeStorage, StagedPart } from './storage.js';

/** Reports handed to a part's sink at a time. */
const BATCH = 2000;
/** Parts published at once (uploads to S3 overlap; renames are quick either way). */
const PUBLISH_CONCURRENCY = 4;

export interface LakeSettings {
  partition: LakePartition;
  ext: string;
  maxFileBytes: number;
  runId: string;
}

/** What the fleet loop needs of a unit (the same shape as its other targets). */
export interface LakeUnitWriter {
  write(items: readonly HistoryItem[]): Promise<void>;
  /** The unit's reply was read whole: it is spooled, and goes into this run's parts. */
  commit(): Promise<void>;
  discard(): Promise<void>;
  readonly parts: number;
}

export interface LakeOptions {
  storage: LakeStorage;
  settings: LakeSettings;
  /** Opens the run's format on a new file (the parquet or text sink over `io`). */
  openSink(io: IO): Promise<HistorySink>;
  journal?: LakeJournal | undefined;
}

interface SpooledUnit {
  did: number;
  files: Map<string, SpoolFile>;
}

export class LakeTarget {
  private spoolDir: Promise<SpoolDir> | undefined;
  private readonly units: SpooledUnit[] = [];
  private staged: StagedPart[] = [];
  private published = 0;
  /** Reports written into parts, and the parts' keys (for the summary and tests). */
  reports = 0;
  readonly keys: string[] = [];

  constructor(private readonly opts: LakeOptions) {}

  /** A unit's writer; its progress moves only after every part holding its reports is published (runs/delivery.ts). */
  unit(s: { did: number; parts: number }): LakeUnitWriter {
    const files = new Map<string, SpoolFile>();
    const by = this.opts.settings.partition;
    return {
      write: async (items) => {
        const dir = (await (this.spoolDir ??= makeSpoolDir('lake-spool'))).path;
        const groups = new Map<string, HistoryItem[]>();
        for (const item of items) {
          const p = partitionOf(item, s.did, by);
          const list = groups.get(p);
          if (list) list.push(item);
          else groups.set(p, [item]);
        }
        for (const [p, list] of groups) {
          let file = files.get(p);
          if (!file) {
            file = new SpoolFile(join(dir, `${s.did}.${files.size}.ndjson`));
            files.set(p, file);
          }
          await file.write(list);
        }
      },
      commit: async () => {
        for (const f of files.values()) await f.close();
        this.units.push({ did: s.did, files });
      },
      discard: async () => {
        for (const f of files.values()) await f.remove();
      },
      parts: s.parts,
    };
  }

  /** Parts published by this run. */
  get files(): number {
    return this.published;
  }

  /** Writes, stages and publishes the parts; the units in them are saved after (runs/delivery.ts). */
  async end(): Promise<void> {
    await this.writeParts();
    const { journal } = this.opts;
    if (this.staged.length > 0) {
      await journal?.publishing(this.staged.map((p) => p.key));
      try {
        await runPool(this.staged, PUBLISH_CONCURRENCY, async (part) => {
          await part.publish();
          this.published++;
        });
      } catch (err) {
        await this.rollBack();
        throw err;
      }
    }
    if (this.staged.length > 0) await journal?.published();
    this.staged = [];
  }

  /** A publish failed: the parts already out are removed, so none of the run is half there. */
  private async rollBack(): Promise<void> {
    if (this.published === 0) return;
    let removed = true;
    for (const part of this.staged) {
      await this.opts.storage.remove(part.key).catch(() => {
        removed = false;
      });
    }
    // A part that could not be removed stays recorded: the next run removes it.
    if (removed) await this.opts.journal?.rolledBack();
  }

  private async writeParts(): Promise<void> {
    const partitions = new Map<string, SpooledUnit[]>();
    for (const u of [...this.units].sort((a, b) => a.did - b.did)) {
      for (const p of u.files.keys()) {
        const list = partitions.get(p);
        if (list) list.push(u);
        else partitions.set(p, [u]);
      }
    }
    for (const p of [...partitions.keys()].sort()) await this.writePartition(p, partitions.get(p)!);
  }

  private async writePartition(partition: string, units: readonly SpooledUnit[]): Promise<void> {
    const { settings, storage } = this.opts;
    let n = 0;
    let open: { part: StagedPart; sink: HistorySink; close: () => Promise<void>; bytes: () => number } | undefined;
    const finish = async (): Promise<void> => {
      if (!open) return;
      const o = open;
      open = undefined;
      await o.sink.end();
      await o.close();
    };
    try {
      for (const u of units) {
        const file = u.files.get(partition)!;
        const items: HistoryItem[] = [];
        for await (const batch of file.read()) items.push(...batch);
        byDate(items);
        for (let i = 0; i < items.length; i += BATCH) {
          if (!open) {
            const part = await storage.stage(partKey(partition, settings.runId, n++, settings.ext));
            this.staged.push(part);
            this.keys.push(part.key);
            const out = fileIO(part.path);
            const stream = out.io.stdout as WriteStream;
            open = { part, sink: await this.opts.openSink(out.io), close: out.close, bytes: () => stream.bytesWritten + stream.writableLength };
          }
          const batch = items.slice(i, i + BATCH);
          await open.sink.write(batch);
          this.reports += batch.length;
          if (open.bytes() >= settings.maxFileBytes) await finish();
        }
        await file.remove();
      }
      await finish();
    } catch (err) {
      await open?.close().catch(() => undefined);
      throw err;
    }
  }

  /** Drops what was not published (staged files, spooled reports) and closes the storage. */
  async cleanup(): Promise<void> {
    for (const part of this.staged) await part.discard();
    this.staged = [];
    if (this.spoolDir) await (await this.spoolDir).remove();
    await this.opts.storage.close();
  }
}
