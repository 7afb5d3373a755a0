/**
 * The fleet-run engine of history, report, watch and wait (driven by runs/fleet.ts): a
 * bounded pool over the units, one pass or rounds until stopped (--follow, watch, wait), and
 * the failure policy. It is handed the units and what one unit's turn is; it runs the turns
 * and says how the run ended (runs/outcome.ts). A single unit is a fleet of one.
 *
 * Failure policy:
 * - credentials refused, an interrupt, a target that stopped taking the output (DeliveryError)
 *   or a bug end the run at once (no unit is started after it) and the run fails with it;
 * - any other failure is the unit's own: named on stderr once, the others go on;
 * - following ('give-up'), a unit's transient failure (the retry module's isTransient) is tried
 *   again next round, up to MAX_FAILED_POLLS rounds in a row, then the unit is given up;
 * - waiting ('until-stopped'), a transient failure is tried again every round until the run
 *   stops (wait's deadline), and any other failure ends the run: a unit that cannot be checked
 *   leaves nothing to wait for.
 */
import { AuthError, DeliveryError, InterruptedError, LocalIOError, TrackctlError } from '../errors.js';
import { runPool } from '../pool.js';
import { pause } from './interrupts.js';
import { runOutcome, type Failure } from './outcome.js';
import { isTransient } from '../retry.js';

/** Following: a round lasts at least this per unit (about 20 requests a second at most). */
export const MIN_ROUND_MS_PER_UNIT = 50;
/** Following: after rounds with 429s, the interval grows up to this many times the base. */
export const MAX_SLOWDOWN = 16;
/** Following: a unit that fails this many rounds in a row is given up. */
export const MAX_FAILED_POLLS = 5;

export interface Rounds {
  intervalMs: number;
  /** Aborted by a first Ctrl-C: no round starts after the one in flight. */
  stop: AbortSignal;
  /** Aborted by a second: the requests in flight are given up and the run fails with its reason. */
  abort?: AbortSignal;
  /**
   * A stop also gives up the requests in flight (wait's deadline and signals); the turns that
   * finished in that round still count (the round's after() sees them).
   */
  stopAbandons?: boolean;
}

/** What a unit's failure does when following (see the policy above). */
export type FailurePolicy = 'give-up' | 'until-stopped';

export interface EngineOptions<T extends Unit = Unit> {
  concurrency: number;
  /** Rounds until stopped; without, one pass over the units. */
  rounds?: Rounds;
  /** 429s seen so far by the HTTP client: the interval grows while they come. */
  throttled?: () => number;
  /** A line for stderr (a unit's failure, a warning). */
  say(message: string): void;
  /** How a given-up unit is described: "no longer followed". */
  givenUp?: string;
  /** Following: the pause before the next round starts (ms), and null when it ends. */
  onWait?: (ms: number | null) => void;
  /** Following: what a unit's failure does; 'give-up' when absent. */
  failures?: FailurePolicy;
  /** Following: a unit whose transient failure is tried again next round. */
  retrying?: (unit: T, err: Error) => void;
  /** Following: a unit that needs no more turns (wait: its condition held). */
  finished?: (unit: T) => boolean;
}

export interface Unit {
  did: number;
}

/**
 * One unit's turn: resolves when its output was written (and, where the target says so,
 * committed); throws its failure. `signal` aborts the request in flight (second Ctrl-C).
 */
export type Turn<T> = (unit: T, signal: AbortSignal | undefined) => Promise<void>;

/**
 * After a round (or the one pass): the units whose turn succeeded. Returns false to stop
 * following (the reader went away, nothing is left to watch).
 */
export type AfterRound<T> = (done: readonly T[]) => Promise<boolean | void>;

export class FleetEngine<T extends Unit> {
  /** Units failed or given up, each printed once. */
  readonly failures: Failure[] = [];
  private readonly failedRounds = new Map<number, number>();
  private readonly given = new Set<number>();
  private fatal: { err: unknown } | undefined;
  private readonly stopAll = new AbortController();

  constructor(
    readonly units: readonly T[],
    private readonly opts: EngineOptions<T>,
  ) {}

  /** Units still worked on (following: not given up, not finished). */
  get active(): T[] {
    return this.units.filter((u) => !this.given.has(u.did) && !this.opts.finished?.(u));
  }

  /** Runs the pass or the rounds; throws a failure that ends the run (see the policy above). */
  async run(turn: Turn<T>, after?: AfterRound<T>): Promise<void> {
    const rounds = this.opts.rounds;
    if (rounds === undefined) {
      const done = await this.round(this.units, turn, undefined);
      if (this.fatal) throw this.fatal.err;
      await after?.(done);
      return;
    }
    const stop = AbortSignal.any([rounds.stop, this.stopAll.signal]);
    const abandon = rounds.stopAbandons ? AbortSignal.any([rounds.stop, ...(rounds.abort ? [rounds.abort] : [])]) : rounds.abort;
    let slowdown = 1;
    for (;;) {
      const throttledBefore = this.opts.throttled?.() ?? 0;
      const active = this.active;
      const done = await this.round(active, turn, abandon, stop);
      if (rounds.abort?.aborted) throw rounds.abort.reason;
      if (this.fatal) throw this.fatal.err;
      if ((await after?.(done)) === false) return;
      if (rounds.stop.aborted || this.active.length === 0) return;
      slowdown = (this.opts.throttled?.() ?? 0) > throttledBefore ? Math.min(MAX_SLOWDOWN, slowdown * 2) : Math.max(1, slowdown / 2);
      const waitMs = Math.max(rounds.intervalMs, active.length * MIN_ROUND_MS_PER_UNIT) * slowdown;
      this.opts.onWait?.(waitMs);
      await pause(waitMs, stop);
      this.opts.onWait?.(null);
      if (stop.aborted) return;
    }
  }

  /** The error the run ends with by the one exit rule, or undefined. */
  outcome(what = 'units'): Error | undefined {
    return runOutcome(this.units.length, this.failures, what);
  }

  private async round(units: readonly T[], turn: Turn<T>, abort: AbortSignal | undefined, stop?: AbortSignal): Promise<T[]> {
    const done: T[] = [];
    const signal = stop ? AbortSignal.any([stop, this.stopAll.signal]) : this.stopAll.signal;
    await runPool(units, this.opts.concurrency, async (unit) => {
      try {
        await turn(unit, abort);
        this.failedRounds.delete(unit.did);
        done.push(unit);
      } catch (err) {
        this.failed(unit, err, abort);
      }
    }, signal);
    return done;
  }

  private failed(unit: T, err: unknown, abort: AbortSignal | undefined): void {
    if (abort?.aborted) return;
    const following = this.opts.rounds !== undefined;
    const untilStopped = following && this.opts.failures === 'until-stopped';
    if (isFatal(err) || (untilStopped && !isTransient(err))) {
      this.fatal ??= { err };
      this.stopAll.abort();
      return;
    }
    // the unit named once: "unit 2: unit 2 not found" says it twice
    const message = (err as Error).message;
    const named = message.startsWith(`unit ${unit.did} `) ? message : `unit ${unit.did}: ${message}`;
    if (!following) {
      this.failures.push({ id: unit.did, error: err });
      this.opts.say(`error: ${named}`);
      return;
    }
    const n = (this.failedRounds.get(unit.did) ?? 0) + 1;
    this.failedRounds.set(unit.did, n);
    if (isTransient(err) && (untilStopped || n < MAX_FAILED_POLLS)) {
      this.opts.say(`warning: ${named}; trying again next round`);
      this.opts.retrying?.(unit, err as Error);
      return;
    }
    this.given.add(unit.did);
    this.failures.push({ id: unit.did, error: err });
    this.opts.say(`error: ${named}; ${this.opts.givenUp ?? 'no longer followed'}`);
  }
}

/** A failed local write (a full disk) would fail every unit alike: the run stops, and says it once. */
function isFatal(err: unknown): boolean {
  return err instanceof AuthError || err instanceof InterruptedError || err instanceof DeliveryError || err instanceof LocalIOError || !(err instanceof TrackctlError);
}
