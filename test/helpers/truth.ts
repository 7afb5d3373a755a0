/** The sandbox's ground truth for the report tests: frozen clocks, seven whole days before each, each device's truth. */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { startHarness, type Harness } from './cli.js';

/** Seven whole days of the sandbox (every trip of them has ended by its clock), and the flags that ask for them. */
export interface Week {
  label: string;
  /** The sandbox's frozen clock, ms: 12:00 UTC, 07:00 in the sandbox city's standard time (UTC-5 for the default seed's Atlanta). */
  clockMs: number;
  from: number;
  to: number;
  window: string[];
  /** The history begins a week before the clock (when the sandbox's state was made). */
  historyFrom: number;
}

/**
 * The weeks the suite checks (the history is a function of seed, unit and time: each week is
 * other days, other silences). TRUTH_CLOCKS (dates, comma-separated) checks others: an audit of
 * the rules against more of the sandbox than the suite runs.
 */
const CLOCKS = ['2026-10-29', '2026-11-12', '2026-11-19', '2026-11-26', '2026-12-03', '2026-12-24'];

function week(day: string): Week {
  const clockMs = Date.parse(`${day}T12:00:00Z`);
  assert.ok(Number.isFinite(clockMs), `TRUTH_CLOCKS: ${day} is not a date`);
  const to = clockMs / 1000 - 3 * 3600;
  const from = to - 7 * 86400;
  return { label: day, clockMs, from, to, window: ['--from', String(from), '--to', String(to)], historyFrom: clockMs / 1000 - 7 * 86400 };
}

/** TRUTH_SEED: another demo fleet (the default seed's is what the suite checks). */
const SEED = Number(process.env.TRUTH_SEED ?? 1);

export const WEEKS: Week[] = (process.env.TRUTH_CLOCKS ? process.env.TRUTH_CLOCKS.split(',') : CLOCKS).map((d) => week(d.trim()));

/** A harness at the week's clock, every device's did, and its truth over the week (GET /_sandbox/truth/<did>). */
async function truthHarness<T>(w: Week): Promise<{ h: Harness; vehicles: number[]; truths: Map<number, T> }> {
  const h = await startHarness({ now: () => w.clockMs, sessionTtl: 30 * 86400, seed: SEED });
  const vehicles = (await h.json<Array<{ did: number }>>(['devices', 'list'])).map((d) => d.did);
  const truths = new Map<number, T>();
  for (const did of vehicles) {
    const res = await fetch(`${h.sandbox.url}/_sandbox/truth/${did}?from=${w.from}&to=${w.to}&limit=100`);
    assert.equal(res.status, 200, await res.clone().text());
    truths.set(did, (await res.json()) as T);
  }
  return { h, vehicles, truths };
}

/**
 * The week's harness for the tests of a describe: started before them (its parts filled in the object
 * returned, for the tests to read), closed after them.
 */
export function weekHarness<T>(w: Week): { h: Harness; vehicles: number[]; truths: Map<number, T> } {
  const it = {} as { h: Harness; vehicles: number[]; truths: Map<number, T> };
  before(async () => {
    Object.assign(it, await truthHarness<T>(w));
  });
  after(async () => {
    await it.h?.close();
  });
  return it;
}
