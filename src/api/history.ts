/**
 * Reports history: GET /reports/history/<id>/[from:<ts>/][to:<ts>/][lastQueryTime:<ts>/][reportTypes:<a,b>/].
 * A history can hold millions of reports, so the reply is never held whole: the body
 * is cut into features by FeatureSplitter (feature-splitter.ts) and each feature is parsed
 * on its own, when something asks for it: ndjson and geojson write the bytes as sent
 * (reportBytes); the reports read only the properties they use (report-point.ts) and Parquet
 * only its cells, each by a CutReader as the reports are cut out.
 */
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { NetworkError, NotFoundError } from '../errors.js';
import type { Api } from './client.js';
import type { FeatureCheck } from './feature-match.js';
import { FeatureSplitter, type CutReader } from './feature-splitter.js';
import { Report, type HistoryItem, type PointItem } from './report-item.js';
import { explainUnitNotFound } from './unit-ids.js';
import { REPORT_TYPES } from './types.js';

export { FeatureCheck } from './feature-match.js';
export { FeatureSplitter, type CutReader } from './feature-splitter.js';
export { Report, type HistoryItem, type PointItem } from './report-item.js';

export interface HistoryQuery {
  from?: number;
  to?: number;
  /** Only reports received after this time (late arrivals with older dates included). */
  lastQueryTime?: number;
  reportTypes?: readonly string[];
}

export interface HistoryReply<T = Report> {
  /** Batches of reports, one per chunk of the body, in the order sent. */
  batches: AsyncGenerator<T[], void, void>;
  /** The service's clock when it answered (Date header), unix seconds. */
  serverTime: number | undefined;
}

/**
 * The request path. Segments keep the literal `name:` and commas the interface shows
 * (both are valid in a path segment, RFC 3986 pchar); values are digits and report-type
 * names, percent-encoded anyway so nothing else can reach the path.
 */
export function historyPath(id: number, q: HistoryQuery): string {
  let p = `/reports/history/${encodeURIComponent(String(id))}/`;
  const seg = (name: string, value: number): void => {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`history ${name} must be whole unix seconds, got ${value}`);
    p += `${name}:${encodeURIComponent(String(value))}/`;
  };
  if (q.from !== undefined) seg('from', q.from);
  if (q.to !== undefined) seg('to', q.to);
  if (q.lastQueryTime !== undefined) seg('lastQueryTime', q.lastQueryTime);
  if (q.reportTypes && q.reportTypes.length > 0) {
    for (const t of q.reportTypes) {
      if (!(REPORT_TYPES as readonly string[]).includes(t)) throw new RangeError(`unknown report type ${t}`);
    }
    p += `reportTypes:${q.reportTypes.map(encodeURIComponent).join(',')}/`;
  }
  return p;
}

export interface HistoryReading {
  signal?: AbortSignal;
  /** Reads each report as it is cut out (Report.read), checking the bytes in the checking expression's place: one reader a reply at a time. */
  reader?: CutReader;
  /** The checking expression, kept from one reply to the next (the shape it learnt): one reply at a time. */
  check?: FeatureCheck;
}

export async function openHistory(api: Api, id: number, q: HistoryQuery, reading: HistoryReading = {}): Promise<HistoryReply> {
  const { body, status, serverTime } = await request(api, id, q, reading.signal);
  const splitter = new FeatureSplitter(status, reading.reader, reading.check);
  return { batches: readFeatures(body, status, splitter, (chunk) => splitter.cut(chunk), reading.signal), serverTime };
}

/**
 * A report run's reading of the history: each report's point as `reader` (the point reader) reads
 * it with its bytes, no Report round it, and no chunk searched for what would keep a report from
 * being printed as sent (none is printed).
 */
export async function openHistoryPoints(api: Api, id: number, q: HistoryQuery, reader: CutReader): Promise<HistoryReply<PointItem>> {
  const { body, status, serverTime } = await request(api, id, q);
  const splitter = new FeatureSplitter(status, reader);
  return { batches: readFeatures(body, status, splitter, (chunk) => splitter.cutPoints(chunk)), serverTime };
}

async function request(api: Api, id: number, q: HistoryQuery, signal?: AbortSignal): Promise<{ body: Readable; status: number; serverTime: number | undefined }> {
  const res = await api.stream({ method: 'GET', path: historyPath(id, q), signal }).catch(async (err: unknown) => {
    throw err instanceof NotFoundError ? await explainUnitNotFound(api, id, err) : err;
  });
  const date = typeof res.headers.date === 'string' ? Date.parse(res.headers.date) : NaN;
  return { body: res.body, status: res.status, serverTime: Number.isNaN(date) ? undefined : Math.floor(date / 1000) };
}

async function* readFeatures<T extends PointItem>(body: Readable, status: number, splitter: FeatureSplitter, cut: (chunk: Buffer) => T[], signal?: AbortSignal): AsyncGenerator<T[], void, void> {
  const next = chunksOf(body);
  const abort = (): void => void body.destroy();
  signal?.addEventListener('abort', abort, { once: true });
  try {
    for (;;) {
      let chunk: Buffer | undefined;
      try {
        chunk = await next.read();
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        const what = `the connection dropped while reading the history (status ${status}) after ${splitter.bytes} bytes and ${splitter.count} reports`;
        throw new NetworkError(what, { cause: err, hint: 'Run the command again; with --checkpoint, the next run delivers what this one missed.' });
      }
      if (chunk === undefined) break;
      const reports = cut(chunk);
      // Chunks that arrived while the last batch was being written join this one: fewer, larger writes.
      for (let more = next.queued(); more !== undefined; more = next.queued()) {
        for (const report of cut(more)) reports.push(report);
      }
      if (reports.length === 0) continue;
      parseUnchecked(reports);
      yield reports;
    }
    splitter.end();
  } finally {
    signal?.removeEventListener('abort', abort);
    body.destroy();
  }
}

/**
 * A report the splitter could not check is parsed now (its point asks for it), so a malformed one
 * fails here, before its batch is written. A plain function, not the generator's loop: V8 optimises it early.
 */
function parseUnchecked(reports: readonly PointItem[]): void {
  for (let k = 0; k < reports.length; k++) {
    const report = reports[k] as PointItem;
    if (!report.checked) void report.point;
  }
}

/**
 * The body's chunks one by one as they arrive, paused while a few wait: unlike the stream's
 * async iterator, which joins (copies) everything buffered into one chunk on each read.
 * `read` waits for the next chunk (or the end, or the failure); `queued` takes one that is
 * already there, if any.
 */
function chunksOf(body: Readable): { read: () => Promise<Buffer | undefined>; queued: () => Buffer | undefined } {
  const queue: Buffer[] = [];
  let ended = false;
  let failure: { err: unknown } | undefined;
  let wake: (() => void) | undefined;
  const poke = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  body.on('data', (chunk: Buffer) => {
    queue.push(chunk);
    if (queue.length >= 4) body.pause();
    poke();
  });
  body.once('end', () => {
    ended = true;
    poke();
  });
  body.once('error', (err) => {
    failure ??= { err };
    poke();
  });
  body.once('close', () => {
    if (!ended) failure ??= { err: new Error('the body closed before its end') };
    poke();
  });
  return {
    read: async () => {
      for (;;) {
        const chunk = queue.shift();
        if (chunk !== undefined) return chunk;
        if (failure) throw failure.err;
        if (ended) return undefined;
        if (body.isPaused()) body.resume();
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    queued: () => queue.shift(),
  };
}

/**
 * The reports of a batch as one piece of bytes: `lead`, each report's bytes as the service
 * sent them with `sep` between, then `trail`; the same bytes as writing each report's text.
 * Undefined when that cannot be promised: a report that did not come from a reply, one that
 * holds a line break, DEL or C1 control (it must be re-serialised, see featureLine), or bytes
 * that are not UTF-8 (their text holds U+FFFD in their place).
 */
export function reportBytes(items: readonly HistoryItem[], lead: string, sep: string, trail: string): Buffer | undefined {
  const n = items.length;
  const sepBytes = Buffer.from(sep, 'utf8');
  let size = Buffer.byteLength(lead, 'utf8') + Buffer.byteLength(trail, 'utf8') + sepBytes.length * Math.max(0, n - 1);
  for (let k = 0; k < n; k++) {
    const item = items[k];
    if (!(item instanceof Report) || !item.verbatim) return undefined;
    size += item.end - item.start;
  }
  const reports = items as readonly Report[];
  const out = Buffer.allocUnsafe(size);
  let pos = out.write(lead, 0, 'utf8');
  const oneByte = sepBytes.length === 1 ? (sepBytes[0] as number) : -1;
  for (let k = 0; k < n; ) {
    const first = reports[k] as Report;
    // Reports one byte apart in the same chunk (the comma between them) are copied at once, the comma then replaced.
    let last = k;
    if (oneByte >= 0) {
      for (let next = reports[k + 1]; next !== undefined && next.source === first.source && next.start === (reports[last] as Report).end + 1; next = reports[last + 1]) last++;
    }
    const end = (reports[last] as Report).end;
    first.source.copy(out, pos, first.start, end);
    for (let j = k; j < last; j++) out[pos + (reports[j] as Report).end - first.start] = oneByte;
    pos += end - first.start;
    k = last + 1;
    if (k < n) pos += sepBytes.copy(out, pos);
  }
  out.write(trail, pos, 'utf8');
  // Each report begins and ends with an ASCII brace, so no multi-byte character spans two of them.
  return isUtf8(out) ? out : undefined;
}
