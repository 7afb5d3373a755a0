/**
 * `trackctl wait`: validate, take each unit's state from GET /all-units/ and its last
 * reports, then poll each unit's history in rounds (a cursor per unit, as watch does)
 * until the condition holds (reports/conditions.ts) for every unit (--all) or one (--any),
 * or the --timeout runs out: exit 8 when every unit not met was seen (a reply read whole)
 * and the condition did not hold; when one was never seen, its requests all failing (a 502,
 * a dropped connection), the wait fails with that failure's code and words (1, 6), since
 * nothing says whether the condition held.
 *
 * The deadline is on the local clock, from the start: each pause ends at it at the latest,
 * and a request still in flight then is abandoned, so a unit that never meets the
 * condition ends the wait within the timeout and one request.
 */
import { getAllUnits } from '../../api/all-units.js';
import type { Api } from '../../api/client.js';
import type { HistoryItem } from '../../api/history.js';
import type { Context } from '../../context.js';
import { interruptedBy, Reported, UsageError, WaitTimeout } from '../../errors.js';
import { runPool } from '../../pool.js';
import { openStream, renderRecord, type Column, type OutputOptions } from '../../io/formats/output.js';
import { loadFences } from '../../reports/fences.js';
import { conditionLabel, UnitWait, type Condition, type Met } from '../../reports/conditions.js';
import { byDate, SEED_S, type WatchReport } from '../../reports/watch-events.js';
import type { Run } from '../action.js';
import { Cursor } from '../../runs/cursor.js';
import { pause } from '../../runs/interrupts.js';
import { isTransient } from '../../retry.js';
import { pollUnit, streamWindow, type WriteReports } from '../../runs/query.js';
import { ServiceClock } from '../../runs/service-clock.js';
import { describeSelection, resolveUnits, unitSnapshots, type SelectedUnit } from '../../runs/select.js';
import { parseWaitPlan, type WaitOptions, type WaitPlan } from './options.js';

/** Units polled at once. */
const CONCURRENCY = 8;
/** The reports before the wait that decide a unit's motion: those of its last stopAfterS and a margin. */

export const COLUMNS: Column[] = [
  { key: 'did', header: 'DID', kind: 'number', priority: 3 },
  { key: 'name', shrink: true, priority: 2 },
  { key: 'condition', priority: 1 },
  { key: 'time', kind: 'time', seconds: true, priority: 1 },
  { key: 'date', kind: 'time', seconds: true },
  { key: 'lat', kind: 'number' },
  { key: 'lng', kind: 'number' },
  { key: 'speed', kind: 'number' },
  { key: 'battery', kind: 'number' },
  { key: 'address', shrink: true, priority: -1 },
  { key: 'reportType' },
  { key: 'fence' },
];

export const run: Run<WaitOptions> = async (args, opts, ctx) => {
  // --timeout is also the global per-request timeout, which commander gives the root command.
  const plan = parseWaitPlan(args, { ...opts, timeout: opts.timeout ?? ctx.globals.timeout });
  if (ctx.globals.raw) throw new UsageError('--raw cannot be used with wait: it prints the report that met the condition');
  const spec = plan.condition;
  const condition: Condition = 'file' in spec ? { ...spec, fences: await loadFences(spec.file) } : spec;
  const out = await ctx.output({ fields: COLUMNS.map((c) => c.key) });
  const deadline = plan.timeoutMs === undefined ? Number.POSITIVE_INFINITY : ctx.clock.now() + plan.timeoutMs;

  const abort = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => abort.abort(interruptedBy(signal));
  const timer = Number.isFinite(deadline) ? setTimeout(() => abort.abort(new WaitTimeout('timed out')), deadline - ctx.clock.now()) : undefined;
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await waitFor(ctx, plan, condition, out, abort.signal, deadline);
  } finally {
    clearTimeout(timer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
};

interface Waiting {
  unit: SelectedUnit;
  wait: UnitWait;
  cursor: Cursor;
  /** The last reports before the wait are still to be read (state conditions only). */
  seedFrom: number | undefined;
  printed: boolean;
  /** A reply of the unit was read whole: the condition was checked at least once. */
  seen: boolean;
  /** The unit's last failed request (tried again next round), and when (local ms). */
  failure: { err: Error; at: number } | undefined;
}

async function waitFor(ctx: Context, plan: WaitPlan, condition: Condition, out: OutputOptions, signal: AbortSignal, deadline: number): Promise<void> {
  const api = await ctx.api();
  const all = await getAllUnits(api);
  const known = unitSnapshots(all);
  const clock = new ServiceClock(() => ctx.clock.now());
  for (const snap of known.values()) clock.saw(snap.lastReport);
  const start = clock.at(all.serverTime) ?? Math.floor(ctx.clock.now() / 1000);
  const units = await resolveUnits(api, plan.selection);
  if (units.length === 0) throw new UsageError(`no units in ${describeSelection(plan.selection)}`);
  const waiting: Waiting[] = units.map((unit) => {
    const snap = known.get(unit.did) ?? { did: unit.did, name: unit.name ?? '' };
    if (snap.name === '' && unit.name) snap.name = unit.name;
    const last = snap.lastReport ?? undefined;
    const seedFrom = condition.kind === 'reporting' || last === undefined ? undefined : Math.max(0, last - SEED_S);
    return { unit, wait: new UnitWait(condition, snap), cursor: new Cursor(start), seedFrom, printed: false, seen: false, failure: undefined };
  });

  const one = plan.any || waiting.length === 1;
  const stream = one ? undefined : openStream(COLUMNS, out);
  const print = async (met: Met): Promise<void> => {
    if (stream) await stream.write({ ...met });
    else await renderRecord({ ...met }, COLUMNS, out);
    await ctx.io.flush();
  };
  const done = (): boolean => (plan.any ? waiting.some((w) => w.wait.met) : waiting.every((w) => w.wait.met));

  try {
    for (;;) {
      await runPool(
        waiting.filter((w) => !w.wait.met),
        CONCURRENCY,
        (w) => poll(ctx, api, w, clock, start, signal),
      );
      for (const w of waiting) {
        if (!w.wait.met || w.printed || (one && waiting.some((o) => o.printed))) continue;
        w.printed = true;
        await print(w.wait.met);
      }
      if (done()) return;
      if (signal.aborted) throw signal.reason;
      const left = deadline - ctx.clock.now();
      if (left <= 0) break;
      await pause(Math.min(plan.intervalMs, left), signal);
      if (signal.aborted) throw signal.reason;
    }
  } catch (err) {
    if (!(err instanceof WaitTimeout)) throw err;
  } finally {
    await stream?.end();
  }
  const label = conditionLabel(condition);
  const unseen = unseenFailure(waiting);
  if (unseen) {
    const { dids, err } = unseen;
    throw new Reported(err, `no reply for ${dids.length === 1 ? `unit ${dids[0]}` : `units ${dids.join(', ')}`} in ${formatMs(plan.timeoutMs ?? 0)}, so --for ${label} could not be checked: ${err.message}`);
  }
  const unmet = waiting.filter((w) => !w.wait.met).map((w) => w.unit.did);
  const why =
    waiting.length === 1
      ? `unit ${unmet[0]} did not meet --for ${label}`
      : plan.any
        ? `none of units ${unmet.join(', ')} met --for ${label}`
        : `${unmet.length} of ${waiting.length} units (${unmet.join(', ')}) did not meet --for ${label}`;
  throw new WaitTimeout(`timed out after ${formatMs(plan.timeoutMs ?? 0)}: ${why}`);
}

/** One unit's round: its last reports before the wait (once), then what it sent since. */
async function poll(ctx: Context, api: Api, w: Waiting, clock: ServiceClock, start: number, signal: AbortSignal): Promise<void> {
  try {
    if (w.seedFrom !== undefined) {
      const seed = collector(clock);
      const serverTime = await streamWindow(api, w.unit.did, { from: w.seedFrom }, seed.write, signal);
      w.wait.seed(byDate(seed.items), clock.at(serverTime) ?? start);
      w.seedFrom = undefined;
      w.seen = true;
      if (w.wait.met) return;
    }
    const reports = collector(clock);
    const serverTime = await pollUnit(api, w.unit.did, w.cursor, {}, undefined, reports.write, signal);
    w.wait.observe(byDate(reports.items));
    const now = clock.at(serverTime);
    if (now !== undefined) w.wait.tick(now);
    w.seen = true;
  } catch (err) {
    if (signal.aborted) return;
    // A passing failure is tried again next round, as the fleet engine does; anything else ends the wait.
    if (!isTransient(err)) throw err;
    w.failure = { err: err as Error, at: ctx.clock.now() };
    ctx.io.err(`warning: unit ${w.unit.did}: ${(err as Error).message}; trying again next round`);
  }
}

/**
 * The units not met that were never seen although their requests were sent and failed, with
 * the latest of their failures; undefined when there are none.
 */
function unseenFailure(waiting: readonly Waiting[]): { dids: number[]; err: Error } | undefined {
  const unseen = waiting.filter((w) => !w.wait.met && !w.seen && w.failure !== undefined);
  let last: { err: Error; at: number } | undefined;
  for (const { failure } of unseen) if (failure && (last === undefined || failure.at >= last.at)) last = failure;
  return last === undefined ? undefined : { dids: unseen.map((w) => w.unit.did), err: last.err };
}

/** The reports of a reply, as the watch state reads them; their dates witness the service's clock. */
function collector(clock: ServiceClock): { items: WatchReport[]; write: WriteReports } {
  const items: WatchReport[] = [];
  const write = async (batch: readonly HistoryItem[]): Promise<void> => {
    for (const item of batch) {
      const p = item.feature.properties;
      if (typeof p.date === 'number' && Number.isFinite(p.date)) {
        items.push(p);
        clock.saw(p.date);
      }
    }
  };
  return { items, write };
}


function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}
