/**
 * Where history reports go: one writer per format, fed a batch of reports per chunk
 * of the reply and writing each batch at once, so output keeps pace with the body
 * and memory stays flat. json/ndjson/geojson print the features as the service sent
 * them; gpx and kml are documents; table, csv and yaml (and json/ndjson with --fields)
 * go through the shared output layer's streaming writer.
 */
import { reportBytes, type HistoryItem } from '../../../api/history.js';
import type { ReportFeature } from '../../../api/types.js';
import { openStream, type Column, type OutputFormat, type OutputOptions, type Rec, type RecordStream } from '../../formats/output.js';
import { compactJson, prettyJsonArrayItem } from '../../formats/render/json.js';
import { TrackBuffer } from './coords.js';
import { gpxEnd, gpxFooter, gpxHeader, gpxPoint, gpxStart, gpxTrackEnd, gpxTrackStart } from './gpx.js';
import { kmlEnd, kmlFolderEnd, kmlFolderStart, kmlPlacemark, kmlStart, kmlTrack } from './kml.js';

export const HISTORY_FORMATS = ['table', 'json', 'ndjson', 'csv', 'yaml', 'geojson', 'gpx', 'kml', 'html'] as const;
export type HistoryFormat = (typeof HISTORY_FORMATS)[number];

export interface HistorySink {
  /** Reports written so far. */
  readonly count: number;
  write(items: readonly HistoryItem[]): Promise<void>;
  /** Resolves once everything written so far has been handed to stdout. */
  flush(): Promise<void>;
  /** Closes the document (array, collection, gpx/kml) and flushes. */
  end(): Promise<void>;
}

export interface SinkOptions {
  format: HistoryFormat;
  /** The output settings (io, --fields, header, colour, TTY). Its own format field is ignored. */
  out: OutputOptions;
  /** Track/document name when the reports carry none. */
  title: string;
  /** Columns for table and csv (and --fields). */
  columns: Column[];
  /** The flat record of a report, for table, csv and --fields. */
  flat(feature: ReportFeature): Rec;
}

/** Line breaks would split an ndjson line; DEL and C1 could drive a terminal: such text is re-serialised. */
const NOT_VERBATIM = /[\n\r\u007f-\u009f]/;

/** A feature's JSON on one line: the service's own text when it is safe to reuse, else re-serialised. */
export function featureLine(item: HistoryItem): string {
  return item.verbatim || !NOT_VERBATIM.test(item.text) ? item.text : compactJson(item.feature);
}

/** Flushes stdout: a zero-length write calls back after every earlier write. */
function drained(out: OutputOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    out.io.stdout.write('', (err) => (err ? reject(err) : resolve()));
  });
}

interface DocumentFormat {
  start(first: ReportFeature | undefined): string;
  item(item: HistoryItem, index: number): string;
  /** A batch as bytes, the same as its items' text, when that can be had without text (reports as sent). */
  bytes?(items: readonly HistoryItem[], index: number): Uint8Array | undefined;
  end(): Iterable<string>;
}

function documentFormat(format: 'ndjson' | 'json' | 'geojson' | 'gpx' | 'kml', title: string): DocumentFormat {
  const nameOf = (f: ReportFeature | undefined): string => (typeof f?.properties.name === 'string' && f.properties.name !== '' ? f.properties.name : title);
  switch (format) {
    case 'ndjson':
      return { start: () => '', item: (item) => `${featureLine(item)}\n`, bytes: (items) => reportBytes(items, '', '\n', '\n'), end: () => [] };
    case 'json': {
      let empty = true;
      return {
        start: (first) => ((empty = first === undefined) ? '' : '[\n'),
        item: (item, i) => `${i === 0 ? '' : ',\n'}${prettyJsonArrayItem(item.feature)}`,
        end: () => [empty ? '[]\n' : '\n]\n'],
      };
    }
    case 'geojson':
      return {
        start: () => '{"type":"FeatureCollection","features":[\n',
        item: (item, i) => `${i === 0 ? '' : ',\n'}${featureLine(item)}`,
        bytes: (items, i) => reportBytes(items, i === 0 ? '' : ',\n', ',\n', ''),
        end: () => ['\n]}\n'],
      };
    case 'gpx':
      return { start: (first) => gpxStart(nameOf(first)), item: (item) => gpxPoint(item.feature), end: () => [gpxEnd()] };
    case 'kml': {
      const track = new TrackBuffer();
      let name = title;
      return {
        start: (first) => kmlStart((name = nameOf(first))),
        item: (item) => kmlPlacemark(item.feature, track),
        end: () => [...kmlTrack(`Track of ${name}`, track), kmlEnd()],
      };
    }
  }
}

/** Writes a document: its start at the first report (named after it), one piece per batch, its end last. */
class DocumentSink implements HistorySink {
  count = 0;
  private started = false;
  constructor(
    private readonly doc: DocumentFormat,
    private readonly out: OutputOptions,
  ) {}

  async write(items: readonly HistoryItem[]): Promise<void> {
    if (items.length === 0) return;
    let text = this.started ? '' : this.doc.start(items[0]?.feature);
    this.started = true;
    const { io } = this.out;
    const bytes = io.outBytes ? this.doc.bytes?.(items, this.count) : undefined;
    if (bytes !== undefined) {
      this.count += items.length;
      if (text !== '') await io.out(text);
      await io.outBytes?.(bytes);
      return;
    }
    for (const item of items) text += this.doc.item(item, this.count++);
    await this.out.io.out(text);
  }

  flush(): Promise<void> {
    return drained(this.out);
  }

  async end(): Promise<void> {
    if (!this.started) {
      this.started = true;
      const start = this.doc.start(undefined);
      if (start !== '') await this.out.io.out(start);
    }
    for (const piece of this.doc.end()) await this.out.io.out(piece);
    await this.flush();
  }
}

/** Records through the output layer's streaming writer. */
class RecordSink implements HistorySink {
  count = 0;
  constructor(
    private readonly stream: RecordStream,
    private readonly toRecord: (feature: ReportFeature) => Rec,
    private readonly out: OutputOptions,
  ) {}

  async write(items: readonly HistoryItem[]): Promise<void> {
    for (const item of items) {
      await this.stream.write(this.toRecord(item.feature));
      this.count++;
    }
  }

  async flush(): Promise<void> {
    await this.stream.flush?.();
    return drained(this.out);
  }

  async end(): Promise<void> {
    await this.stream.end();
    await this.flush();
  }
}

export function openHistorySink(opts: SinkOptions): HistorySink {
  const { format, out } = opts;
  if (format === 'html') return htmlSink(out);
  const fields = out.fields !== undefined;
  // --jq, --template and custom columns read the reports as -o json shows them (the features), one by one.
  if (out.script && (format === 'json' || format === 'ndjson')) {
    return new RecordSink(openStream(opts.columns, { ...out, format }), fields ? opts.flat : (f) => f as unknown as Rec, out);
  }
  if (format === 'gpx' || format === 'kml' || format === 'geojson' || ((format === 'json' || format === 'ndjson') && !fields)) {
    return new DocumentSink(documentFormat(format, opts.title), out);
  }
  const shared: OutputFormat = format;
  const asSent = format === 'yaml' && !fields;
  const toRecord = asSent ? (f: ReportFeature): Rec => f as unknown as Rec : opts.flat;
  return new RecordSink(openStream(opts.columns, { ...out, format: shared }), toRecord, out);
}

/** A document of many units in which each unit is one piece: a GPX track, a KML folder. */
export interface UnitGroupedSink {
  readonly count: number;
  /** Writes one unit's reports (given whole, in batches) as its track or folder. */
  writeUnit(name: string, batches: AsyncIterable<readonly HistoryItem[]>): Promise<void>;
  flush(): Promise<void>;
  end(): Promise<void>;
}

/** gpx: one <trk> per unit; kml: one <Folder> per unit, with its placemarks and its track. */
export function openGroupedSink(format: 'gpx' | 'kml', out: OutputOptions, title: string): UnitGroupedSink {
  let count = 0;
  let started = false;
  const start = async (): Promise<void> => {
    if (started) return;
    started = true;
    await out.io.out(format === 'gpx' ? gpxHeader() : kmlStart(title));
  };
  return {
    get count() {
      return count;
    },
    async writeUnit(name, batches) {
      await start();
      const track = new TrackBuffer();
      let text = format === 'gpx' ? gpxTrackStart(name) : kmlFolderStart(name);
      for await (const items of batches) {
        for (const item of items) text += format === 'gpx' ? gpxPoint(item.feature) : kmlPlacemark(item.feature, track);
        count += items.length;
        await out.io.out(text);
        text = '';
      }
      if (format === 'gpx') text += gpxTrackEnd();
      else text += [...kmlTrack(`Track of ${name}`, track), kmlFolderEnd()].join('');
      await out.io.out(text);
    },
    flush: () => drained(out),
    async end() {
      await start();
      await out.io.out(format === 'gpx' ? gpxFooter() : kmlEnd());
      await drained(out);
    },
  };
}

/** -o html: a map page (src/io/pages/map/), loaded with Leaflet on first use, so other formats never load it. */
function htmlSink(out: OutputOptions): HistorySink {
  let loaded: HistorySink | undefined;
  let loading: Promise<HistorySink> | undefined;
  const open = (): Promise<HistorySink> => (loading ??= import('../map/history-sink.js').then((m) => (loaded = new m.HtmlHistorySink(out))));
  return {
    get count() {
      return loaded?.count ?? 0;
    },
    write: async (items) => (await open()).write(items),
    flush: async () => (await open()).flush(),
    end: async () => (await open()).end(),
  };
}
