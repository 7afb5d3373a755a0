/**
 * What a run must not leave behind when SIGINT or SIGTERM ends it: its lock, its spool
 * folders. A command that takes the signal itself (watch, wait, following) ends normally,
 * and its finally blocks clean up. Otherwise the signal ends the process at once (Node's
 * default) and skips them: so the handler here removes what is registered, synchronously,
 * then lets the signal end the process as it would have (a shell still sees 130 or 143).
 */
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const cleanups = new Set<() => void>();

function onSignal(signal: NodeJS.Signals): void {
  // Another handler takes this signal: the run ends through its finally blocks, which clean up.
  if (process.listenerCount(signal) > 1) return;
  for (const fn of cleanups) {
    try {
      fn();
    } catch {
      // Best effort: the process is ending; what is left, a later run removes (its owner is gone).
    }
  }
  cleanups.clear();
  for (const s of SIGNALS) process.off(s, onSignal);
  process.kill(process.pid, signal);
}

/** Runs `fn` (synchronous) if SIGINT or SIGTERM ends the process before the returned function is called. */
export function cleanUpOnSignal(fn: () => void): () => void {
  if (cleanups.size === 0) for (const s of SIGNALS) process.on(s, onSignal);
  cleanups.add(fn);
  return () => {
    if (!cleanups.delete(fn)) return;
    if (cleanups.size === 0) for (const s of SIGNALS) process.off(s, onSignal);
  };
}
