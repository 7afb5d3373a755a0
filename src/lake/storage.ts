/**
 * Where the lake's parts go: a local directory or an S3 prefix, behind one interface with
 * one promise: nothing is visible at a part's key until the part is whole.
 *
 * A part is written to a staged local file first. Publishing it is a rename into place
 * (local: the staged file is `.<name>.<pid>-<hex>.tmp` beside its place, which readers
 * skip as hidden, synced before the rename) or an upload (S3: one PUT, or a multipart
 * upload for a large part, which S3 shows only once completed and which is aborted when
 * it fails). Staged files of killed runs are swept (local) or were never visible (S3).
 */
import { randomBytes } from 'node:crypto';
import { lstat, open, readdir, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { syncDir } from '../atomic-file.js';
import { makeDir, prepareOutDir, sweep } from '../io/delivery/outdir.js';
import { makeSpoolDir, type SpoolDir } from '../io/delivery/spool.js';
import { outDirScheme } from './layout.js';
import type { S3Client, S3Limits } from './s3/client.js';

export interface StagedPart {
  /** The part's key below the storage root (`day=2026-11-24/part-….parquet`). */
  readonly key: string;
  /** The local file to write the part into. */
  readonly path: string;
  /** Puts the whole part at its key (the file must be closed). */
  publish(): Promise<void>;
  /** Drops the staged file (never published, or published and then rolled back elsewhere). */
  discard(): Promise<void>;
}

/** What became of a part a checkpoint records: removed, not there, or left (and why). */
export type PartRemoval = 'removed' | 'missing' | { left: string };

export interface LakeStorage {
  /** The --out-dir as given, for messages. */
  readonly location: string;
  /** The --out-dir as a checkpoint records it: the real path of the folder (it exists once prepared), or s3://bucket/prefix. */
  home(): Promise<string>;
  /** A recorded out-dir is this one: the same real path, or the same bucket and prefix. */
  holds(recorded: string): Promise<boolean>;
  /** Proves the place can be written (local) or reached with these credentials (S3), before anything is fetched. */
  prepare(): Promise<void>;
  stage(key: string): Promise<StagedPart>;
  /** Deletes a published part (a run that was killed before it was recorded); a missing one is fine. */
  remove(key: string): Promise<void>;
  /**
   * Deletes a part a checkpoint records (a key of partKey's shape, checked by the caller),
   * only when it is a part of this place: a file, in its partition folder inside the root.
   */
  removeRecorded(key: string): Promise<PartRemoval>;
  /** Every key below the root (tests and tools; not used to find a run's parts). */
  list(): Promise<string[]>;
  close(): Promise<void>;
}

/** A checkpoint's out-dir may name any scheme (it is read, not typed): one not supported is nowhere this run writes. */
function recordedScheme(recorded: string): 'local' | 's3' | undefined {
  try {
    return outDirScheme(recorded);
  } catch {
    return undefined;
  }
}

const stagedName = (key: string): string => `.${basename(key)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;

export class LocalStorage implements LakeStorage {
  private readonly ready = new Map<string, Promise<void>>();

  constructor(readonly location: string) {}

  prepare(): Promise<void> {
    return prepareOutDir(this.location);
  }

  /** A folder is made and swept of killed runs' staged files once, before this run stages anything in it. */
  private folder(key: string): Promise<string> {
    const dir = join(this.location, dirname(key));
    let ready = this.ready.get(dir);
    if (!ready) {
      ready = makeDir(dir).then(() => sweep(dir));
      this.ready.set(dir, ready);
    }
    return ready.then(() => dir);
  }

  async stage(key: string): Promise<StagedPart> {
    const dir = await this.folder(key);
    const path = join(dir, stagedName(key));
    const target = join(this.location, key);
    return {
      key,
      path,
      publish: async () => {
        const handle = await open(path, 'r+');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(path, target);
        await syncDir(dir);
      },
      discard: () => unlink(path).catch(() => undefined),
    };
  }

  home(): Promise<string> {
    return realpath(this.location);
  }

  async holds(recorded: string): Promise<boolean> {
    if (recordedScheme(recorded) !== 'local') return false;
    const [mine, theirs] = await Promise.all([this.home(), realpath(recorded).catch(() => undefined)]);
    return mine === theirs;
  }

  async remove(key: string): Promise<void> {
    await unlink(join(this.location, key)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }

  async removeRecorded(key: string): Promise<PartRemoval> {
    const root = await this.home();
    // The partition folder may be a link that leads elsewhere: its real path must be the one below the root.
    const folder = await realpath(join(root, dirname(key))).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (folder === undefined) return 'missing';
    if (folder !== join(root, dirname(key))) return { left: `its folder leads outside the --out-dir (to ${folder})` };
    const info = await lstat(join(folder, basename(key))).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (info === undefined) return 'missing';
    if (!info.isFile()) return { left: 'it is not a file (a part is one)' };
    await this.remove(key);
    return 'removed';
  }

  async list(): Promise<string[]> {
    const entries = await readdir(this.location, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isFile())
      .map((e) => relative(this.location, join(e.parentPath, e.name)).split(sep).join('/'))
      .sort();
  }

  async close(): Promise<void> {}
}

/** Parts up to this size go up in one PUT; larger ones as a multipart upload of parts this size (S3's least is 5 MiB). */
export const MULTIPART_PART_BYTES = 8 * 1024 * 1024;
/** S3 takes at most this many parts in one upload. */
const MAX_PARTS = 10_000;

export class S3Storage implements LakeStorage {
  private spool: Promise<SpoolDir> | undefined;

  constructor(
    readonly location: string,
    private readonly client: S3Client,
    private readonly prefix: string,
    private readonly contentType: string,
  ) {}

  private keyOf(key: string): string {
    return this.prefix === '' ? key : `${this.prefix}/${key}`;
  }

  async prepare(): Promise<void> {
    await this.client.probe(this.prefix === '' ? '' : `${this.prefix}/`);
  }

  async stage(key: string): Promise<StagedPart> {
    const dir = (await (this.spool ??= makeSpoolDir('lake'))).path;
    const path = join(dir, randomBytes(8).toString('hex'));
    return {
      key,
      path,
      publish: () => this.upload(this.keyOf(key), path),
      discard: () => unlink(path).catch(() => undefined),
    };
  }

  /** One PUT, or a multipart upload read from the file a part at a time (memory: one part). */
  async upload(key: string, path: string): Promise<void> {
    const size = (await stat(path)).size;
    const handle = await open(path, 'r');
    try {
      if (size <= MULTIPART_PART_BYTES) {
        await this.client.put(key, await handle.readFile(), this.contentType);
        return;
      }
      const partBytes = Math.max(MULTIPART_PART_BYTES, Math.ceil(size / MAX_PARTS));
      const uploadId = await this.client.createUpload(key, this.contentType);
      try {
        const etags: string[] = [];
        const buffer = Buffer.alloc(partBytes);
        for (let offset = 0; offset < size; offset += partBytes) {
          const { bytesRead } = await handle.read(buffer, 0, Math.min(partBytes, size - offset), offset);
          etags.push(await this.client.uploadPart(key, uploadId, etags.length + 1, buffer.subarray(0, bytesRead)));
        }
        await this.client.completeUpload(key, uploadId, etags);
      } catch (err) {
        // Best effort: an upload left behind is invisible, and a lifecycle rule clears it.
        await this.client.abortUpload(key, uploadId).catch(() => undefined);
        throw err;
      }
    } finally {
      await handle.close();
    }
  }

  async home(): Promise<string> {
    return `s3://${this.client.bucket}${this.prefix === '' ? '' : `/${this.prefix}`}`;
  }

  async holds(recorded: string): Promise<boolean> {
    if (recordedScheme(recorded) !== 's3') return false;
    const { parseS3Url } = await import('./s3/config.js');
    try {
      const { bucket, prefix } = parseS3Url(recorded);
      return bucket === this.client.bucket && prefix === this.prefix;
    } catch {
      return false; // not an S3 location at all: not this one
    }
  }

  remove(key: string): Promise<void> {
    return this.client.remove(this.keyOf(key));
  }

  /** A part-shaped key is below the prefix by construction; a DELETE does not say whether there was one, a listing does. */
  async removeRecorded(key: string): Promise<PartRemoval> {
    const full = this.keyOf(key);
    if (!(await this.client.list(full)).includes(full)) return 'missing';
    await this.remove(key);
    return 'removed';
  }

  async list(): Promise<string[]> {
    const base = this.prefix === '' ? '' : `${this.prefix}/`;
    return (await this.client.list(base)).map((k) => k.slice(base.length)).sort();
  }

  async close(): Promise<void> {
    if (this.spool) await (await this.spool).remove();
    await this.client.close();
  }
}

const CONTENT_TYPES: Record<string, string> = {
  parquet: 'application/vnd.apache.parquet',
  ndjson: 'application/x-ndjson',
  json: 'application/json',
  geojson: 'application/geo+json',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  yaml: 'application/yaml',
  gpx: 'application/gpx+xml',
  kml: 'application/vnd.google-earth.kml+xml',
  html: 'text/html',
};

/** The storage for an --out-dir: local, or S3 (its client loaded only then), trying as hard as `limits` say. */
export async function openStorage(outDir: string, ext: string, env: Readonly<Record<string, string | undefined>>, limits: S3Limits): Promise<LakeStorage> {
  if (outDirScheme(outDir) === 'local') return new LocalStorage(outDir);
  const [{ loadS3Config, parseS3Url }, { S3Client }] = await Promise.all([import('./s3/config.js'), import('./s3/client.js')]);
  const { bucket, prefix } = parseS3Url(outDir);
  const config = await loadS3Config(env, { limits });
  return new S3Storage(outDir, new S3Client(config, bucket, limits), prefix, CONTENT_TYPES[ext] ?? 'application/octet-stream');
}
