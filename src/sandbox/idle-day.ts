/**
 * A day the unit does not drive (every day of a fixed unit; a vehicle's day off, parked at
 * its depot), and the silences every plan shares: a sleeper's naps, and the merge that keeps
 * a plan's silences sorted and disjoint.
 */
import { unit } from './prng.js';
import { DAY, resetsOf, type Profile } from './unit-profile.js';
import { GAP_MAX, GAP_MIN, IDLE_GAP_RATE, SLEEP_MAX, SLEEP_MIN, SLEEP_RATE, type DayPlan, type Silence, type Stop } from './day-plan.js';

/** Sorted and disjoint: overlapping silences become one (an outage if either is, else ignition if either is). */
export function merged(list: Silence[]): Silence[] {
  list.sort((a, b) => a.from - b.from);
  const out: Silence[] = [];
  for (const s of list) {
    const last = out[out.length - 1];
    if (last && s.from <= last.to) {
      last.to = Math.max(last.to, s.to);
      if (s.kind === 'outage' || (s.kind === 'ignition' && last.kind === 'sleep')) last.kind = s.kind;
    } else out.push(s);
  }
  return out;
}

/** A sleeper's logger may sleep from the moment it parks (so the trip's `stopped` report is never sent) until 5 minutes before it leaves, at most. */
export function sleepAt(seed: number, did: number, d: number, i: number, from: number, to: number, out: Silence[]): void {
  const room = Math.min(SLEEP_MAX, to - from - 300);
  if (room < SLEEP_MIN || unit(seed, did, d, 1400 + i) >= SLEEP_RATE) return;
  out.push({ from, to: from + SLEEP_MIN + Math.floor(unit(seed, did, d, 1450 + i) ** 2 * (room - SLEEP_MIN)), kind: 'sleep' });
}

export function idleDay(seed: number, did: number, p: Profile, d: number, start: number, odoStart: number): DayPlan {
  const end = start + DAY;
  const stop: Stop = { from: start - 1, to: end, lat: p.depotLat, lng: p.depotLng, heading: p.depotHeading, odo: 0 };
  const silences: Silence[] = [];
  if (unit(seed, did, d, 1003) < IDLE_GAP_RATE) {
    const len = GAP_MIN + Math.floor(unit(seed, did, d, 1005) * (GAP_MAX - GAP_MIN));
    const g0 = start + Math.floor(unit(seed, did, d, 1004) * (DAY - len));
    silences.push({ from: g0, to: g0 + len, kind: 'outage' });
  }
  if (p.sleeper) {
    const from = start + Math.floor(unit(seed, did, d, 1006) * (DAY - SLEEP_MAX));
    sleepAt(seed, did, d, 0, from, from + SLEEP_MAX + 300, silences);
  }
  return {
    seed, did, kind: p.kind, day: d, start, end, odoStart, ...resetsOf(seed, did, p, d, start), step: p.step,
    stops: [stop], trips: [], silences: merged(silences),
  };
}
