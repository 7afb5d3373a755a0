/**
 * A unit's reports kept on disk until they can be written whole: a merged GPX or KML
 * document holds each unit as one track or folder, while the units arrive side by side.
 * One feature a line, in a private temporary folder removed at the end.
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { HistoryItem } from '../api/history.js';
import { tolerantFeature } from '../api/tolerant.js';
import type { ReportFeature } from '../api/types.js';
import { featureLine } from './geo/sink.js';

const BATCH = 1000;

export class Spool {
  private constructor(private readonly dir: string) {}

  static async create(): Promise<Spool> {
    return new Spool(await mkdtemp(join(tmpdir(), 'trackctl-spool-')));
  }

  file(did: number): SpoolFile {
    return new SpoolFile(join(this.dir, `${did}.ndjson`));
  }

  remove(): Promise<void> {
    return rm(this.dir, { recursive: true, force: true });
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
