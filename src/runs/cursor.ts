/**
 * Where --follow and --checkpoint resume: a lastQueryTime and the keys of the reports
 * the last reply held.
 *
 * The service filters lastQueryTime on the time a report was RECEIVED, in its own
 * clock, but a feature carries only its report date. So the next lastQueryTime must
 * be a time the service had certainly reached when it answered, with no trust in the
 * local clock (it may be skewed by hours) nor in the Date header alone (a proxy in
 * front of the service sets its own, an hour ahead or behind):
 *
 *   next = max(previous, min(newest report date, Date header) − OVERLAP)
 *
 * A report's date is at or before its reception, which is at or before the service's
 * "now", so `next` never skips a report; it only overlaps the last reply. The Date header
 * only bounds a date from a unit whose clock runs ahead: a reply without reports proves
 * nothing of the service's clock and leaves `next` where it was. Reports in
 * the overlap are exactly those of the last reply received after `next`; since the
 * reply does not say which, the keys of the whole last reply are kept and anything
 * among them is not printed again. Because `next` never decreases, a report printed
 * by any earlier reply that shows up again was in the last reply too.
 */
import { hash } from 'node:crypto';
import { Report, type HistoryItem, type HistoryQuery } from '../api/history.js';
import type { ReportPoint } from '../api/types.js';

/** Margin for reports the service stamped received but had not yet made visible. */
export const OVERLAP_S = 300;
/** The keys kept; a reply larger than this keeps its last MAX_KEYS (in the order sent). */
export const MAX_KEYS = 100_000;

/** The properties a report's key holds: the point reader's when the reply was read by one (no parse), else the parsed feature's (the same values). */
const keyed = (item: HistoryItem): ReportPoint['properties'] => (item instanceof Report ? item.point : item.feature).properties;

/**
 * A report's identity: unit, time, type, value, place and message. The same key as a Hash
 * object gave (checkpoints keep it), by one-shot hash(): a quarter of the cost per report.
 */
function reportKey(p: ReportPoint['properties']): string {
  const identity = JSON.stringify([p.did, p.date, p.reportType, p.reportValue, p.lat, p.lng, p.message]);
  return hash('sha1', identity, 'base64url').slice(0, 16);
}

/** One reply being read: the keys it held (printed or not) and its newest date. */
export class Poll {
  readonly keys = new Set<string>();
  newest: number | undefined;

  /** Records the batch and returns the reports not printed before. */
  fresh(items: readonly HistoryItem[], seen: ReadonlySet<string>): HistoryItem[] {
    const out: HistoryItem[] = [];
    for (const item of items) {
      const p = keyed(item);
      const key = reportKey(p);
      const date = p.date;
      if (typeof date === 'number' && Number.isFinite(date) && (this.newest === undefined || date > this.newest)) this.newest = date;
      if (!seen.has(key) && !this.keys.has(key)) out.push(item);
      remember(this.keys, key);
    }
    return out;
  }
}

function remember(keys: Set<string>, key: string): void {
  keys.delete(key);
  keys.add(key);
  if (keys.size > MAX_KEYS) keys.delete(keys.values().next().value as string);
}

export class Cursor {
  constructor(
    /** undefined until a first reply: the first query is the window asked for. */
    public lastQueryTime: number | undefined,
    public seen: Set<string> = new Set(),
  ) {}

  /** The query that continues from here. */
  next(window: HistoryQuery, reportTypes: readonly string[] | undefined): HistoryQuery {
    if (this.lastQueryTime === undefined) return window;
    return reportTypes ? { lastQueryTime: this.lastQueryTime, reportTypes } : { lastQueryTime: this.lastQueryTime };
  }

  /**
   * A reply was read to the end and printed: move on. `asked` is the query it answered; `serverTime`
   * its Date header; `proven` the newest report date the service showed before it answered (another
   * unit's, in the fleet's list): a reply without reports moves on that far, as the service's clock
   * had certainly reached it, and no further (the header alone may be a proxy's).
   */
  commit(poll: Poll, asked: HistoryQuery, serverTime: number | undefined, proven?: number): void {
    const base = this.lastQueryTime ?? asked.lastQueryTime ?? asked.from ?? 0;
    const newest = poll.newest ?? (serverTime === undefined ? undefined : proven);
    const reached = newest === undefined ? base : Math.floor(serverTime === undefined ? newest : Math.min(newest, serverTime)) - OVERLAP_S;
    this.lastQueryTime = Math.max(0, base, reached);
    this.seen = poll.keys;
  }

  /** A reply failed part-way: what it printed must not print again, but the time stays. */
  salvage(poll: Poll): void {
    for (const key of poll.keys) remember(this.seen, key);
  }
}
