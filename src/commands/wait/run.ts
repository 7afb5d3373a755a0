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
import { Reported, UsageError, WaitTimeout } from '../../errors.js';
import { openStream, renderRecord, type Column, type OutputOptions, type RecordStream } from '../../io/formats/output.js';
import { loadFences } from '../../reports/fences.js';
import { conditionLabel, UnitWait, type Condition } from '../../reports/conditions.js';
import type { UnitSnapshot, WatchReport } from '../../reports/watch-events.js';
import { byDate, SEED_S } from '../../reports/watch-start.js';
import type { Run } from '../action.js';
import { seconds } from '../values.js';
import { Cursor } from '../../runs/cursor.js';
import { runFleet, type FleetTarget } from '../../runs/fleet.js';
import { pollUnit, streamWindow, type WriteReports } from '../../runs/query.js';
import { ServiceClock } from '../../runs/service-clock.js';
import { unitSnapshots, type SelectedUnit } from '../../runs/select.js';
import { parseWaitPlan, type WaitOptions, type WaitPlan } from './options.js';

/** Units polled at once. */
const CONCURRENCY = 8;

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
  const global = ctx.globals.timeout;
  const plan = parseWaitPlan(args, { ...opts, timeout: opts.timeout ?? (global === undefined ? undefined : seconds()(global, '--timeout')) });
  if (ctx.globals.raw) throw new UsageError('--raw cannot be used with wait: it prints the report that met the condition');
  const spec = plan.condition;
  const condition: Condition = 'file' in spec ? { ...spec, fences: await loadFences(spec.file) } : spec;
  const out = await ctx.output({ fields: COLUMNS.map((c) => c.key) });
  const deadline = plan.timeoutMs === undefined ? undefined : ctx.clock.now() + plan.timeoutMs;
  await runFleet(
    {
      selection: plan.selection,
      concurrency: CONCURRENCY,
      // A passing failure is tried again each round until the deadline; anything else ends the wait.
      rounds: { intervalMs: plan.intervalMs, signals: 'end', deadline, failures: 'until-stopped' },
      empty: 'fail',
      api: () => ctx.api(), io: ctx.io, env: ctx.env, now: () => ctx.clock.now(),
    },
    waitTarget(ctx, plan, condition, out),
  );
};

interface Waiting extends SelectedUnit {
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

/** The wait as a fleet run: each round polls the units not met yet; the end says whether the wait held. */
function waitTarget(ctx: Context, plan: WaitPlan, condition: Condition, out: OutputOptions): FleetTarget<Waiting> {
  const clock = new ServiceClock(() => ctx.clock.now());
  let api: Api;
  let known = new Map<number, UnitSnapshot>();
  /** The service's clock when the wait began (unix seconds): each unit's cursor starts there. */
  let start = 0;
  let waiting: readonly Waiting[] = [];
  let one = false;
  let stream: RecordStream | undefined;
  const held = (): boolean => (plan.any ? waiting.some((w) => w.wait.met) : waiting.every((w) => w.wait.met));
  return {
    async open() {
      api = await ctx.api();
      const all = await getAllUnits(api);
      known = unitSnapshots(all);
      for (const snap of known.values()) clock.saw(snap.lastReport);
      start = clock.at(all.serverTime) ?? Math.floor(ctx.clock.now() / 1000);
    },
    unit(unit) {
      const snap = known.get(unit.did) ?? { did: unit.did, name: unit.name ?? '' };
      if (snap.name === '' && unit.name) snap.name = unit.name;
      const last = snap.lastReport ?? undefined;
      const seedFrom = condition.kind === 'reporting' || last === undefined ? undefined : Math.max(0, last - SEED_S);
      return { ...unit, wait: new UnitWait(condition, snap), cursor: new Cursor(start), seedFrom, printed: false, seen: false, failure: undefined };
    },
    async start(units) {
      waiting = units;
      one = plan.any || units.length === 1;
      stream = one ? undefined : openStream(COLUMNS, out);
    },
    // One unit's round: its last reports before the wait (once), then what it sent since.
    async turn(w, signal) {
      if (w.seedFrom !== undefined) {
        const seed = collector(clock);
        const serverTime = await streamWindow(api, w.did, { from: w.seedFrom }, seed.write, { signal });
        w.wait.seed(byDate(seed.items), clock.at(serverTime) ?? start);
        w.seedFrom = undefined;
        w.seen = true;
        if (w.wait.met) return;
      }
      const reports = collector(clock);
      const serverTime = await pollUnit(api, w.did, w.cursor, {}, undefined, reports.write, { signal });
      w.wait.observe(byDate(reports.items));
      const now = clock.at(serverTime);
      if (now !== undefined) w.wait.tick(now);
      w.seen = true;
    },
    finished: (w) => w.wait.met !== undefined,
    retrying(w, err) {
      w.failure = { err, at: ctx.clock.now() };
    },
    // The units met this round, in unit order (with --any, or one unit, only the first); the rounds stop once the wait holds.
    async afterRound() {
      for (const w of waiting) {
        if (!w.wait.met || w.printed || (one && waiting.some((o) => o.printed))) continue;
        w.printed = true;
        if (stream) await stream.write({ ...w.wait.met });
        else await renderRecord({ ...w.wait.met }, COLUMNS, out);
        await ctx.io.flush();
      }
      if (held()) return false;
    },
    reached: () => held(),
    // The rounds ended: the wait held, or the deadline came first.
    async end() {
      if (held()) return;
      const label = conditionLabel(condition);
      const unseen = unseenFailure(waiting);
      if (unseen) {
        const { dids, err } = unseen;
        throw new Reported(err, `no reply for ${dids.length === 1 ? `unit ${dids[0]}` : `units ${dids.join(', ')}`} in ${formatMs(plan.timeoutMs ?? 0)}, so --for ${label} could not be checked: ${err.message}`);
      }
      const unmet = waiting.filter((w) => !w.wait.met).map((w) => w.did);
      const why =
        waiting.length === 1
          ? `unit ${unmet[0]} did not meet --for ${label}`
          : plan.any
            ? `none of units ${unmet.join(', ')} met --for ${label}`
            : `${unmet.length} of ${waiting.length} units (${unmet.join(', ')}) did not meet --for ${label}`;
      throw new WaitTimeout(`timed out after ${formatMs(plan.timeoutMs ?? 0)}: ${why}`);
    },
    async cleanup() {
      await stream?.end();
    },
  };
}

/**
 * The units not met that were never seen although their requests were sent and failed, with
 * the latest of their failures; undefined when there are none.
 */
function unseenFailure(waiting: readonly Waiting[]): { dids: number[]; err: Error } | undefined {
  const unseen = waiting.filter((w) => !w.wait.met && !w.seen && w.failure !== undefined);
  let last: { err: Error; at: number } | undefined;
  for (const { failure } of unseen) if (failure && (last === undefined || failure.at >= last.at)) last = failure;
  return last === undefined ? undefined : { dids: unseen.map((w) => w.did), err: last.err };
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
