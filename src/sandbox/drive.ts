/**
 * The working days of the sandbox fleet, as a pure function of (seed, unit, day).
 *
 * A day runs from 03:00 to 03:00 fleet-local time, when every vehicle is parked at its
 * depot, so any day can be planned alone: a window of history never needs the days
 * before it. A working day is a loop depot → stop → … → stop → depot drawn around the
 * depot, scaled so that its great-circle length is the day's distance; each leg is a
 * trip of a few straight segments driven at constant speeds, each segment lasting at
 * least 90 s. Real trackers' habits are part of the plan: some stops hold a short
 * repositioning move (another dock, the next street), some segments crawl in traffic or
 * run over the speed limit, and the plan's silences say when the unit sends nothing
 * (a logger asleep while parked, an ignition-powered tracker off while parked until its
 * first fix minutes into the next trip, a tunnel, a power cut, sometimes over a whole trip
 * or two trips and the stop between, well over an hour).
 *
 * The odometer needs the distance of every earlier day without planning them: a
 * unit's day distances telescope, D(j) = mean + wiggle·(u(j+1) − u(j)) for its j-th
 * working day, so the odometer at the start of day j is base + j·mean + wiggle·u(j).
 * Some units' odometers are reset to 0 every few weeks (a tracker swapped or
 * reconfigured), early in the morning, so a reading is that less the reading at the
 * last reset, which is known the same way. Who each unit is (its depot, working days,
 * reporting pace, odometer) is in unit-profile.ts.
 *
 * Here: planDay, which keeps the last few plans. What a plan holds is in day-plan.ts;
 * build-day.ts builds a working day, idle-day.ts a day without driving.
 */
import { buildDay } from './build-day.js';
import type { DayPlan } from './day-plan.js';
import { kindOf, type DriveUnit } from './unit-profile.js';

/** The last few plans (a history request plans each day once; a unit's record asks for one day several times). */
const RECENT = 8;
const recent: Array<DayPlan | undefined> = new Array(RECENT).fill(undefined);
let nextSlot = 0;

/** The plan of day d for a unit. */
export function planDay(seed: number, u: DriveUnit, d: number): DayPlan {
  const kind = kindOf(u);
  for (let i = 0; i < RECENT; i++) {
    const p = recent[i];
    if (p !== undefined && p.day === d && p.did === u.did && p.seed === seed && p.kind === kind) return p;
  }
  const plan = buildDay(seed, u.did, kind, d);
  recent[nextSlot] = plan;
  nextSlot = (nextSlot + 1) % RECENT;
  return plan;
}
