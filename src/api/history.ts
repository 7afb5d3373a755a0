/**
 * Reports history: GET /reports/history/<id>/[from:<ts>/][to:<ts>/][lastQueryTime:<ts>/][reportTypes:<a,b>/].
 * A history can hold millions of reports, so the reply is never held whole: the body
 * is cut into features by FeatureSplitter and each feature is parsed on its own.
 */
import { ApiError, NetworkError } from '../errors.js';
import { excerpt, type Api } from './client.js';
import { REPORT_TYPES, type ReportFeature } from './types.js';
import { collectionValues, errorInSuccess, errorReplyError, tolerantFeature } from './tolerant.js';

export interface HistoryQuery {
  from?: number;
  to?: number;
  /** Only reports received after this time (late arrivals with older dates included). */
  lastQueryTime?: number;
  reportTypes?: readonly string[];
}

/** One report: its text as the service sent it, and the parsed feature. */
export interface HistoryItem {
  text: string;
  feature: ReportFeature;
  /** The text holds no line break, DEL or C1 control: it may be printed as is on one line. */
  verbatim: boolean;
}

export interface HistoryReply {
  /** Batches of reports, one per chunk of the body, in the order sent. */
  batches: AsyncGenerator<HistoryItem[], void, void>;
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

export async function openHistory(api: Api, id: number, q: HistoryQuery, signal?: AbortSignal): Promise<HistoryReply> {
  const res = await api.stream({ method: 'GET', path: historyPath(id, q) });
  const date = typeof res.headers.date === 'string' ? Date.parse(res.headers.date) : NaN;
  return { batches: readFeatures(res.body, res.status, signal), serverTime: Number.isNaN(date) ? undefined : Math.floor(date / 1000) };
}

async function* readFeatures(body: AsyncIterable<unknown> & { destroy(): void }, status: number, signal?: AbortSignal): AsyncGenerator<HistoryItem[], void, void> {
  const splitter = new FeatureSplitter(status);
  const chunks = body[Symbol.asyncIterator]();
  const abort = (): void => body.destroy();
  signal?.addEventListener('abort', abort, { once: true });
  try {
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = await chunks.next();
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        const what = `the connection dropped while reading the history (status ${status}) after ${splitter.bytes} bytes and ${splitter.count} reports`;
        throw new NetworkError(what, { cause: err, hint: 'Run the command again; with --checkpoint, the next run delivers what this one missed.' });
      }
      if (next.done) break;
      const texts = splitter.push(next.value as Buffer);
      const verbatim = splitter.verbatim;
      if (texts.length > 0) yield texts.map((text) => ({ text, feature: parseFeature(text, status), verbatim }));
    }
    splitter.end();
  } finally {
    signal?.removeEventListener('abort', abort);
    body.destroy();
  }
}

function parseFeature(text: string, status: number): ReportFeature {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ApiError(`the history reply holds a report that is not valid JSON (status ${status}): ${(err as Error).message}: ${excerpt(text)}`, status);
  }
  const props = (value as { properties?: unknown } | null)?.properties;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof props !== 'object' || props === null) {
    throw new ApiError(`the history reply holds a report of an unexpected shape (status ${status}): ${excerpt(text)}`, status);
  }
  return tolerantFeature(value as ReportFeature);
}

const enum S { Start, FirstKey, Key, KeyText, Colon, Value, StrValue, Scalar, Nested, AfterValue, FirstItem, Item, ItemNext, Feature, Done }
const [QUOTE, BACKSLASH, OPEN_OBJ, CLOSE_OBJ, OPEN_ARR, CLOSE_ARR, COMMA, COLON] = [0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a];
const MAX_FEATURE_BYTES = 64 * 1024 * 1024;
const ENVELOPE_KEYS = new Set(['success', 'error', 'error_description', 'message', 'detail', 'errors', 'status', 'features']);

const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
/** Bytes of a number, true, false or null. */
const isScalar = (b: number): boolean => (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7a) || b === 0x2d || b === 0x2b || b === 0x2e || b === 0x45;

/**
 * A byte scanner for `{"features":[{…},{…}],"success":"…"}` (keys in any order).
 * It tracks string/escape state and bracket depth, cuts out each feature's bytes and
 * returns them as text. A chunk boundary may fall anywhere (inside a string, an escape
 * or a multi-byte character): text is decoded only from a whole feature. Features are
 * validated by JSON.parse afterwards; the envelope is validated here.
 */
export class FeatureSplitter {
  /** Body bytes and features seen so far (for messages). */
  bytes = 0;
  count = 0;
  private state = S.Start;
  private key = '';
  private sawFeatures = false;
  private readonly envelope: Record<string, unknown> = {};
  /** Bytes of the value being cut out that arrived in earlier chunks. */
  private parts: Buffer[] = [];
  private partsSize = 0;
  private depth = 0;
  private inString = false;
  private escape = false;
  private tail = '';
  private cleanBefore = true;
  /** The features of the last push hold no \n, \r, DEL or C1 bytes (checked per chunk, natively). */
  verbatim = true;

  constructor(private readonly status: number) {}

  /** Feeds one chunk; returns the features completed in it, as text. */
  push(chunk: Buffer): string[] {
    const out: string[] = [];
    const n = chunk.length;
    const clean = chunk.indexOf(0x0a) < 0 && chunk.indexOf(0x0d) < 0 && chunk.indexOf(0x7f) < 0 && chunk.indexOf(0xc2) < 0;
    this.verbatim = clean && this.cleanBefore; // a feature may have begun in the chunk before
    this.cleanBefore = clean;
    let start = 0; // where the value being cut out began, when it began in this chunk
    for (let i = 0; i < n; i++) {
      const state = this.state;
      if (state === S.Feature || state === S.Nested) {
        i = this.scanValue(chunk, i);
        if (i === n) break;
        const text = this.take(chunk, start, i + 1);
        if (state === S.Feature) {
          out.push(text);
          this.count++;
          this.state = S.ItemNext;
        } else {
          this.keep(text);
          this.state = S.AfterValue;
        }
      } else if (state === S.KeyText || state === S.StrValue) {
        const b = chunk[i] as number;
        if (this.escape) this.escape = false;
        else if (b === BACKSLASH) this.escape = true;
        else if (b === QUOTE) {
          const text = this.take(chunk, start, i + 1);
          if (state === S.StrValue) {
            this.keep(text);
            this.state = S.AfterValue;
          } else this.readKey(text, chunk, i);
        }
      } else if (state === S.Scalar) {
        if (!isScalar(chunk[i] as number)) {
          this.keep(this.take(chunk, start, i));
          this.state = S.AfterValue;
          i--; // the delimiter belongs to the envelope
        }
      } else {
        const b = chunk[i] as number;
        if (isSpace(b)) continue;
        start = i;
        this.structural(b, chunk, i);
      }
    }
    this.bytes += n;
    const s = this.state;
    if (s === S.Feature || s === S.Nested || s === S.KeyText || s === S.StrValue || s === S.Scalar) {
      const rest = this.parts.length === 0 ? chunk.subarray(start) : chunk;
      this.partsSize += rest.length;
      if (this.partsSize > MAX_FEATURE_BYTES) this.fail(`a value larger than ${MAX_FEATURE_BYTES} bytes`, chunk, n);
      this.parts.push(rest);
    }
    this.tail = (this.tail + chunk.toString('utf8', Math.max(0, n - 160))).slice(-160);
    return out;
  }

  /**
   * The hot loop: from `i` to the byte that closes the value, or the chunk's end (n).
   * Literals rather than named constants: V8 compiles this loop best that way.
   */
  private scanValue(chunk: Buffer, from: number): number {
    let { depth, inString, escape } = this;
    const n = chunk.length;
    let i = from;
    for (; i < n; i++) {
      const c = chunk[i] as number;
      if (inString) {
        if (escape) escape = false;
        else if (c === 0x5c) escape = true;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if ((c === 0x7d || c === 0x5d) && --depth === 0) break;
    }
    this.depth = depth;
    this.inString = inString;
    this.escape = escape;
    return i;
  }

  /**
   * End of body: throws unless the reply was complete. A reply whose body is an error
   * (no `success`, an `error`: see errorInSuccess) fails with the service's text. No
   * reports in any JSON form (`[]`, `{}`, null, or no `features` at all) is an empty history.
   */
  end(): void {
    const read = `status ${this.status}, ${this.bytes} bytes, ${this.count} reports read`;
    if (this.state !== S.Done) throw new ApiError(`the history reply ended before its JSON was complete (${read}): …${excerpt(this.tail, 160)}`, this.status);
    const failure = errorInSuccess(this.envelope);
    if (failure !== undefined) throw errorReplyError(this.status, failure, (text) => excerpt(text, 300));
    const features = this.envelope.features;
    if (!this.sawFeatures && features !== undefined && collectionValues(features)?.length !== 0) {
      throw new ApiError(`the history reply's "features" is not an array (${read}): ${excerpt(this.tail, 160)}`, this.status);
    }
  }

  /** Envelope values worth reading at the end (success, error…, a features value that is not an array); small by nature. */
  private keep(text: string): void {
    if (!ENVELOPE_KEYS.has(this.key)) return;
    try {
      this.envelope[this.key] = JSON.parse(text) as unknown;
    } catch {
      // malformed: the value is not used
    }
  }

  /** A byte outside any string, at the envelope level. */
  private structural(b: number, chunk: Buffer, i: number): void {
    switch (this.state) {
      case S.Start:
        if (b === OPEN_OBJ) return this.to(S.FirstKey);
        break;
      case S.FirstKey:
      case S.Key:
        if (b === QUOTE) return this.to(S.KeyText);
        if (b === CLOSE_OBJ && this.state === S.FirstKey) return this.to(S.Done);
        break;
      case S.Colon:
        if (b === COLON) return this.to(S.Value);
        break;
      case S.Value:
        if (b === OPEN_ARR && this.key === 'features' && !this.sawFeatures) {
          this.sawFeatures = true;
          return this.to(S.FirstItem);
        }
        if (b === QUOTE) return this.to(S.StrValue);
        if (b === OPEN_OBJ || b === OPEN_ARR) return this.toNested(S.Nested);
        if (isScalar(b)) return this.to(S.Scalar);
        break;
      case S.AfterValue:
        if (b === COMMA) return this.to(S.Key);
        if (b === CLOSE_OBJ) return this.to(S.Done);
        break;
      case S.FirstItem:
      case S.Item:
        if (b === OPEN_OBJ) return this.toNested(S.Feature);
        if (b === CLOSE_ARR && this.state === S.FirstItem) return this.to(S.AfterValue);
        break;
      case S.ItemNext:
        if (b === COMMA) return this.to(S.Item);
        if (b === CLOSE_ARR) return this.to(S.AfterValue);
        break;
      default:
        break;
    }
    this.fail(`unexpected ${JSON.stringify(String.fromCharCode(b))}`, chunk, i);
  }

  private to(state: S): void {
    [this.state, this.escape] = [state, false];
  }

  private toNested(state: S): void {
    [this.state, this.depth, this.inString, this.escape] = [state, 1, false, false];
  }

  private readKey(text: string, chunk: Buffer, i: number): void {
    try {
      this.key = JSON.parse(text) as string;
    } catch {
      this.fail('a malformed key', chunk, i);
    }
    this.state = S.Colon;
  }

  /** The text of the value that ends at `end` in this chunk (and began in it or in earlier ones). */
  private take(chunk: Buffer, start: number, end: number): string {
    if (this.parts.length === 0) return chunk.toString('utf8', start, end);
    this.parts.push(chunk.subarray(0, end));
    const text = Buffer.concat(this.parts).toString('utf8');
    this.parts = [];
    this.partsSize = 0;
    return text;
  }


  private fail(what: string, chunk: Buffer, i: number): never {
    const near = chunk.toString('utf8', Math.max(0, i - 60), Math.min(chunk.length, i + 20));
    throw new ApiError(`the history reply is not valid JSON (status ${this.status}): ${what} at byte ${this.bytes + i}: ${excerpt(near, 100)}`, this.status);
  }
}
