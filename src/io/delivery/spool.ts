/**
 * A unit's reports kept on disk until they can be written whole: a merged GPX or KML
 * document holds each unit as one track or folder, while the units arrive side by side.
 * One feature a line, in a private temporary folder removed at the end.
 *
 * Every spool folder (these, the lake's, S3's staging) is named after its owner,
 * `trackctl-<kind>-<host>-<pid>-<start>-XXXXXX`: removed at the end of the run, on SIGINT or
 * SIGTERM (signal-cleanup.ts), and after a SIGKILL by the next run that makes one, which
 * sees its owner gone (process-identity.ts). Another host's folders (a shared /tmp) are
 * never judged.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, readdirSync, rmSync, type WriteStream } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { HistoryItem } from '../../api/history.js';
import { tolerantFeature } from '../../api/tolerant.js';
import type { ReportFeature } from '../../api/types.js';
import { ownId, processAlive } from '../../process-identity.js';
import { cleanUpOnSignal } from '../../signal-cleanup.js';
import { featureLine } from '../pages/geo/sink.js';

const BATCH = 1000;

/** A private temporary folder of this run. */
export interface SpoolDir {
  readonly path: string;
  remove(): Promise<void>;
}

const hostTag = (): string => createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
/** `trackctl-<kind>-<host>-<pid>-<start or x>-XXXXXX` (mkdtemp's six characters). */
const SPOOL_NAME = /^trackctl-[a-z-]+?-([0-9a-f]{8})-(\d+)-(\d+|x)-[A-Za-z0-9]{6}$/;
let swept: Promise<void> | undefined;

/** Removes the spool folders of this host whose owner is gone (killed before it could). */
async function sweepSpools(): Promise<void> {
  const dir = tmpdir();
  const host = hostTag();
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const m = SPOOL_NAME.exec(name);
      if (!m || m[1] !== host || processAlive({ pid: Number(m[2]), start: m[3] === 'x' ? undefined : Number(m[3]) })) return;
      // Another user's folder in a shared /tmp cannot be removed: not ours to fail on.
      await rm(join(dir, name), { recursive: true, force: true }).catch(() => undefined);
    }),
  );
}

/** A new spool folder, named after this process (see the top of this file). */
export async function makeSpoolDir(kind: string): Promise<SpoolDir> {
  const me = ownId();
  const name = `trackctl-${kind}-${hostTag()}-${me.pid}-${me.start ?? 'x'}-`;
  const dir = tmpdir();
  let made: string | undefined;
  // Registered before the folder exists: a signal after mkdtemp made it, before its path came back here, finds it by its name.
  const drop = cleanUpOnSignal(() => {
    const paths = made === undefined ? readdirSync(dir).filter((n) => n.startsWith(name)).map((n) => join(dir, n)) : [made];
    for (const p of paths) rmSync(p, { recursive: true, force: true });
  });
  try {
    await (swept ??= sweepSpools());
    made = await mkdtemp(join(dir, name));
  } catch (err) {
    drop();
    throw err;
  }
  const path = made;
  return {
    path,
    async remove() {
      drop();
      await rm(path, { recursive: true, force: true });
    },
  };
}

export class Spool {
  private constructor(private readonly dir: SpoolDir) {}

  static async create(): Promise<Spool> {
    return new Spool(await makeSpoolDir('spool'));
  }

  file(did: number): SpoolFile {
    return new SpoolFile(join(this.dir.path, `${did}.ndjson`));
  }

  remove(): Promise<void> {
    return this.dir.remove();
  }
}

export class SpoolFile {
  private stream: WriteStream | undefined;

  constructor(private readonly path: string) {}

  /** Nothing was written. */
  get empty(): boolean {
    return this.stream === undefined;
  }

  write(items: readonly HistoryItem[]): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    this.stream ??= createWriteStream(this.path);
    const text = items.map((item) => `${featureLine(item)}\n`).join('');
    const s = this.stream;
    return new Promise((resolve, reject) => {
      if (s.write(text, (err) => err && reject(err))) resolve();
      else s.once('drain', resolve);
    });
  }

  /** Closes the file for writing. */
  async close(): Promise<void> {
    const s = this.stream;
    if (s && !s.closed) await new Promise<void>((resolve, reject) => s.end(() => resolve()).once('error', reject));
  }

  /** The reports back, in batches, as they were written. */
  async *read(): AsyncGenerator<HistoryItem[], void, void> {
    if (!this.stream) return;
    const lines = createInterface({ input: createReadStream(this.path), crlfDelay: Infinity });
    let batch: HistoryItem[] = [];
    for await (const text of lines) {
      // The service's text, read again as the reply was: numbers sent as strings become numbers.
      batch.push({ text, feature: tolerantFeature(JSON.parse(text) as ReportFeature), verbatim: true });
      if (batch.length >= BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  async remove(): Promise<void> {
    await this.close().catch(() => undefined);
    await rm(this.path, { force: true });
  }
}
