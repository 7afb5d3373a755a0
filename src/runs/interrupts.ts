/**
 * Ctrl-C while following: the first SIGINT stops polling once the request in flight
 * has been printed, and the command ends normally (exit 0, documents closed); a second
 * SIGINT abandons the request in flight (exit 130).
 */
import { InterruptedError } from '../errors.js';

export interface Interrupts {
  /** Aborted by the first SIGINT: poll no more. */
  readonly stop: AbortSignal;
  /** Aborted by the second: give up the request in flight. */
  readonly abort: AbortSignal;
  dispose(): void;
}

export function watchInterrupts(say: (message: string) => void): Interrupts {
  const stop = new AbortController();
  const abort = new AbortController();
  const onSignal = (): void => {
    if (!stop.signal.aborted) {
      say('Stopping after the request in flight (Ctrl-C again to quit at once)…');
      stop.abort();
    } else {
      abort.abort(new InterruptedError());
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    stop: stop.signal,
    abort: abort.signal,
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
