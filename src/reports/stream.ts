/**
 * How the report algorithms consume a stream. Each algorithm is a per-unit processor
 * (push a report, get what it completed; finish at the end), so the same code serves one
 * unit's history (`run`) and a merged stream of many units (`byUnit`).
 */
import type { ReportFeature } from '../api/types.js';

/** The state machine of one unit: memory bounded whatever the number of reports. */
export interface UnitProcessor<T> {
  /** Take the next report; returns the records it completed (often none). */
  push(report: ReportFeature): Iterable<T>;
  /** The stream ended: returns what was still open. */
  finish(): Iterable<T>;
}

/** Feeds one unit's reports through a processor and yields its records as they complete. */
export async function* run<T>(reports: AsyncIterable<ReportFeature> | Iterable<ReportFeature>, processor: UnitProcessor<T>): AsyncIterable<T> {
  for await (const report of reports) yield* processor.push(report);
  yield* processor.finish();
}

/**
 * Splits a merged stream of many units by `did`, one processor per unit made by `perUnit`,
 * and yields every unit's records as they complete (each record carries its did). Memory is
 * one processor per unit seen; every unit is finished, in order of first appearance, when
 * the stream ends.
 */
export async function* byUnit<T>(
  reports: AsyncIterable<ReportFeature> | Iterable<ReportFeature>,
  perUnit: (did: number) => UnitProcessor<T>,
): AsyncIterable<T> {
  const units = new Map<number, UnitProcessor<T>>();
  for await (const report of reports) {
    const did = report.properties.did;
    let p = units.get(did);
    if (!p) {
      p = perUnit(did);
      units.set(did, p);
    }
    yield* p.push(report);
  }
  for (const p of units.values()) yield* p.finish();
}

/** A processor fed by another: `inner` receives what `outer` emits (reports in date order, for instance). */
export function chain<T>(outer: UnitProcessor<ReportFeature>, inner: UnitProcessor<T>): UnitProcessor<T> {
  return {
    *push(report) {
      for (const r of outer.push(report)) yield* inner.push(r);
    },
    *finish() {
      for (const r of outer.finish()) yield* inner.push(r);
      yield* inner.finish();
    },
  };
}
