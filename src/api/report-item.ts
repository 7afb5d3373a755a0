/**
 * One report of a history reply: its bytes as the service sent them, with its text, its parsed
 * feature and its point made on first use.
 */
import { ApiError } from '../errors.js';
import { excerpt } from './reply.js';
import type { ReportFeature, ReportPoint } from './types.js';
import { tolerantFeature } from './tolerant.js';

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

/** One report: its text as the service sent it, and the parsed feature (both made on first use when cut from a reply). */
export interface HistoryItem {
  text: string;
  feature: ReportFeature;
  /** The text holds no line break, DEL or C1 control: it may be printed as is on one line. */
  verbatim: boolean;
}

/**
 * One report as cut out of the body: where its bytes lie, with its text and its parsed
 * feature made on first use (ndjson and geojson need neither: see reportBytes).
 */
export class Report implements HistoryItem, PointItem {
  private textValue: string | undefined;
  private featureValue: ReportFeature | undefined;

  constructor(
    /** The bytes the report was cut from (a chunk of the body, or the joined chunks it spanned). */
    readonly source: Buffer,
    readonly start: number,
    readonly end: number,
    readonly verbatim: boolean,
    /** The bytes were checked to be a JSON object whose `properties` is an object: parsing them cannot fail. */
    readonly checked: boolean,
    private readonly status: number,
    /** What the splitter's CutReader read of the bytes (a point, a row of cells), when it had one. */
    readonly read?: object,
  ) {}

  get text(): string {
    return (this.textValue ??= this.source.toString('utf8', this.start, this.end));
  }

  get feature(): ReportFeature {
    return (this.featureValue ??= parseFeature(this.text, this.status));
  }

  /** What the report algorithms and a poll's report key read: read with the bytes when the splitter's reader was the point reader (see report-point.ts), else of the parsed feature. */
  get point(): ReportPoint {
    const read = this.read;
    return read instanceof ReadPoint ? read : this.feature;
  }
}

/**
 * What a report run reads of each report: its point, and whether its bytes were checked (a report
 * that was not is parsed when its point is asked for, and fails there when malformed).
 */
export interface PointItem {
  readonly point: ReportPoint;
  readonly checked: boolean;
}

/** A report's point as the point reader read it from the report's bytes (report-point.ts); read, so checked. */
export class ReadPoint implements ReportPoint, PointItem {
  constructor(readonly properties: ReportPoint['properties']) {}

  get point(): ReportPoint {
    return this;
  }

  get checked(): boolean {
    return true;
  }
}
