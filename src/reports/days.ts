/**
 * Calendar days in an IANA time zone, found with Intl (no zone database of our own), so
 * days of 23 and 25 hours around daylight-saving changes come out right.
 */
import { validateTimeZone } from '../time-zone.js';

export interface Day {
  /** Local calendar date, YYYY-MM-DD. */
  key: string;
  /** First second of the day (unix s). */
  start: number;
  /** First second of the next day (unix s): the day is [start, end). */
  end: number;
}

/** One formatter per zone, shared by the clocks of every unit (a formatter holds ICU data: kilobytes each). */
const formats = new Map<string, Intl.DateTimeFormat>();

/** The longest a calendar day can last anywhere, with margin (a zone may skip or repeat a day's worth near the date line). */
const SPAN = 50 * 3600;

/** Days kept found: a move across midnight asks for the day before and the day after in turn. */
const KEPT_DAYS = 4;

/**
 * Maps unix seconds to the local day. The last few days found are kept, so a stream in date
 * order formats dates only once per day (a few dozen Intl calls), even where the summary and
 * a move across midnight ask for the day before and the day after in turn.
 */
export class DayClock {
  readonly timeZone: string;
  /** None for UTC: Date reads its dates without loading ICU (see isUtcName). */
  private readonly format: Intl.DateTimeFormat | undefined;
  private last: Day | undefined;
  /** The days found most recently, newest first (last among them). */
  private readonly recent: Day[] = [];

  constructor(timeZone: string) {
    this.timeZone = validateTimeZone(timeZone);
    let format = formats.get(this.timeZone);
    if (!format && this.timeZone !== 'UTC') {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: this.timeZone,
        calendar: 'gregory',
        numberingSystem: 'latn',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
      formats.set(this.timeZone, format);
    }
    this.format = format;
  }

  /** YYYY-MM-DD of unix second t in the zone. */
  dateOf(t: number): string {
    if (!this.format) return new Date(t * 1000).toISOString().slice(0, 10);
    let y = '', m = '', d = '';
    for (const p of this.format.formatToParts(t * 1000)) {
      if (p.type === 'year') y = p.value.padStart(4, '0');
      else if (p.type === 'month') m = p.value;
      else if (p.type === 'day') d = p.value;
    }
    return `${y}-${m}-${d}`;
  }

  /** The day holding unix second t. */
  dayOf(t: number): Day {
    const last = this.last;
    if (last && t >= last.start && t < last.end) return last;
    for (const day of this.recent) {
      if (t >= day.start && t < day.end) return (this.last = day);
    }
    const sec = Math.floor(t);
    const key = this.dateOf(sec);
    // Dates only grow with time: binary search for the first second of this date and of the next.
    const start = this.firstSecond(sec - SPAN, sec, (s) => this.dateOf(s) >= key);
    const end = this.firstSecond(sec, sec + SPAN, (s) => this.dateOf(s) > key);
    const day = { key, start, end };
    this.recent.unshift(day);
    if (this.recent.length > KEPT_DAYS) this.recent.pop();
    return (this.last = day);
  }

  /** Smallest s in (lo, hi] with pred(s), given pred(hi) and pred monotone. */
  private firstSecond(lo: number, hi: number, pred: (s: number) => boolean): number {
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (pred(mid)) hi = mid;
      else lo = mid;
    }
    return hi;
  }
}
