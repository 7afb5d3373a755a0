/**
 * The one exit rule of every command that works on several units or items (history,
 * report, watch, bulk deletes): each failure is printed once, where it happens; then
 *
 *   nothing failed                               -> exit 0
 *   every item failed, all with one exit code    -> that code (4 when none was found)
 *   some failed, or all but in different ways   -> 7
 *
 * A single item is the first case or the second: its own code, never 7.
 */
import { exitCodeFor, PartialFailure, Reported } from '../errors.js';

export interface Failure {
  /** The unit's did or the item's id. */
  id: number | string;
  error: unknown;
}

/**
 * The error a run ends with, or undefined when nothing failed. `what` names the items
 * in the summary ("units", "items"); the failures themselves were printed already.
 */
export function runOutcome(total: number, failures: readonly Failure[], what = 'units'): Error | undefined {
  const first = failures[0];
  if (first === undefined) return undefined;
  const code = exitCodeFor(first.error);
  if (failures.length >= total && failures.every((f) => exitCodeFor(f.error) === code)) {
    return new Reported(first.error, total > 1 ? `all ${total} ${what} failed (named above)` : '');
  }
  return new PartialFailure(failures.length, total, `${failures.length} of ${total} ${what} failed (named above)`);
}
