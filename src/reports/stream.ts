/**
 * How the report algorithms consume a stream. Each algorithm is a per-unit processor
 * (push a report, get what it completed; finish at the end), so the same code serves one
 * unit's history (`run`) and a merged stream of many units (`byUnit`).
 */
import type { ReportPoint } from '../api/types.js';

/** The state machine of one unit: memory bounded whatever the number of reports. */
export interface UnitProcessor<T> {
  /** Take the next report; returns the records it completed (often none). */
  push(report: ReportPoint): readonly T[];
  /** The stream ended: returns what was still open. */
  finish(): readonly T[];
}

/** Feeds one unit's reports through a processor and yields its records as they complete. */
export async function* run<T>(reports: AsyncIterable<ReportPoint> | Iterable<ReportPoint>, processor: UnitProcessor<T>): AsyncIterable<T> {
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
  reports: AsyncIterable<ReportPoint> | Iterable<ReportPoint>,
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

/**
 * What a processor returns when a report completed nothing, as most do: one array for all, so
 * that a report costs no array of its own (callers only iterate what push returns; its type
 * forbids writing to it). Not frozen: a frozen array is of another elements kind, and the
 * loops that iterate what push returns would then see two kinds and compile slower.
 */
export const NONE: readonly never[] = [];
