/**
 * report trips and stops against the sandbox's ground truth over 7 days of every demo device
 * (what each unit really did, GET /_sandbox/truth/<did>), with its sleeping loggers, dense and
 * sparse reporting, parked speed fixes, short moves, slow traffic, jumps and outages.
 *
 * Exact agreement, under these rules of what the reports can reveal:
 * - An event (a trip's start or end, a stop's arrival or departure) that a report marks is found
 *   within one reporting interval of it (the unit's driving interval, at least a minute); one
 *   inside a silence, between the two reports around it (the truth's `…Around`): nothing can
 *   place it closer.
 * - Trips: every trip with at least two reports is found, its distance within 2 % (+10 m). Two
 *   trips whose stop between no report reveals (none dated in it, neither its arrival nor its
 *   departure reported) read as one trip, and are expected as one. Not expected: a trip under
 *   both trip minimums (--min-trip-distance 0.5 km and --min-trip-duration 5 min: a short
 *   move), and one after which the unit never reports again (its end is the end of the reports).
 *   An end inside a silence longer than --max-gap (1 h) is cut there: the trip is then partial
 *   and ends at the last report before the silence (likewise a start after such a silence).
 * - Stops: every stop with a report dated in it is found, placed within 100 m of where the unit
 *   stood, except one that began before the history (cut by its start).
 * - Nothing more: every whole trip and stop found is one of the truth's.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Harness } from '../helpers/cli.js';
import { CLOCK_MS, FROM, TO, WINDOW, truthHarness } from '../helpers/truth.js';

type Around = [number | null, number | null];
interface TruthTrip { start: number; end: number; distanceKm: number; reports: number; startAround: Around; endAround: Around }
interface TruthStop { arrival: number; departure: number | null; lat: number; lng: number; reports: number; arrivalAround: Around; departureAround: Around | null }
interface Truth { interval: { driving: number | null; parked: number }; trips: TruthTrip[]; stops: TruthStop[] }
interface Trip { did: number; start: number; end: number; distanceKm: number; partial: boolean }
interface Stop { did: number; arrival: number; departure: number | null; lat: number; lng: number; partial: boolean }

/** The history begins a week before the clock (when the sandbox's state was made). */
const HISTORY_FROM = CLOCK_MS / 1000 - 7 * 86400;

const MAX_GAP = 3600;

const inside = (start: number, end: number | null): boolean => start >= FROM && end !== null && end <= TO;
/** One reporting interval while driving (at least a minute: a report may be received late but is dated right). */
const interval = (t: Truth): number => Math.max(60, t.interval.driving ?? 60);
/** Whether x places event e as well as the reports can: a report marks e → within an interval; else between the reports around it. */
const within = (t: Truth, around: Around, e: number, x: number): boolean =>
  around[0] === e ? Math.abs(x - e) <= interval(t) : around[0] !== null && around[1] !== null && x >= around[0] && x <= around[1];
/** An event inside a silence longer than --max-gap. */
const long = (around: Around, e: number): boolean => around[0] !== e && around[0] !== null && around[1] !== null && around[1] - around[0] > MAX_GAP;
/** A stop some report reveals: one dated in it, or at its arrival or departure. */
const seen = (s: TruthStop): boolean => s.reports > 0 || s.arrivalAround[0] === s.arrival || (s.departureAround !== null && s.departureAround[0] === s.departure);
const metres = (a: { lat: number; lng: number }, b: { lat: number; lng: number }): number =>
  Math.hypot((a.lat - b.lat) * 111_200, (a.lng - b.lng) * 111_200 * Math.cos((b.lat * Math.PI) / 180));

/** The trips the reports can reveal (see the rules above). */
function expectedTrips(t: Truth): TruthTrip[] {
  const out: TruthTrip[] = [];
  let cur: TruthTrip | undefined;
  for (const w of t.trips) {
    if (cur) {
      const between = t.stops.find((s) => s.arrival === (cur as TruthTrip).end);
      if (between && !seen(between)) {
        cur = { ...cur, end: w.end, endAround: w.endAround, distanceKm: cur.distanceKm + w.distanceKm, reports: cur.reports + w.reports };
        continue;
      }
      out.push(cur);
    }
    cur = { ...w };
  }
  if (cur) out.push(cur);
  return out.filter((x) =>
    inside(x.start, x.end) && x.reports >= 2 && (x.distanceKm >= 0.5 || x.end - x.start >= 300) &&
    !t.stops.some((s) => s.arrival === x.end && s.departure === null && s.reports === 0));
}

// Seven days of the whole fleet, several times over: minutes on a loaded machine (the bound only catches a hang).
describe('report against the truth', { timeout: 900_000 }, () => {
  let h: Harness;
  let vehicles: number[];
  let truths: Map<number, Truth>;
  before(async () => {
    ({ h, vehicles, truths } = await truthHarness<Truth>());
  });
  after(async () => {
    await h.close();
  });

  test('trips match the ground truth over 7 days of the fleet: every trip, its distance within 2 %, its ends as the reports place them', async () => {
    const got = await h.json<Trip[]>(['report', 'trips', '--category', 'device', ...WINDOW, '--concurrency', '2']);
    let want = 0;
    let cut = 0;
    const misses: string[] = [];
    for (const did of vehicles) {
      const t = truths.get(did) as Truth;
      const mine = got.filter((x) => x.did === did);
      for (const w of expectedTrips(t)) {
        want++;
        const cutStart = (x: Trip): boolean => long(w.startAround, w.start) && x.start === w.startAround[1];
        const cutEnd = (x: Trip): boolean => long(w.endAround, w.end) && x.end === w.endAround[0];
        const g = mine.find((x) => within(t, w.startAround, w.start, x.start) || (x.partial && cutStart(x)));
        const what = `unit ${did}, trip ${w.start}..${w.end} (${w.distanceKm} km)`;
        if (!g) {
          misses.push(`${what}: not found`);
          continue;
        }
        if (g.partial) {
          cut++;
          if (!cutStart(g) && !cutEnd(g)) misses.push(`${what}: found partial ${g.start}..${g.end} without a silence over --max-gap to cut it`);
          else if (!cutEnd(g) && !within(t, w.endAround, w.end, g.end)) misses.push(`${what}: ends at ${g.end}`);
          continue;
        }
        if (!within(t, w.endAround, w.end, g.end)) misses.push(`${what}: ends at ${g.end}`);
        if (Math.abs(g.distanceKm - w.distanceKm) > 0.02 * w.distanceKm + 0.01) misses.push(`${what}: ${g.distanceKm} km`);
      }
      // nothing more: every whole trip found (away from the window's edges) starts as one of the truth's
      for (const g of mine.filter((x) => !x.partial && x.start >= FROM + 3600 && x.end <= TO - 3600)) {
        if (!t.trips.some((w) => within(t, w.startAround, w.start, g.start))) misses.push(`unit ${did}: a trip ${g.start}..${g.end} the truth has not`);
      }
    }
    process.stderr.write(`# trips expected ${want}, ${cut} of them cut by a silence over --max-gap; misses ${misses.length}\n`);
    assert.ok(want >= 400, `enough trips (${want})`);
    assert.deepEqual(misses, []);
  });

  test('stops match the ground truth: arrival and departure as the reports place them, place within 100 m', async () => {
    const got = await h.json<Stop[]>(['report', 'stops', '--category', 'device', ...WINDOW, '--concurrency', '2']);
    let want = 0;
    const misses: string[] = [];
    for (const did of vehicles) {
      const t = truths.get(did) as Truth;
      const mine = got.filter((x) => x.did === did);
      for (const w of t.stops.filter((s) => inside(s.arrival, s.departure) && s.reports >= 1 && s.arrival > HISTORY_FROM)) {
        want++;
        const what = `unit ${did}, stop ${w.arrival}..${w.departure}`;
        const g = mine.find((x) => within(t, w.arrivalAround, w.arrival, x.arrival));
        if (!g) misses.push(`${what}: not found`);
        else if (g.departure === null || !within(t, w.departureAround as Around, w.departure as number, g.departure)) misses.push(`${what}: departs at ${g.departure}`);
        else if (metres(g, w) > 100) misses.push(`${what}: ${Math.round(metres(g, w))} m off`);
      }
      for (const g of mine.filter((x) => !x.partial && x.arrival >= FROM + 3600 && x.departure !== null && x.departure <= TO - 3600)) {
        if (!t.stops.some((w) => within(t, w.arrivalAround, w.arrival, g.arrival))) misses.push(`unit ${did}: a stop ${g.arrival}..${g.departure} the truth has not`);
      }
    }
    process.stderr.write(`# stops expected ${want}; misses ${misses.length}\n`);
    assert.ok(want >= 330, `enough stops (${want})`);
    assert.deepEqual(misses, []);
  });
});
