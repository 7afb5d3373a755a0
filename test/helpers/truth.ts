/** The sandbox's ground truth for the report tests: a frozen clock, seven whole days, each device's truth. */
import assert from 'node:assert/strict';
import { startHarness, type Harness } from './cli.js';

// A frozen clock at 04:00 in the sandbox city's standard time (UTC-5 for the default seed's
// Atlanta), the morning after a Wednesday.
// TRUTH_CLOCK (an ISO date) moves it, to audit the reports against other weeks of the sandbox.
export const CLOCK_MS = process.env.TRUTH_CLOCK ? Date.parse(process.env.TRUTH_CLOCK) : Date.UTC(2026, 10, 26, 12, 0, 0);

// Seven whole days: every trip of them has ended by the clock.
export const TO = CLOCK_MS / 1000 - 3 * 3600;
export const FROM = TO - 7 * 86400;
export const WINDOW = ['--from', String(FROM), '--to', String(TO)];

/** A harness at CLOCK_MS, every device's did, and its truth over FROM-TO (GET /_sandbox/truth/<did>). */
export async function truthHarness<T>(): Promise<{ h: Harness; vehicles: number[]; truths: Map<number, T> }> {
  const h = await startHarness({ now: () => CLOCK_MS, sessionTtl: 30 * 86400 });
  const vehicles = (await h.json<Array<{ did: number }>>(['devices', 'list'])).map((d) => d.did);
  const truths = new Map<number, T>();
  for (const did of vehicles) {
    const res = await fetch(`${h.sandbox.url}/_sandbox/truth/${did}?from=${FROM}&to=${TO}&limit=100`);
    assert.equal(res.status, 200, await res.clone().text());
    truths.set(did, (await res.json()) as T);
  }
  return { h, vehicles, truths };
}
