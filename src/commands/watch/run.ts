/**
 * `trackctl watch`: validate, take the units' state from GET /all-units/, then poll each
 * unit's history in rounds of the fleet-run engine (src/runs/: a cursor per unit, as history
 * --follow has) and turn the reports into events (reports/watch-events.ts): a live view on a
 * terminal, NDJSON elsewhere.
 *
 * A round: every unit is polled (a bounded pool); a unit's new reports are placed by date and
 * fed to its state, then the clock of its reply ticks it (stale). The round's events are
 * written in unit order and acknowledged by stdout, and only then is the round handed to the
 * checkpoint (runs/delivery.ts: on a pipe, once more than the pipe holds was taken after it).
 * Here: the command's run(); the rounds themselves are the fleet target in fleet.ts.
 */
import { UsageError } from '../../errors.js';
import { loadFences } from '../../reports/fences.js';
import { DEFAULT_WATCH_PARAMS, restoreState, type UnitWatchState, type WatchParams } from '../../reports/watch-state.js';
import { runFleet } from '../../runs/fleet.js';
import type { Run } from '../action.js';
import { Watch } from './fleet.js';
import { parseWatchPlan, type WatchOptions } from './options.js';

export const WATCH_FORMATS = ['table', 'ndjson', 'json'] as const;
/** Units polled at once. */
const CONCURRENCY = 8;

export const run: Run<WatchOptions> = async (args, opts, ctx) => {
  const plan = parseWatchPlan(args, opts, ctx.env);
  if (ctx.globals.raw) throw new UsageError('--raw cannot be used with watch: it writes events, not the service\'s replies');
  const { format, out } = await ctx.outputAs(WATCH_FORMATS);
  const fences = plan.geofence === undefined ? [] : await loadFences(plan.geofence);
  const params: WatchParams = { ...DEFAULT_WATCH_PARAMS, staleS: plan.staleS, lowBatteryPct: plan.lowBatteryPct, fences, speedLimit: plan.speedLimit };
  const live = format === 'table' && out.tty;
  const watch = new Watch(ctx, plan, params, out, live);
  await runFleet(
    {
      selection: plan.selection,
      shard: plan.shard,
      concurrency: CONCURRENCY,
      rounds: {
        intervalMs: plan.intervalMs,
        signals: 'stop',
        givenUp: 'no longer watched',
        // The status line shows the last and the next poll, so a quiet fleet does not look frozen.
        onWait: (ms) => watch.waiting(ms),
      },
      checkpoint: plan.checkpoint === undefined ? undefined : { file: plan.checkpoint, spec: { kind: 'watch', restore: checkedState } },
      empty: 'say',
      api: () => ctx.api(), io: ctx.io, env: ctx.env, now: () => ctx.clock.now(),
      say: (m) => watch.say(m),
      warn: (m) => watch.say(m, true),
    },
    watch,
  );
};

function checkedState(saved: unknown, did: number): UnitWatchState | undefined {
  const state = restoreState(saved);
  return state !== undefined && state.did === did ? state : undefined;
}
