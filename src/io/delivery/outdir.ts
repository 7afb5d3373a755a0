/**
 * --out-dir DIR: one complete file per unit (`<did>.<ext>`) or per unit and UTC day
 * (`<did>/<YYYY-MM-DD>.<ext>`). Each file is written under a temporary name beside its
 * place (`.<name>.<pid>-<random>.tmp`), flushed to disk, and renamed into place only when the
 * unit's reply was read whole; a unit that fails leaves nothing behind.
 *
 * Part numbers: a unit's first part is `<did>.<ext>`; with --checkpoint, each later run
 * that brings it new reports adds `<did>.part<N>.<ext>` (N = that unit's Nth part).
 * The part number comes from the checkpoint, so a run killed after renaming but before
 * saving the checkpoint is redone under the same names, replacing those files with a
 * superset of what they held: every report ends up in exactly one file.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { HistoryItem } from '../../api/history.js';
import { localIOError, UsageError } from '../../errors.js';
import { DayClock } from '../../reports/days.js';
import type { HistorySink } from '../pages/geo/sink.js';
import type { IO } from './streams.js';
import { syncDir } from '../../atomic-file.js';
import { processAlive } from '../../lock.js';

export type Partition = 'unit' | 'day';

/** A sink writing into an open file; close() runs after sink.end() and makes the bytes durable. */
export interface FileSink {
  sink: HistorySink;
  close(): Promise<void>;
}

/** Opens a sink of the chosen format on a new file (text formats through fileIO; parquet its own way). */
export type OpenFileSink = (path: string, title: string) => Promise<FileSink>;

/**
 * mkdir -p, one level at a time: Node's own recursive mkdir never settles for some
 * paths it cannot create (under /proc, seen on Node 20).
 */
export async function makeDir(dir: string): Promise<void> {
  try {
    await mkdir(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT' || dirname(dir) === dir) throw err;
    await makeDir(dirname(dir));
    await mkdir(dir).catch((again: NodeJS.ErrnoException) => {
      if (again.code !== 'EEXIST') throw again;
    });
  }
}

/**
 * Creates DIR and proves it can be written, before anything is fetched; removes the
 * temporary files that runs no longer alive left in DIR and its unit folders (SIGKILL).
 */
export async function prepareOutDir(dir: string): Promise<void> {
  const probe = join(dir, `.trackctl-probe.${process.pid}-0.tmp`);
  try {
    await makeDir(dir);
    const handle = await open(probe, 'w');
    await handle.close();
    await unlink(probe);
  } catch (err) {
    throw new UsageError(`--out-dir ${dir} cannot be written: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  await Promise.all([sweep(dir), ...entries.filter((e) => e.isDirectory() && /^[1-9]\d*$/.test(e.name)).map((e) => sweep(join(dir, e.name)))]);
}

/** The day of a report in the clock's zone ('undated' when it has no usable date). */
export function reportDay(item: HistoryItem, clock: DayClock): string {
  const d = item.feature.properties.date;
  return typeof d === 'number' && Number.isFinite(d) ? clock.dayOf(d).key : 'undated';
}

export function partName(base: string, part: number, ext: string): string {
  return part <= 1 ? `${base}.${ext}` : `${base}.part${part}.${ext}`;
}

const TMP = /^\..+\.(\d+)-[0-9a-f]+\.tmp$/;

/**
 * Temporary files of runs that were killed are removed before this run writes into a
 * folder: those of a pid that is gone, and those of our own pid (a killed run's pid, reused;
 * this run's own are made only after the sweep of their folder).
 */
export async function sweep(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  await Promise.all(
    names.map(async (name) => {
      const pid = TMP.exec(name)?.[1];
      if (pid !== undefined && (Number(pid) === process.pid || !processAlive(Number(pid)))) await unlink(join(dir, name)).catch(() => undefined);
    }),
  );
}


export class OutDir {
  /** Each folder is made and swept once, before anything of this run is written there. */
  private readonly ready = new Map<string, Promise<void>>();

  constructor(
    readonly dir: string,
    readonly ext: string,
    readonly partition: Partition,
    private readonly openSink: OpenFileSink,
    /** --partition day: the zone of the days (the invocation's; the lake's day= folders are UTC, elsewhere). */
    readonly zone: string,
  ) {}

  /** The files of one unit's part. */
  unit(did: number, part: number, title: string): UnitFiles {
    return new UnitFiles(this, did, part, title);
  }

  /** The folder a unit's files go to, created and swept once per run. */
  async folderOf(did: number): Promise<string> {
    const folder = this.partition === 'day' ? join(this.dir, String(did)) : this.dir;
    let ready = this.ready.get(folder);
    if (!ready) {
      ready = makeDir(folder).then(() => sweep(folder));
      this.ready.set(folder, ready);
    }
    await ready;
    return folder;
  }

  open(path: string, title: string): Promise<FileSink> {
    return this.openSink(path, title);
  }
}

interface OpenFile {
  path: string;
  tmp: string;
  file: FileSink;
}

export class UnitFiles {
  private readonly files = new Map<string, OpenFile>();
  /** A clock per unit: it keeps the day it found last, and a unit's reports come in date order. */
  private clock: DayClock | undefined;
  count = 0;

  constructor(
    private readonly out: OutDir,
    private readonly did: number,
    private readonly part: number,
    private readonly title: string,
  ) {}

  async write(items: readonly HistoryItem[]): Promise<void> {
    if (items.length === 0) return;
    if (this.out.partition === 'unit') return this.writeTo(String(this.did), items);
    const byDay = new Map<string, HistoryItem[]>();
    for (const item of items) {
      const day = reportDay(item, (this.clock ??= new DayClock(this.out.zone)));
      const list = byDay.get(day);
      if (list) list.push(item);
      else byDay.set(day, [item]);
    }
    for (const [day, list] of byDay) await this.writeTo(day, list);
  }

  private async writeTo(base: string, items: readonly HistoryItem[]): Promise<void> {
    let f = this.files.get(base);
    if (!f) {
      const folder = await this.out.folderOf(this.did);
      const name = partName(base, this.part, this.out.ext);
      const path = join(folder, name);
      const tmp = join(folder, `.${name}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
      f = { path, tmp, file: await this.out.open(tmp, this.title) };
      this.files.set(base, f);
    }
    await f.file.sink.write(items);
    this.count += items.length;
  }

  /** Ends every file, makes it durable and renames it into place. Returns the files written. */
  async commit(): Promise<string[]> {
    const done: string[] = [];
    for (const f of this.files.values()) {
      await f.file.sink.end();
      await f.file.close();
    }
    for (const f of this.files.values()) {
      await rename(f.tmp, f.path);
      done.push(f.path);
    }
    if (done.length > 0) await syncDir(await this.out.folderOf(this.did));
    return done;
  }

  /** Drops the unit's temporary files (its reply failed). */
  async discard(): Promise<void> {
    for (const f of this.files.values()) {
      await f.file.close().catch(() => undefined);
      await unlink(f.tmp).catch(() => undefined);
    }
  }
}


/** An IO whose stdout is a new file: the text formats' sinks write through it unchanged. */
export function fileIO(path: string): { io: IO; close(): Promise<void> } {
  const stream: WriteStream = createWriteStream(path, { flags: 'wx', mode: 0o644 });
  let failure: Error | undefined;
  stream.on('error', (err) => {
    failure ??= err;
  });
  const write = (text: string | Uint8Array): Promise<void> =>
    new Promise((resolve, reject) => {
      if (failure) return reject(localIOError(failure, path));
      if (stream.write(text, (err) => err && reject(localIOError(err, path)))) resolve();
      else stream.once('drain', resolve);
    });
  const io: IO = {
    stdout: stream,
    get stderr(): never {
      throw new Error('a file output has no stderr');
    },
    get stdin(): never {
      throw new Error('a file output has no stdin');
    },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    columns: () => 80,
    out: write,
    // The reports as sent go to the file as bytes, as they go to stdout: no text decoded and encoded again.
    outBytes: write,
    err: () => undefined,
    flush: () => write(''),
  };
  return {
    io,
    close: async () => {
      if (!stream.closed) {
        await new Promise<void>((resolve, reject) => {
          stream.end(() => resolve());
          stream.once('error', reject);
        });
      }
      if (failure) throw localIOError(failure, path);
      const handle = await open(path, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
  };
}
