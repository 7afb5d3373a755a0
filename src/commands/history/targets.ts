/**
 * Where the units of a fleet history run write: the merged stream, a gpx/kml document of
 * one piece per unit, or --out-dir files. Each says when a unit's reports count as out.
 */
import type { HistoryItem } from '../../api/history.js';
import type { HistorySink, UnitGroupedSink } from '../../io/geo/sink.js';
import type { OutDir } from '../../io/outdir.js';
import type { Spool } from '../../io/spool.js';
import type { LakeTarget } from '../../lake/target.js';

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
  /** `ack` records the unit's progress; a target that `acknowledges` calls it itself, once the unit's reports are out. */
  unit(s: UnitSlot, ack: () => void): UnitWriter;
  readonly acknowledges?: boolean;
  end(): Promise<void>;
  cleanup(): Promise<void>;
}

/** The merged stream: batches written as they arrive, flushed before the unit counts as done. */
export class StreamTarget implements Target {
  constructor(private readonly sink: HistorySink) {}

  unit(s: UnitSlot): UnitWriter {
    const sink = this.sink;
    return { write: (items) => sink.write(items), commit: () => sink.flush(), discard: async () => undefined, parts: s.parts };
  }

  end(): Promise<void> {
    return this.sink.end();
  }

  async cleanup(): Promise<void> {}
}

/** gpx/kml: a unit is spooled, then written whole as its track or folder, one unit at a time; a unit without reports is left out. */
export class GroupedTarget implements Target {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly sink: UnitGroupedSink,
    private readonly spool: Spool,
  ) {}

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
          await this.sink.writeUnit(name || `Unit ${s.did}`, file.read());
          await this.sink.flush();
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

  end(): Promise<void> {
    return this.sink.end();
  }

  cleanup(): Promise<void> {
    return this.spool.remove();
  }
}

/** --out-dir: a unit's files are renamed into place when whole; with a checkpoint each run's files are a new part. */
export class DirTarget implements Target {
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
        if (written.length > 0 && this.incremental) parts = part;
      },
      discard: () => files.discard(),
      get parts() {
        return parts;
      },
    };
  }

  async end(): Promise<void> {}
  async cleanup(): Promise<void> {}
}

/** --layout hive: fleet-wide parts, published when every unit is in; units are acked only then. */
export class LakeAdapter implements Target {
  readonly acknowledges = true;

  constructor(private readonly lake: LakeTarget) {}

  unit(s: UnitSlot, ack: () => void): UnitWriter {
    return this.lake.unit(s, ack);
  }

  end(): Promise<void> {
    return this.lake.end();
  }

  cleanup(): Promise<void> {
    return this.lake.cleanup();
  }
}
