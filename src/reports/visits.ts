/**
 * The geofence report: one record per visit of a unit to a fence. A visit starts at the first
 * report inside the fence and ends at the first report outside it (so duration is known to
 * within a reporting interval). A unit inside when the stream starts enters at its first
 * report; a visit still open when the stream ends has exit null, open true, and lasts up to
 * the last report. Records come as visits end, then the open ones in fence order.
 * Field names are fixed by the design; `open` is an addition.
 *
 * A fix the trips and stops leave out as an outlier (a jump: impossible speeds from both
 * neighbours, or a detour neither the odometer nor the speeds explain; fix.ts outlierReason)
 * neither ends nor starts a visit: each fix is judged once the next one came.
 */
import type { ReportPoint } from '../api/types.js';
import { type Fence, inFence } from './fences.js';
import { hasPosition } from './geo.js';
import { fixOf, outlierReason, speedOf, type Fix } from './fix.js';
import { ordered, type OrderOptions } from './order.js';
import { DEFAULTS, type ReportParams } from './params.js';
import { run, type UnitProcessor } from './stream.js';

export interface Visit {
  did: number;
  name: string;
  fence: string;
  enter: number;
  exit: number | null;
  duration: number;
  open: boolean;
}

export function visitProcessor(fences: readonly Fence[], params: ReportParams = DEFAULTS, order: OrderOptions = {}): UnitProcessor<Visit> {
  /** Per fence, the report that entered it, while inside. */
  const entered: (ReportPoint | undefined)[] = fences.map(() => undefined);
  let last: ReportPoint | undefined;
  /** The last fix taken, and the newest, held until the next one says whether it is an outlier. */
  let kept: Fix | undefined;
  let held: Fix | undefined;
  /** A fix taken: the visits it ends (or none). */
  const take = (r: ReportPoint): Visit[] | undefined => {
    const p = r.properties;
    last = r;
    let out: Visit[] | undefined;
    for (let i = 0; i < fences.length; i++) {
      const inside = inFence(fences[i] as Fence, p.lng, p.lat);
      const e = entered[i];
      if (inside && !e) entered[i] = r;
      else if (!inside && e) {
        entered[i] = undefined;
        (out ??= []).push({
          did: p.did, name: p.name, fence: (fences[i] as Fence).name,
          enter: e.properties.date, exit: p.date, duration: p.date - e.properties.date, open: false,
        });
      }
    }
    return out;
  };
  const visits: UnitProcessor<Visit> = {
    push(r) {
      const p = r.properties;
      if (!hasPosition(p.lat, p.lng)) return [];
      const f = fixOf(r, speedOf(r), false, false);
      const x = held;
      held = f;
      if (!x || (kept && outlierReason(kept, x, f, params.outlierSpeedKmh))) return [];
      kept = x;
      return take(x.r) ?? [];
    },
    finish() {
      // The last fix has no next one to judge it by: it is taken.
      const out: Visit[] = held ? (take(held.r) ?? []) : [];
      held = undefined;
      kept = undefined;
      entered.forEach((e, i) => {
        if (!e || !last) return;
        out.push({
          did: last.properties.did, name: last.properties.name, fence: (fences[i] as Fence).name,
          enter: e.properties.date, exit: null, duration: last.properties.date - e.properties.date, open: true,
        });
      });
      entered.fill(undefined);
      return out;
    },
  };
  return ordered({ windowS: params.reorderWindowS, ...order }, visits);
}

/** The geofence visits of one unit. */
export function visits(
  reports: AsyncIterable<ReportPoint> | Iterable<ReportPoint>,
  fences: readonly Fence[],
  params: ReportParams = DEFAULTS,
  order: OrderOptions = {},
): AsyncIterable<Visit> {
  return run(reports, visitProcessor(fences, params, order));
}
