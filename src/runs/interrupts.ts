/**
 * Ctrl-C while following: the first SIGINT stops polling once the request in flight
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
    dispose: () => {
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
