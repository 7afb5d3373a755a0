/**
 * Ctrl-C while following (history --follow, watch): the first SIGINT stops polling once the request in flight
 * has been printed, and the command ends normally (exit 0, documents closed); a second
 * SIGINT abandons the request in flight (exit 130).
 *
 * SIGTERM (a supervisor, `kill`, `docker stop`) stops the same way, saving what was
 * delivered, but the run then ends with exit 143 and says "terminated": the stop was not
 * the user's at this terminal, and the one who sent it expects a terminated process's code.
 */
import { interruptedBy, type InterruptedError } from '../errors.js';

export interface Interrupts {
  /** Aborted by the first SIGINT or SIGTERM: poll no more. */
  readonly stop: AbortSignal;
  /** Aborted by the second: give up the request in flight. */
  readonly abort: AbortSignal;
  /** After a stop by SIGTERM: the error the run ends with once it has saved what it delivered (exit 143). */
  terminated(): InterruptedError | undefined;
  /** After a stop by either: the signal's error (what a stop means where it cuts a run short: watch --exit-on). */
  stopped(): InterruptedError | undefined;
  dispose(): void;
}

export function watchInterrupts(say: (message: string) => void): Interrupts {
  const stop = new AbortController();
  const abort = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!stop.signal.aborted) {
      stoppedBy = signal;
      say(signal === 'SIGTERM' ? 'Terminated: stopping after the request in flight (SIGTERM again to quit at once)…' : 'Stopping after the request in flight (Ctrl-C again to quit at once)…');
      stop.abort();
    } else {
      abort.abort(interruptedBy(signal));
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    stop: stop.signal,
    abort: abort.signal,
    terminated: () => (stoppedBy === 'SIGTERM' ? interruptedBy('SIGTERM') : undefined),
    stopped: () => (stoppedBy === undefined ? undefined : interruptedBy(stoppedBy)),
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** wait's signals and deadline: one signal that ends the run. */
export interface Ending {
  /** Aborted by the first SIGINT or SIGTERM, or at the deadline. */
  readonly signal: AbortSignal;
  /** The error of the signal that ended the run (130, 143); undefined when none came. */
  interrupted(): InterruptedError | undefined;
  dispose(): void;
}

/**
 * wait: the first SIGINT or SIGTERM ends the run at once (nothing waits to be delivered), and
 * so does the deadline, `ms` from now (the caller says what timed out).
 */
export function endInterrupts(ms: number | undefined): Ending {
  const end = new AbortController();
  let by: InterruptedError | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (end.signal.aborted) return;
    by = interruptedBy(signal);
    end.abort(by);
  };
  const timer = ms === undefined ? undefined : setTimeout(() => end.abort(), ms);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: end.signal,
    interrupted: () => by,
    dispose: () => {
      clearTimeout(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** Waits `ms`, or less when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
