/**
 * A unit's state read from the age of its last report, where no speed is at hand (the records of
 * GET /all-units/ carry none): a tracker reports often while it moves and rarely when parked.
 * moving: a report within MOVING_WINDOW_S; stale: none for `staleS` (or none ever); stopped:
 * between. A stationary unit (a sensor) is never moving. The units map and the start of `watch`
 * both read it this way, so they agree.
 */
export const MOVING_WINDOW_S = 10 * 60;

export type AgeState = 'moving' | 'stopped' | 'stale';

/** `lastReport` and `now` in unix seconds; 0 or null: never reported. */
export function stateFromAge(lastReport: number | null, now: number, staleS: number, stationary = false): AgeState {
  if (lastReport === null || lastReport <= 0) return 'stale';
  const age = now - lastReport;
  if (age > staleS) return 'stale';
  return age <= MOVING_WINDOW_S && !stationary ? 'moving' : 'stopped';
}
