/**
 * One fleet run, the mechanism of history, report, watch and wait. A command hands it a plan
 * (plain values: which units, how many at once, one pass or rounds, the checkpoint, the
 * progress line) and a target (what a unit is, its turn, what follows a round, the end);
 * runFleet does the rest, in this order:
 *
 *   checkpoint lock and open -> target.open -> signals -> the selection (and its shard) ->
 *   each unit's state -> target.start -> the engine's pass or rounds (runs/engine.ts: the pool
 *   and the failure policy; a unit's delivered progress to the Ledger, runs/delivery.ts) ->
 *   target.end unless every unit failed -> the one exit rule (runs/outcome.ts) -> saved
 *   what was delivered -> target.cleanup -> after a stop by SIGTERM, exit 143.
 *
 * It takes no Context: the io, the clock, the api and the lines for people come as values.
 */
import type { Api } from '../api/client.js';
import { UsageError, type InterruptedError } from '../errors.js';
import type { IO, Unread } from '../io/delivery/streams.js';
import { startProgress, type Progress } from '../io/terminal/progress.js';
import { unitsOfShard, type Shard } from './shard.js';
import { withCheckpointLock } from '../lock.js';
import { RunCheckpoint, type CheckpointSpec, type UnitProgress } from './checkpoint.js';
import { Ledger, type SavePolicy } from './delivery.js';
import { FleetEngine, type FailurePolicy, type Rounds, type Unit } from './engine.js';
import { endInterrupts, watchInterrupts, type Ending, type Interrupts } from './interrupts.js';
import { describeSelection, resolveUnits, type SelectedUnit } from './select.js';
import type { UnitSelection } from './selection.js';

/** Rounds until stopped (history --follow, watch, wait); a plan without them makes one pass. */
export interface FleetRounds {
  intervalMs: number;
  /**
   * 'stop' (history --follow, watch): a first Ctrl-C or SIGTERM stops after the round in flight
   * and the run ends well (SIGTERM: 143 once saved), a second gives up the requests in flight
   * (runs/interrupts.ts). 'end' (wait): the first ends the run at once, with its exit code,
   * unless the target had just stopped the rounds itself (its condition held).
   */
  signals: 'stop' | 'end';
  /** 'end': local clock ms at which the requests in flight are given up and the run ends (target.end says what that means). */
  deadline?: number | undefined;
  /** What a unit's failure does (runs/engine.ts); 'give-up' when absent. */
  failures?: FailurePolicy;
  /** How a given-up unit is described: "no longer followed". */
  givenUp?: string;
  /** The pause before the next round (ms), and null when it ends. */
  onWait?: (ms: number | null) => void;
}

export interface FleetPlan<P = unknown> {
  selection: UnitSelection;
  /** --shard K/N: this worker's part of the selection. */
  shard?: Shard | undefined;
  concurrency: number;
  rounds?: FleetRounds | undefined;
  /** --checkpoint: the file (held under its lock for the whole run) and what kind it is. */
  checkpoint?: { file: string; spec: CheckpointSpec<P> } | undefined;
  /** A selection with no units: 'say' so (a note), or 'fail' (a usage error); nothing when absent. */
  empty?: 'say' | 'fail';
  /** The progress line on stderr: counting units (one tick per turn) or what the target adds. */
  progress?: { label: string; count: 'units' | 'reports'; quiet?: boolean } | undefined;
  /** The client, asked for once the target is open (an output that cannot be written fails first). */
  api(): Promise<Api>;
  io: IO;
  env: NodeJS.ProcessEnv;
  /** The local clock (ms). */
  now(): number;
  /** --quiet: no notes (no units, Ctrl-C) and no progress line. */
  quiet?: boolean;
  /** A note for people; on stderr, but for --quiet, when absent. */
  say?(message: string): void;
  /** A unit's failure or a warning, said even with --quiet; on stderr when absent. */
  warn?(message: string): void;
}

/** How the target takes delivery, once open: what --checkpoint saves, and when (runs/delivery.ts). */
export interface Delivery {
  /** 'at-end' when absent. */
  save?: SavePolicy;
  /** The output is a pipe or socket: acknowledged bytes may still wait there for a reader. */
  unread?: Unread | undefined;
  /** A run whose end() succeeded saves the units it delivered even when others failed (the lake publishes them all at once). */
  savedWhenEnded?: boolean;
}

/** What a run does with its units. U: a unit in this run; P: the unit state its checkpoint keeps (watch). */
export interface FleetTarget<U extends Unit, P = unknown> {
  /** Under the checkpoint's lock, with it open, before anything is selected: open the output. */
  open?(checkpoint: RunCheckpoint<P> | undefined): Promise<Delivery | void>;
  /** The whole selection as resolved, before --shard takes its part. */
  selected?(units: readonly SelectedUnit[]): void;
  /** A unit of this run: from what the checkpoint holds of it, or new (saved undefined). */
  unit(selected: SelectedUnit, saved: UnitProgress<P> | undefined): U;
  /** Before the first turn, with the run's units, its client and its progress line. */
  start?(units: readonly U[], run: { api: Api; progress: Progress }): Promise<void>;
  /** One unit's turn: resolves once its output was written (committed where the target commits); throws its failure. */
  turn(unit: U, signal: AbortSignal | undefined): Promise<void>;
  /** What the checkpoint keeps of a unit whose turn succeeded (saved when the policy says it is delivered). */
  progressOf?(unit: U): UnitProgress<P>;
  /** After a round (or the one pass), with the units whose turn succeeded: false stops the rounds. */
  afterRound?(done: readonly U[]): Promise<boolean | void>;
  /**
   * Whether the run got what it waited for (watch --exit-on: the event; wait: the condition):
   * then that is its outcome, exit 0, whatever other units failed (they were named on stderr).
   */
  reached?(): boolean;
  /**
   * The run ended and not every unit failed: close the document (nothing is started for
   * nothing). `stoppedBy`: the signal that stopped the rounds, if one did.
   */
  end?(stoppedBy: InterruptedError | undefined): Promise<void>;
  /** Always, last: temporary files, the screen, the stream. */
  cleanup?(): Promise<void>;
  /** Rounds: a unit that needs no more turns (wait: its condition held). */
  finished?(unit: U): boolean;
  /** Rounds: a unit's transient failure, tried again next round. */
  retrying?(unit: U, err: Error): void;
}

export async function runFleet<U extends Unit, P = unknown>(plan: FleetPlan<P>, target: FleetTarget<U, P>): Promise<void> {
  const cp = plan.checkpoint;
  if (cp === undefined) return run(plan, target, undefined);
  await withCheckpointLock(cp.file, async () => run(plan, target, await RunCheckpoint.open(cp.file, cp.spec, plan.now)));
}

async function run<U extends Unit, P>(plan: FleetPlan<P>, target: FleetTarget<U, P>, checkpoint: RunCheckpoint<P> | undefined): Promise<void> {
  const rounds = plan.rounds;
  // wait's signals count from its start, as its deadline does.
  const ending: Ending | undefined = rounds?.signals === 'end' ? endInterrupts(rounds.deadline === undefined ? undefined : rounds.deadline - plan.now()) : undefined;
  let interrupts: Interrupts | undefined;
  let progress: Progress | undefined;
  let ledger: Ledger<P> | undefined;
  let ok = false;
  let ended = false;
  let stoppedByTarget = false;
  let delivery: Delivery = {};
  const say = plan.say ?? ((m: string): void => void (plan.quiet || plan.io.err(m)));
  try {
    delivery = (await target.open?.(checkpoint)) ?? {};
    if (rounds?.signals === 'stop') interrupts = watchInterrupts(say);
    const api = await plan.api();
    const selected = await resolveUnits(api, plan.selection);
    target.selected?.(selected);
    const shard = plan.shard;
    const chosen = shard ? unitsOfShard(selected, shard) : selected;
    if (chosen.length === 0 && plan.empty === 'fail') throw new UsageError(`no units in ${describeSelection(plan.selection)}`);
    if (chosen.length === 0 && plan.empty === 'say') say(`No units in ${describeSelection(plan.selection)}${shard ? ` for shard ${shard.index}/${shard.count}` : ''}.`);
    const units = chosen.map((u) => target.unit(u, checkpoint?.has(u.did) ? checkpoint.progress(u.did) : undefined));

    const shown = plan.progress;
    const counting = shown?.count === 'units';
    progress = startProgress(plan.io, { label: shown?.label ?? '', total: counting ? units.length : undefined, unit: shown?.count, quiet: shown === undefined || shown.quiet === true || plan.quiet === true, env: plan.env });
    const line = progress;
    await target.start?.(units, { api, progress: line });

    const stop = interrupts?.stop ?? ending?.signal;
    const engineRounds: Rounds | undefined = rounds && stop && { intervalMs: rounds.intervalMs, stop, abort: interrupts?.abort, stopAbandons: ending !== undefined };
    const engine = new FleetEngine(units, {
      concurrency: plan.concurrency,
      rounds: engineRounds,
      throttled: () => api.http.throttled,
      say: plan.warn ?? ((m) => plan.io.err(m)),
      givenUp: rounds?.givenUp,
      onWait: rounds?.onWait,
      failures: rounds?.failures,
      retrying: (u, err) => target.retrying?.(u, err),
      finished: (u) => target.finished?.(u) ?? false,
    });
    const l = new Ledger(checkpoint, delivery.save ?? 'at-end', delivery.unread);
    ledger = l;
    await engine.run(
      async (unit, signal) => {
        try {
          await target.turn(unit, signal);
        } catch (err) {
          if (counting) line.tick(false);
          throw err;
        }
        if (target.progressOf) l.unitDone(unit.did, target.progressOf(unit));
        if (counting) line.tick();
      },
      async (done) => {
        const more = await target.afterRound?.(done);
        if (more === false) stoppedByTarget = true;
        await l.roundDone();
        return more;
      },
    );
    const interrupted = ending?.interrupted();
    if (interrupted !== undefined && !stoppedByTarget) throw interrupted;
    const failure = engine.outcome();
    // Every unit failed: nothing was printed, and no document (header, brackets) is started for nothing.
    if (failure === undefined || engine.failures.length < units.length) {
      await target.end?.(interrupts?.stopped() ?? ending?.interrupted());
      ended = true;
    }
    progress.stop();
    // The target got what it waited for (see reached): `watch --exit-on sos && page` pages.
    if (failure !== undefined && target.reached?.() === true && engine.failures.length < units.length) (plan.warn ?? ((m) => plan.io.err(m)))(`warning: ${failure.message}`);
    else if (failure !== undefined) throw failure;
    ok = true;
  } finally {
    progress?.stop();
    interrupts?.dispose();
    ending?.dispose();
    try {
      await ledger?.end(delivery.savedWhenEnded ? ended : ok);
    } finally {
      await target.cleanup?.();
    }
  }
  // Stopped by SIGTERM: what was delivered is saved, and the run says it was terminated (exit 143).
  const terminated = interrupts?.terminated();
  if (terminated) throw terminated;
}
