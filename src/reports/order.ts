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
  // Held reports sorted by date (stable for equal dates), in held[head..]; released slots are
  // cleared at once so that a released report is not kept alive until the array is compacted.
  let held: (ReportPoint | undefined)[] = [];
  let head = 0;
  let newest = -Infinity;
  let released: ReportPoint | undefined;

  function release(upTo: number): readonly T[] {
    // Most reports release one, or none while the window fills; most released complete nothing: no array then.
    const first = held[head];
    if (first === undefined || (first.properties.date > upTo && held.length - head <= maxHeld)) return NONE;
    let out: T[] | undefined;
    while (head < held.length) {
      const r = held[head] as ReportPoint;
      if (r.properties.date > upTo && held.length - head <= maxHeld) break;
      held[head++] = undefined;
      if (released && sameReport(released, r)) continue;
      released = r;
      const recs = inner.push(r);
      for (let i = 0; i < recs.length; i++) (out ??= []).push(recs[i] as T);
    }
    if (head === held.length) {
      held = [];
      head = 0;
    } else if (head >= 64 && head * 2 > held.length) {
      held = held.slice(head);
      head = 0;
    }
    return out ?? NONE;
  }

  return {
    push(report) {
      const date = report.properties.date;
      if (released && date < released.properties.date) {
        onLate?.(report);
        return NONE;
      }
      const last = held.length > head ? held[held.length - 1] : undefined;
      if (head === held.length || (last && last.properties.date <= date)) held.push(report);
      else {
        // Binary search for the first held report dated after this one: insert before it.
        let lo = head, hi = held.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if ((held[mid] as ReportPoint).properties.date <= date) lo = mid + 1;
          else hi = mid;
        }
        held.splice(lo, 0, report);
      }
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
