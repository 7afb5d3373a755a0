/**
 * Late reports placed by their date. A reply of the history endpoint for from/to is in date
 * order (the interface does not say so; the sandbox streams by date, including reports that
 * were received late), but a stream stitched from several replies, such as a resumed run or a
 * lastQueryTime catch-up, carries reports older than ones already seen. A bounded reorder
 * buffer puts them back in order: a report is held until one at least `windowS` newer has
 * been seen, so a report arriving up to `windowS` after newer ones still takes its place.
 * One arriving later than that, or older than what was already released, is passed to
 * `onLate` and dropped. At most `maxHeld` reports are held (the oldest is released first).
 * Exact repeats (same date, type and position as the report released just before) are dropped,
 * which makes a stream that repeats what a killed run had written harmless.
 */
import type { ReportPoint } from '../api/types.js';
import { NONE, type UnitProcessor } from './stream.js';

export interface OrderOptions {
  /** Seconds a report is held for older ones to arrive (default 3600). */
  windowS?: number;
  /** Hard bound on reports held (default 2000, half an hour of a tracker reporting every second). */
  maxHeld?: number;
  /** Called with each report dropped for arriving too late to be placed. */
  onLate?: (report: ReportPoint) => void;
}

const sameReport = (a: ReportPoint, b: ReportPoint): boolean =>
  a.properties.date === b.properties.date &&
  a.properties.reportType === b.properties.reportType &&
  a.properties.lat === b.properties.lat &&
  a.properties.lng === b.properties.lng &&
  a.properties.reportValue === b.properties.reportValue;

/** The reports in date order (see above), as a processor of their own. */
export function inDateOrder(options: OrderOptions = {}): UnitProcessor<ReportPoint> {
  return ordered(options, { push: (r) => [r], finish: () => NONE });
}

/**
 * `inner` fed the reports in date order (see above): each report released goes straight to
 * inner.push, with no array of released reports between (this runs once a report).
 */
export function ordered<T>(options: OrderOptions, inner: UnitProcessor<T>): UnitProcessor<T> {
  const windowS = options.windowS ?? 3600;
  const maxHeld = Math.max(1, options.maxHeld ?? 2000);
  const onLate = options.onLate;
  // Held reports sorted by date (stable for equal dates): a ring of `size` from `head`, their dates beside them
  // (the comparisons read no report). A released slot is cleared at once, so that a released report is not kept alive.
  let ring: (ReportPoint | undefined)[] = new Array<ReportPoint | undefined>(64).fill(undefined);
  let dates = new Float64Array(64);
  let mask = 63;
  let head = 0;
  let size = 0;
  let newest = -Infinity;
  let released: ReportPoint | undefined;
  let releasedDate = -Infinity;

  /** Twice the room, the held reports from slot 0. */
  function grow(): void {
    const n = ring.length;
    const next = new Array<ReportPoint | undefined>(2 * n).fill(undefined);
    const nextDates = new Float64Array(2 * n);
    for (let i = 0; i < size; i++) {
      next[i] = ring[(head + i) & mask];
      nextDates[i] = dates[(head + i) & mask] as number;
    }
    ring = next;
    dates = nextDates;
    mask = 2 * n - 1;
    head = 0;
  }

  function release(upTo: number): readonly T[] {
    // Most reports release one, or none while the window fills; most released complete nothing: no array then.
    let out: T[] | undefined;
    while (size > 0 && (!((dates[head] as number) > upTo) || size > maxHeld)) {
      const r = ring[head] as ReportPoint;
      const date = dates[head] as number;
      ring[head] = undefined;
      head = (head + 1) & mask;
      size--;
      if (date === releasedDate && sameReport(released as ReportPoint, r)) continue;
      released = r;
      releasedDate = date;
      const recs = inner.push(r);
      for (let i = 0; i < recs.length; i++) (out ??= []).push(recs[i] as T);
    }
    return out ?? NONE;
  }

  return {
    push(report) {
      const date = report.properties.date;
      if (date < releasedDate) {
        onLate?.(report);
        return NONE;
      }
      if (size === ring.length) grow();
      if (size === 0 || (dates[(head + size - 1) & mask] as number) <= date) {
        const at = (head + size) & mask;
        ring[at] = report;
        dates[at] = date;
      } else {
        // Binary search for the first held report dated after this one: the ones from there move one on, this one takes its place.
        let lo = 0, hi = size;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if ((dates[(head + mid) & mask] as number) <= date) lo = mid + 1;
          else hi = mid;
        }
        for (let i = size; i > lo; i--) {
          ring[(head + i) & mask] = ring[(head + i - 1) & mask];
          dates[(head + i) & mask] = dates[(head + i - 1) & mask] as number;
        }
        ring[(head + lo) & mask] = report;
        dates[(head + lo) & mask] = date;
      }
      size++;
      if (date > newest) newest = date;
      return release(newest - windowS);
    },
    finish() {
      const out = [...release(Infinity)];
      for (const x of inner.finish()) out.push(x);
      return out;
    },
  };
}
