/**
 * A history reply cut into its reports as the body arrives: FeatureSplitter finds each
 * feature's bytes in `{"features":[…],"success":…}` wherever the chunks are cut, and checks
 * them (by one regular expression, feature-match.ts, or by a CutReader that reads what its
 * consumer needs from the same bytes: the point reader on the report path, the row reader for
 * Parquet); each becomes a Report (report-item.ts), or on the report path (cutPoints) the point
 * the point reader read.
 */
import { ApiError } from '../errors.js';
import { clean, FeatureCheck } from './feature-match.js';
import { excerpt } from './reply.js';
import { ReadPoint, Report, type PointItem } from './report-item.js';
import { Envelope } from './history-envelope.js';

const enum S { Start, FirstKey, Key, KeyText, Colon, Value, StrValue, Scalar, Nested, AfterValue, FirstItem, Item, ItemNext, Feature, Done }
const [QUOTE, BACKSLASH, OPEN_OBJ, CLOSE_OBJ, OPEN_ARR, CLOSE_ARR, COMMA, COLON] = [0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a];
const MAX_FEATURE_BYTES = 64 * 1024 * 1024;

/**
 * Reads a report where the splitter finds its opening brace, in the checking expression's
 * place: it checks the bytes (what it reads is a JSON object whose `properties` is an object),
 * finds where the report ends and gives what it read, kept with the report (Report.read).
 */
export interface CutReader {
  /** The bytes whose reports are read next: a chunk, or a report joined from several. */
  load(chunk: Buffer): void;
  /** What was read of the report whose opening brace is at `start` of the loaded bytes, its end in `end`; undefined where the report is malformed, unusual or cut off (the splitter scans it, and it is parsed). */
  read(start: number): object | undefined;
  /** Where the report just read ended. */
  readonly end: number;
}

const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
/** Bytes of a number, true, false or null. */
const isScalar = (b: number): boolean => (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7a) || b === 0x2d || b === 0x2b || b === 0x2e || b === 0x45;

/**
 * A byte scanner for `{"features":[{…},{…}],"success":"…"}` (keys in any order).
 * It tracks string/escape state and bracket depth and cuts out each feature's bytes.
 * A chunk boundary may fall anywhere (inside a string, an escape or a multi-byte
 * character): text is decoded only from a whole feature. Where a feature begins, the
 * fast path (the CutReader, or FeatureCheck: the reply's usual shape, else matchFeature) tries to check and cut
 * it out at once; otherwise it is scanned byte by byte here and validated by JSON.parse
 * afterwards. The envelope is validated here.
 */
export class FeatureSplitter {
  /** Body bytes and features seen so far (for messages). */
  bytes = 0;
  count = 0;
  private state = S.Start;
  private key = '';
  private sawFeatures = false;
  private readonly envelope = new Envelope();
  /** Bytes of the value being cut out that arrived in earlier chunks. */
  private parts: Buffer[] = [];
  private partsSize = 0;
  private depth = 0;
  private inString = false;
  private escape = false;
  private tail = '';
  /** The last chunk was clean, and so was every earlier one holding bytes of the value being cut out (see verbatim). */
  private cleanBefore = true;
  /** The features of the last cut hold no \n, \r, DEL or C1 bytes (checked per chunk, natively). */
  verbatim = true;

  constructor(
    private readonly status: number,
    /** Reads each report in place of the checking expression. */
    private readonly reader?: CutReader,
    /** The checking expression: one kept from an earlier reply knows its shape already. */
    private readonly check = new FeatureCheck(),
  ) {}

  /** Feeds one chunk; returns the features completed in it, as byte ranges (text and parsing on demand). */
  cut(chunk: Buffer): Report[] {
    return this.split(chunk, false) as Report[];
  }

  /**
   * Feeds one chunk; returns the points of the features completed in it: each that the point reader
   * read is its ReadPoint (no Report made round it: a report run reads nothing else), any other is
   * its Report, parsed when its point is asked for. No point is printed: no chunk is searched for
   * what would keep a report from being printed as sent, and no Report is verbatim.
   */
  cutPoints(chunk: Buffer): PointItem[] {
    return this.split(chunk, true);
  }

  /** cut and cutPoints: `points` gives a point read by the reader as itself, and searches no chunk (see verbatim). */
  private split(chunk: Buffer, points: boolean): Array<Report | ReadPoint> {
    const out: Array<Report | ReadPoint> = [];
    const n = chunk.length;
    // four native searches of the whole chunk, skipped where no report is printed (points)
    const chunkClean = !points && clean(chunk);
    this.verbatim = chunkClean && this.cleanBefore; // a feature may have begun in a chunk before
    let latin1: string | undefined;
    let loaded = false; // the chunk is in the point reader
    let start = 0; // where the value being cut out began, when it began in this chunk
    for (let i = 0; i < n; i++) {
      const state = this.state;
      if (state === S.Feature || state === S.Nested) {
        i = this.scanValue(chunk, i);
        if (i === n) break;
        if (state === S.Feature) {
          out.push(this.takeFeature(chunk, start, i + 1));
          loaded = false; // a feature joined from several chunks was loaded in the chunk's place
          this.count++;
          this.state = S.ItemNext;
        } else {
          this.envelope.keep(this.key, this.take(chunk, start, i + 1));
          this.state = S.AfterValue;
        }
      } else if (state === S.KeyText || state === S.StrValue) {
        const b = chunk[i] as number;
        if (this.escape) this.escape = false;
        else if (b === BACKSLASH) this.escape = true;
        else if (b === QUOTE) {
          const text = this.take(chunk, start, i + 1);
          if (state === S.StrValue) {
            this.envelope.keep(this.key, text);
            this.state = S.AfterValue;
          } else this.readKey(text, chunk, i);
        }
      } else if (state === S.Scalar) {
        if (!isScalar(chunk[i] as number)) {
          this.envelope.keep(this.key, this.take(chunk, start, i));
          this.state = S.AfterValue;
          i--; // the delimiter belongs to the envelope
        }
      } else {
        const b = chunk[i] as number;
        if (isSpace(b)) continue;
        start = i;
        if (b === OPEN_OBJ && (state === S.Item || state === S.FirstItem)) {
          let end = -1;
          let read: object | undefined;
          if (this.reader) {
            if (!loaded) this.reader.load(chunk);
            loaded = true;
            read = this.reader.read(i);
            if (read) end = this.reader.end;
          } else {
            latin1 ??= chunk.toString('latin1');
            end = this.check.end(latin1, i);
          }
          if (end > 0) {
            out.push(points && read instanceof ReadPoint ? read : new Report(chunk, i, end, this.verbatim, true, this.status, read));
            this.count++;
            this.state = S.ItemNext;
            i = end - 1;
            continue;
          }
        }
        this.structural(b, chunk, i);
      }
    }
    this.bytes += n;
    const s = this.state;
    if (s === S.Feature || s === S.Nested || s === S.KeyText || s === S.StrValue || s === S.Scalar) {
      const rest = this.parts.length === 0 ? chunk.subarray(start) : chunk;
      this.cleanBefore = chunkClean && (this.parts.length === 0 || this.cleanBefore);
      this.partsSize += rest.length;
      if (this.partsSize > MAX_FEATURE_BYTES) this.fail(`a value larger than ${MAX_FEATURE_BYTES} bytes`, chunk, n);
      this.parts.push(rest);
    } else this.cleanBefore = chunkClean;
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

  /** End of body: throws unless the reply was complete and the service's (history-envelope.ts). */
  end(): void {
    const read = `status ${this.status}, ${this.bytes} bytes, ${this.count} reports read`;
    if (this.state !== S.Done) throw new ApiError(`the history reply ended before its JSON was complete (${read}): …${excerpt(this.tail, 160)}`, this.status);
    this.envelope.check(this.sawFeatures, this.status, (what) => new ApiError(`the history reply ${what} (${read}): ${excerpt(this.tail, 160)}`, this.status));
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
    this.state = state;
    this.escape = false;
  }

  private toNested(state: S): void {
    this.state = state;
    this.depth = 1;
    this.inString = false;
    this.escape = false;
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
    return this.joined(chunk, end).toString('utf8');
  }

  /**
   * The feature that ends at `end` in this chunk. One that began in it failed the fast path
   * already; one that spanned chunks is checked whole now.
   */
  private takeFeature(chunk: Buffer, start: number, end: number): Report {
    if (this.parts.length === 0) return new Report(chunk, start, end, this.verbatim, false, this.status);
    const bytes = this.joined(chunk, end);
    if (this.reader) {
      this.reader.load(bytes);
      const read = this.reader.read(0);
      const whole = read !== undefined && this.reader.end === bytes.length;
      return new Report(bytes, 0, bytes.length, this.verbatim, whole, this.status, whole ? read : undefined);
    }
    return new Report(bytes, 0, bytes.length, this.verbatim, this.check.end(bytes.toString('latin1'), 0) === bytes.length, this.status);
  }

  /** The bytes of a value that began in an earlier chunk and ends at `end` in this one. */
  private joined(chunk: Buffer, end: number): Buffer {
    this.parts.push(chunk.subarray(0, end));
    const bytes = Buffer.concat(this.parts);
    this.parts = [];
    this.partsSize = 0;
    return bytes;
  }


  private fail(what: string, chunk: Buffer, i: number): never {
    const near = chunk.toString('utf8', Math.max(0, i - 60), Math.min(chunk.length, i + 20));
    throw new ApiError(`the history reply is not valid JSON (status ${this.status}): ${what} at byte ${this.bytes + i}: ${excerpt(near, 100)}`, this.status);
  }
}
