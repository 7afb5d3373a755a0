/**
 * The shapes commands code against when they hand records to the output layer.
 * Kept apart from output.ts so the renderers can share them without importing the dispatcher.
 */
import type { JqProgram } from '../jq.js';
import type { IO } from '../../delivery/streams.js';
import type { Template } from '../template.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
/** Lists also print `wide` (a table of every column, whatever the width) and `name` (kind/id a line, as kubectl). */
export const LIST_FORMATS = [...OUTPUT_FORMATS, 'wide', 'name'] as const;

/** How a list is arranged before it is printed: --sort-by, --limit, and -o wide or -o name. */
export interface ListArrangement {
  /** A column key or record field; a leading '-' sorts descending. */
  sortBy?: string;
  limit?: number;
  shape?: 'wide' | 'name';
}

export type Rec = Record<string, unknown>;

export type Tone = 'bad' | 'warn' | 'good' | 'dim';

export interface Column {
  /** Field name in the record (also what --fields selects). */
  key: string;
  /** Table/record-view header; default: key split at camelCase, '-' and '_', upper-cased ('lastReport' → 'LAST REPORT'). */
  header?: string;
  /** Derived value; default rec[key]. */
  value?: (rec: Rec) => unknown;
  /**
   * time: unix seconds, a clock time in the zone on a terminal; age: unix seconds shown as
   * how long ago (where recency is the point: a last report, an expiry); duration: seconds,
   * 1h 12m on a terminal. Piped tables show both kinds of time as RFC 3339 UTC, durations as seconds.
   */
  kind?: 'text' | 'number' | 'time' | 'age' | 'duration' | 'bool' | 'list';
  /** A clock time to the second (history), not the minute. */
  seconds?: boolean;
  /** An age column's text on a terminal when there is no time: 'never' (a unit that never reported) unless said ('—' for an expiry). */
  none?: string;
  /** Colour (TTY table only) for the cell; e.g. red for inactive, yellow for low battery. */
  tone?: (rec: Rec) => Tone | undefined;
  /**
   * Free text (names, addresses, messages) that a terminal table may cut with '…'
   * (down to about 10 cells) to fit. Other columns (ids, numbers, times, yes/no)
   * are shown whole or not at all.
   */
  shrink?: boolean;
  /**
   * How long the column stays on a narrow terminal: when the table does not fit,
   * columns are left out lowest priority first (rightmost first among equals).
   * Default 0; e.g. 3 for the id, 2 for the name. Below 0 the column is optional:
   * it also gives way rather than see a more important column cut (e.g. groups).
   * Only the terminal table drops columns; TSV, CSV and the other formats keep them all.
   */
  priority?: number;
}

export interface OutputOptions {
  io: IO;
  format: OutputFormat;
  /** --fields: which record keys, in that order (for every format). */
  fields?: string[];
  /** --no-header → false (table & csv). */
  header: boolean;
  /** Colour allowed (the caller decided from TTY/NO_COLOR/FORCE_COLOR/--no-color). */
  color: boolean;
  /** stdout is a terminal: table fitted & pretty; false → plain TSV. */
  tty: boolean;
  /** Milliseconds, for relative times. */
  now: () => number;
  /** The invocation's IANA zone (the zone rule): terminal tables show clock times in it. */
  timeZone: string;
  /** --jq, --template or -o custom-columns: the JSON document (or each streamed record) goes through it instead. */
  script?: Script;
  /** A list's --sort-by, --limit, -o wide or -o name (renderList). */
  list?: ListArrangement;
}

/**
 * A script of the output: what --jq, --template and -o custom-columns ask for. jq and
 * templates apply to the JSON document the command prints with -o json, or, with
 * -o ndjson (and on watch), to each record; custom columns to each record.
 */
export type Script =
  | { kind: 'jq'; program: JqProgram }
  | { kind: 'template'; template: Template }
  | { kind: 'columns'; columns: CustomColumn[] };

/** One column of -o custom-columns: its header and the path of its value in each record. */
export interface CustomColumn {
  header: string;
  /** As written (`.position.lat`), for messages. */
  path: string;
  /** Parsed steps: a key, an index (negative counts from the end) or '*' (every element). */
  steps: Array<string | number | { every: true }>;
}

export interface RecordStream {
  write(rec: Rec): Promise<void>;
  /** Hands every record written so far to io.out (a stream that batches, as --jq does, holds some back). */
  flush?(): Promise<void>;
  end(): Promise<void>;
}
