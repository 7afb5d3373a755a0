/**
 * Where the units of a fleet history run write: the merged stream, a gpx/kml document of
 * one piece per unit, or --out-dir files. Each says when a unit's reports count as out
 * (commit) and how the whole is acknowledged (see runs/delivery.ts for what is saved when).
 */
import type { Writable } from 'node:stream';
import type { HistoryItem } from '../api/history.js';
import { acknowledge, deliveryFailure, unreadBound, type Unread } from '../io/delivery/streams.js';
import type { HistorySink, UnitGroupedSink } from '../io/pages/geo/sink.js';
import type { OutDir } from '../io/delivery/outdir.js';
import type { Spool } from '../io/delivery/spool.js';
import type { LakeTarget } from '../lake/target.js';
import type { SavePolicy } from './delivery.js';

/** What a target needs of a unit. */
export interface UnitSlot {
  did: number;
  name?: string | undefined;
  /** Parts of the unit in --out-dir so far (from the checkpoint). */
  parts: number;
}

/** Where a unit's reports go, and what "done" means for them. */
export interface UnitWriter {
  write(items: readonly HistoryItem[]): Promise<void>;
  /** The unit's reply was read whole: its reports are out (flushed, or renamed into place). */
  commit(): Promise<void>;
  discard(): Promise<void>;
  /** The unit's parts in --out-dir after commit(). */
  readonly parts: number;
}

export interface Target {
  /**
   * 'unit': each unit lands in its place on its own (--out-dir); 'stream': the output is one
   * stream, acknowledged whole; 'run': every unit lands at once when end() publishes them
   * (--layout hive), and the units in it stay saved even when others failed.
   */
  readonly lands: 'unit' | 'stream' | 'run';
  /** A pipe or socket: acknowledged bytes may still wait there for their reader (runs/delivery). */
  readonly unread?: Unread;
  unit(s: UnitSlot): UnitWriter;
  /** Resolves once everything written so far was accepted by the target; a DeliveryError when it failed. */
  acknowledge(): Promise<void>;
  /** Closes the document (or puts the file in place) and acknowledges the whole. */
  end(): Promise<void>;
  cleanup(): Promise<void>;
  /** Files (or objects) put in place so far, where the target writes files (--out-dir). */
  readonly files?: number;
}

/** How the engine saves a run into this target: following saves each round, else by where units land. */
export function savePolicy(target: Target, following: boolean): SavePolicy {
  if (target.lands === 'unit') return 'per-unit';
  return following ? 'per-round' : 'at-end';
}

/** Where a stream's bytes go, as delivery sees it: stdout, or a file put in place when whole. */
export interface Channel {
  /** A pipe or socket: acknowledged bytes may still wait there for their reader (runs/delivery). */
  readonly unread?: Unread;
  /** Everything written so far was accepted (`sync`: and made durable); a DeliveryError when not. */
  acknowledge(sync: boolean): Promise<void>;
  /** The stream is whole: made durable and put in place (a file), the whole acknowledged. */
  finish(): Promise<void>;
}

/** stdout (or any stream of the process) as a channel: see io/delivery/streams acknowledge. */
export function streamChannel(stream: Writable): Channel {
  return {
    unread: unreadBound(stream),
    acknowledge: (sync) => acknowledge(stream, 'the output', sync),
    finish: () => acknowledge(stream, 'the output', true),
  };
}

/** A failed write is the target's failure (DeliveryError), not the unit's. */
const delivering = (p: Promise<void>): Promise<void> =>
  p.catch((err: unknown) => {
    throw deliveryFailure(err);
  });

/** The merged stream: batches written as they arrive, flushed (and checked) before the unit counts as done. */
export class StreamTarget implements Target {
  readonly lands = 'stream';

  constructor(
    private readonly sink: HistorySink,
    private readonly channel: Channel,
  ) {}

  get unread(): Unread | undefined {
    return this.channel.unread;
  }

  unit(s: UnitSlot): UnitWriter {
    const sink = this.sink;
    return {
      write: (items) => delivering(sink.write(items)),
      commit: async () => {
        await delivering(sink.flush());
        await this.channel.acknowledge(false);
      },
      discard: async () => undefined,
      parts: s.parts,
    };
  }

  acknowledge(): Promise<void> {
    return this.channel.acknowledge(true);
  }

  async end(): Promise<void> {
    await delivering(this.sink.end());
    await this.channel.finish();
  }

  async cleanup(): Promise<void> {}
}

/** gpx/kml: a unit is spooled, then written whole as its track or folder, one unit at a time; a unit without reports is left out. */
export class GroupedTarget implements Target {
  readonly lands = 'stream';
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly sink: UnitGroupedSink,
    private readonly spool: Spool,
    private readonly channel: Channel,
  ) {}

  get unread(): Unread | undefined {
    return this.channel.unread;
  }

  acknowledge(): Promise<void> {
    return this.channel.acknowledge(true);
  }

  unit(s: UnitSlot): UnitWriter {
    const file = this.spool.file(s.did);
    let name = s.name ?? '';
    return {
      write: (items) => {
        if (name === '' && typeof items[0]?.feature.properties.name === 'string') name = items[0].feature.properties.name;
        return file.write(items);
      },
      commit: async () => {
        await file.close();
        if (file.empty) return; // a unit without reports has no track
        const turn = this.queue.then(async () => {
          await delivering(this.sink.writeUnit(name || `Unit ${s.did}`, file.read()));
          await delivering(this.sink.flush());
          await this.channel.acknowledge(false);
        });
        this.queue = turn.catch(() => undefined);
        try {
          await turn;
        } finally {
          await file.remove();
        }
      },
      discard: () => file.remove(),
      parts: s.parts,
    };
  }

  async end(): Promise<void> {
    await delivering(this.sink.end());
    await this.channel.finish();
  }

  cleanup(): Promise<void> {
    return this.spool.remove();
  }
}

/** --out-dir: a unit's files are renamed into place when whole; with a checkpoint each run's files are a new part. */
export class DirTarget implements Target {
  readonly lands = 'unit';
  readonly pipe = false;
  files = 0;

  constructor(
    private readonly dir: OutDir,
    private readonly incremental: boolean,
  ) {}

  unit(s: UnitSlot): UnitWriter {
    const part = this.incremental ? s.parts + 1 : 1;
    const files = this.dir.unit(s.did, part, s.name || `Unit ${s.did}`);
    let parts = s.parts;
    return {
      write: (items) => files.write(items),
      commit: async () => {
        const written = await files.commit();
        this.files += written.length;
        if (written.length > 0 && this.incremental) parts = part;
      },
      discard: () => files.discard(),
      get parts() {
        return parts;
      },
    };
  }

  /** Each file is synced before it is renamed into place: a unit that committed is on disk. */
  async acknowledge(): Promise<void> {}
  async end(): Promise<void> {}
  async cleanup(): Promise<void> {}
}

/** The lake as a fleet run's target: units land together when end() publishes them (runs/delivery.ts saves them then). */
export function lakeRunTarget(lake: LakeTarget): Target {
  return {
    lands: 'run',
    unit: (s) => lake.unit(s),
    acknowledge: async () => undefined,
    end: () => lake.end(),
    cleanup: () => lake.cleanup(),
    get files() {
      return lake.files;
    },
  };
}
