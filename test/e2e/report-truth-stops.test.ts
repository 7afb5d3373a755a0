/**
 * report trips and stops against the sandbox's ground truth over 7 days of every demo device
 * (what each unit really did, GET /_sandbox/truth/<did>), with its sleeping loggers,
 * ignition-powered trackers whose first fix comes minutes after they drove off, dense and
 * sparse reporting, parked speed fixes, short moves, slow traffic, jumps and outages (some over
 * one or two whole trips, well over an hour).
 *
 * Exact agreement, under these rules of what the reports can reveal:
 * - An event (a trip's start or end, a stop's arrival or departure) that a report marks is found
 *   within one reporting interval of it (the unit's driving interval, at least a minute); one
 *   inside a silence, between the two reports around it (the truth's `…Around`): nothing can
 *   place it closer, whatever the silence's length.
 * - Trips: every trip with at least two reports, and every trip of 1 km or more inside a silence
 *   of any length, is found, its distance within 2 % (+10 m; 5 % for a trip with fewer than two
 *   reports: the odometer's count across the silence or the straight line), its end within 150 m of where the unit
 *   stopped (the trip's last report, or the first after the silence it ended in). Two trips whose stop
 *   between no report reveals (none dated in it, neither its arrival nor its departure reported)
 *   read as one trip, and are expected as one, or as the two when the report tells that stop from the
 *   silence (a unit driving on both sides of it a short way apart: each trip then as these rules
 *   place it). A trip across a silence over --max-gap (1 h) in
 *   which the unit moved is marked inferred, and only such a trip is. Not expected: a trip
 *   under both trip minimums (--min-trip-distance 0.5 km and --min-trip-duration 5 min: a short
 *   move), one after which the unit never reports again (its end is the end of the reports; so too
 *   when it ended in a silence that goes on past the end of the 7 days), and one
 *   before which it never reported (its start is the start of the reports: a partial trip).
 * - Stops: every stop with a report dated in it (not a jump), and every stop of 5 minutes or more
 *   whose arrival a report marks and whose departure the next report after it bounds (its
 *   `stopped` report, then a silence until a first fix on the next trip, as an ignition-powered
 *   tracker does), and the two stops of 5 minutes or more on either side of a trip inside a
 *   silence from a `stopped` report to a `moving` report (see bothSides), is found, placed within
 *   100 m of where the unit stood, except one that began before the history or the unit's first
 *   report (cut by its start). Two stops that a short move within the stop radius parts (a unit
 *   moved a few metres across a yard) are one.
 * - Nothing more: every whole trip and stop found is one of the truth's.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { weekHarness, WEEKS, type Week } from '../helpers/truth.js';

type Around = [number | null, number | null];
interface TruthTrip {
  start: number; end: number; distanceKm: number; endLat: number; endLng: number; reports: number; startAround: Around; endAround: Around; junction?: number;
  segments?: Array<{ start: number; end: number; speed: number }>;
  /** Two trips read as one (the stop between them unseen): the two, as a report that tells that stop from the silence gives them. */
  split?: [TruthTrip, TruthTrip];
}
interface TruthStop { arrival: number; departure: number | null; lat: number; lng: number; reports: number; arrivalAround: Around; departureAround: Around | null }
interface Truth { interval: { driving: number | null; parked: number }; trips: TruthTrip[]; stops: TruthStop[]; gaps: Array<{ from: number; to: number; kind: string }>; jumps: Array<{ date: number }> }
interface Trip { did: number; start: number; end: number; distanceKm: number; endLat: number; endLng: number; partial: boolean; inferred: boolean }
interface Stop { did: number; arrival: number; departure: number | null; lat: number; lng: number; partial: boolean }


const MAX_GAP = 3600;
/** How far a trip's end may lie from where the unit stopped: its arrival report, at rest within the stop radius (100 m), jitter and all. */
const END_M = 150;

const inside = (w: Week, start: number, end: number | null): boolean => start >= w.from && end !== null && end <= w.to;
/** One reporting interval while driving (at least a minute: a report may be received late but is dated right). */
const interval = (t: Truth): number => Math.max(60, t.interval.driving ?? 60);
/** Whether x places event e as well as the reports can: a report marks e → within an interval; else between the reports around it. */
const within = (t: Truth, around: Around, e: number, x: number): boolean =>
  around[0] === e ? Math.abs(x - e) <= interval(t) : around[0] !== null && around[1] !== null && x >= around[0] && x <= around[1];
/** A stop some report reveals: one dated in it, or at its arrival or departure. */
const seen = (s: TruthStop): boolean => s.reports > 0 || s.arrivalAround[0] === s.arrival || (s.departureAround !== null && s.departureAround[0] === s.departure);
/** A stop with a report dated in it that places it: not a jump (a fix kilometres off, the reports around it left out). */
const placed = (t: Truth, s: TruthStop): boolean =>
  s.reports > t.jumps.filter((j) => j.date >= s.arrival && (s.departure === null || j.date <= s.departure)).length;
/**
 * A stop no report is dated in, that the reports around it still show: its arrival reported,
 * then silent until a fix on the trip that leaves it (or its departure reported), 5 minutes or more.
 */
const shown = (t: Truth, s: TruthStop): boolean => {
  if (s.reports > 0 || s.arrivalAround[0] !== s.arrival || s.departure === null || s.departure - s.arrival < 300 || s.departureAround === null) return false;
  const next = t.trips.find((x) => x.start === s.departure);
  const after = s.departureAround[1];
  if (after === null || next === undefined || after > next.end) return false;
  // How much of the silence it stood, only the speeds the reports around it show can tell: the way to the first fix after it at
  // the faster of the speed it came at (a report on the trip before, not its arrival's alone) and that fix's. When none shows a
  // speed, or the way at it leaves less than 5 minutes (it drove faster than any report says), no report reveals the stop.
  const prev = t.trips.find((x) => x.end === s.arrival);
  const came = prev !== undefined && prev.reports >= 2 ? (prev.segments?.[prev.segments.length - 1]?.speed ?? 0) : 0;
  const kmh = Math.max(came, after < next.end ? (next.segments?.find((g) => g.start <= after && after < g.end)?.speed ?? 0) : 0);
  const km = (next.segments ?? []).reduce((sum, g) => sum + (Math.max(0, Math.min(g.end, after) - g.start) * g.speed) / 3600, 0);
  return kmh > 0 && after - s.arrival - (km * 3600) / kmh + 10 >= 300;
};
/**
 * Two stops no report is dated in, on either side of a trip none is either: the unit's 'stopped'
 * report at the first's arrival, then silent until its 'moving' report at the second's departure.
 * How the silence was shared between the two stands no report tells: the way at the speed it came
 * at (a report on the trip before) takes its part, the two share the rest alike, and each is
 * expected when its share is 5 minutes or more.
 */
const bothSides = (t: Truth, s: TruthStop): boolean => {
  const out = t.trips.find((x) => x.start === s.departure && x.reports === 0);
  const into = t.trips.find((x) => x.end === s.arrival && x.reports === 0);
  const a = out ? s : t.stops.find((w) => into !== undefined && w.departure === into.start);
  const way = out ?? into;
  const b = out ? t.stops.find((w) => w.arrival === out.end) : s;
  if (!a || !b || !way || a.reports > 0 || b.reports > 0 || b.departure === null || a.arrivalAround[0] !== a.arrival) return false;
  if (b.departureAround?.[0] !== b.departure || a.departureAround?.[1] !== b.departure) return false;
  const prev = t.trips.find((x) => x.end === a.arrival);
  const came = prev !== undefined && prev.reports >= 2 ? (prev.segments?.[prev.segments.length - 1]?.speed ?? 0) : 0;
  return came > 0 && (b.departure - a.arrival - (way.distanceKm * 3600) / came) / 2 + 10 >= 300;
};
const metres = (a: { lat: number; lng: number }, b: { lat: number; lng: number }): number =>
  Math.hypot((a.lat - b.lat) * 111_200, (a.lng - b.lng) * 111_200 * Math.cos((b.lat * Math.PI) / 180));
/** Whether event e lies inside a silence over --max-gap (no report marks it, the reports around it are farther apart). */
const long = (around: Around, e: number): boolean => around[0] !== e && around[0] !== null && around[1] !== null && around[1] - around[0] > MAX_GAP;

/**
 * The stops as a stop radius (100 m) sees them: two that a short move (under both trip minimums)
 * within the radius parts are one, from the first's arrival to the second's departure.
 */
function radiusStops(t: Truth): TruthStop[] {
  const out: TruthStop[] = [];
  for (const s of t.stops) {
    const prev = out[out.length - 1];
    const move = prev && t.trips.find((x) => x.start === prev.departure && x.end === s.arrival);
    if (prev && move && move.distanceKm < 0.5 && move.end - move.start < 300 && metres(prev, s) <= 100) {
      out[out.length - 1] = { ...prev, departure: s.departure, departureAround: s.departureAround, reports: prev.reports + s.reports };
    } else out.push(s);
  }
  return out;
}

/** The trips the reports can reveal (see the rules above). */
function expectedTrips(t: Truth, week: Week): TruthTrip[] {
  const out: TruthTrip[] = [];
  let cur: TruthTrip | undefined;
  for (const w of t.trips) {
    if (cur) {
      const between = t.stops.find((s) => s.arrival === (cur as TruthTrip).end);
      if (between && !seen(between)) {
        // the silence between the reports of the two, in which the unit stopped unseen
        const junction = Math.max(cur.junction ?? 0, (w.startAround[1] ?? 0) - (cur.endAround[0] ?? Infinity));
        cur = { ...cur, end: w.end, endAround: w.endAround, endLat: w.endLat, endLng: w.endLng, distanceKm: cur.distanceKm + w.distanceKm, reports: cur.reports + w.reports, junction, split: [cur, { ...w }] };
        continue;
      }
      out.push(cur);
    }
    cur = { ...w };
  }
  if (cur) out.push(cur);
  return out.filter((x) =>
    inside(week, x.start, x.end) && (x.reports >= 2 || x.distanceKm >= 1) && (x.distanceKm >= 0.5 || x.end - x.start >= 300) &&
    x.startAround[0] !== null && !t.stops.some((s) => s.arrival === x.end && s.departure === null && s.reports === 0) &&
    // its end inside a silence that goes on past the window: no report in the window shows where it ended (the end of the reports)
    !(x.endAround[0] !== x.end && (x.endAround[1] === null || x.endAround[1] > week.to)));
}

// Seven days of the whole fleet, several times over: minutes on a loaded machine (the bound only catches a hang).
for (const week of WEEKS) {
  describe(`report against the truth, the 7 days to ${week.label}`, { timeout: 900_000 }, () => {
    const { from: FROM, to: TO, window: WINDOW, historyFrom: HISTORY_FROM } = week;
    const run = weekHarness<Truth>(week);

    test('trips match the ground truth over 7 days of the fleet: every trip, inside silences of any length too, its distance, its ends as the reports place them, where it ended', async () => {
      const { h, vehicles, truths } = run;
      const got = await h.json<Trip[]>(['report', 'trips', '--category', 'device', ...WINDOW, '--concurrency', '2']);
      let want = 0;
      let silent = 0;
      let inferred = 0;
      let worst = 0;
      const misses: string[] = [];
      for (const did of vehicles) {
        const t = truths.get(did) as Truth;
        const mine = got.filter((x) => x.did === did);
        /** What is wrong with the trip found for w; for two trips read as one, nothing when the two are found instead (split). */
        const judge = (w: TruthTrip, ends: number[]): string[] => {
          const wrong = judgeOne(w, ends);
          const apart = wrong.length > 0 && w.split ? foundApart(w, w.split) : undefined;
          if (apart === undefined) return wrong;
          ends.splice(0, ends.length, apart);
          return [];
        };
        /**
         * The two trips read as w found apart, the stop between them told from the silence: the first from its start to
         * within the silence, the second from within it to w's end; where in the silence the unit stood no report shows,
         * so the two together go w's distance. How far from where the unit stopped the second ended (m), else undefined.
         */
        const foundApart = (w: TruthTrip, [a, b]: [TruthTrip, TruthTrip]): number | undefined => {
          const ga = mine.find((x) => within(t, a.startAround, a.start, x.start));
          const gb = mine.find((x) => within(t, b.startAround, b.start, x.start));
          if (!ga || !gb || ga === gb || ga.partial || gb.partial || !within(t, a.endAround, a.end, ga.end) || !within(t, w.endAround, w.end, gb.end)) return undefined;
          // inferred only for a silence over --max-gap between them
          if ((ga.inferred || gb.inferred) && !((w.junction ?? 0) > MAX_GAP)) return undefined;
          const tol = w.reports >= 2 ? 0.02 : 0.05;
          const off = metres({ lat: gb.endLat, lng: gb.endLng }, { lat: w.endLat, lng: w.endLng });
          return Math.abs(ga.distanceKm + gb.distanceKm - w.distanceKm) <= tol * w.distanceKm + 0.01 && off <= END_M ? off : undefined;
        };
        /** `ends`: how far from where the unit stopped the trip found ended, m. */
        const judgeOne = (w: TruthTrip, ends: number[]): string[] => {
          const misses: string[] = [];
          const g = mine.find((x) => within(t, w.startAround, w.start, x.start));
          const what = `unit ${did}, trip ${w.start}..${w.end} (${w.distanceKm} km, ${w.reports} reports)`;
          if (!g) return [`${what}: not found`];
          if (g.partial) misses.push(`${what}: partial`);
          if (!within(t, w.endAround, w.end, g.end)) misses.push(`${what}: ends at ${g.end}`);
          const tol = w.reports >= 2 ? 0.02 : 0.05;
          if (Math.abs(g.distanceKm - w.distanceKm) > tol * w.distanceKm + 0.01) misses.push(`${what}: ${g.distanceKm} km`);
          const off = metres({ lat: g.endLat, lng: g.endLng }, { lat: w.endLat, lng: w.endLng });
          ends.push(off);
          if (off > END_M) misses.push(`${what}: ends ${Math.round(off)} m from where the unit stopped`);
          // inferred: it crossed a silence over --max-gap in which it moved. It must be when no two reports show it (it lies in such
          // a silence) or the stop inside it is in one; it may be when one of its ends is (a trip that came to rest at its last
          // report before the silence is not) or a silence inside it is (the reports around an outage are up to an interval
          // farther apart than the outage is long)
          const must = (w.reports < 2 && (long(w.startAround, w.start) || long(w.endAround, w.end))) || (w.junction ?? 0) > MAX_GAP;
          const may = must || long(w.startAround, w.start) || long(w.endAround, w.end) || t.gaps.some((x) => x.from < w.end && x.to > w.start && x.to - x.from + 2 * interval(t) > MAX_GAP);
          if (g.inferred && !may) misses.push(`${what}: inferred without a silence over --max-gap`);
          if (!g.inferred && must) misses.push(`${what}: drove in a silence over --max-gap, not inferred`);
          return misses;
        };
        for (const w of expectedTrips(t, week)) {
          want++;
          if (w.reports < 2) silent++;
          if (mine.find((x) => within(t, w.startAround, w.start, x.start))?.inferred) inferred++;
          const ends: number[] = [];
          misses.push(...judge(w, ends));
          worst = Math.max(worst, ...ends);
        }
        // nothing more: every whole trip found (away from the window's edges) starts as one of the truth's
        for (const g of mine.filter((x) => !x.partial && x.start >= FROM + 3600 && x.end <= TO - 3600)) {
          if (!t.trips.some((w) => within(t, w.startAround, w.start, g.start))) misses.push(`unit ${did}: a trip ${g.start}..${g.end} the truth has not`);
        }
      }
      process.stderr.write(`# trips expected ${want}, ${silent} of them inside silences, ${inferred} found inferred; misses ${misses.length}; worst end ${Math.round(worst)} m\n`);
      assert.ok(want >= 400, `enough trips (${want})`);
      assert.ok(silent >= 3, `enough trips inside silences (${silent})`);
      assert.deepEqual(misses, []);
    });

    test('stops match the ground truth, those a late first fix ends too: arrival and departure as the reports place them, place within 100 m', async () => {
      const { h, vehicles, truths } = run;
      const got = await h.json<Stop[]>(['report', 'stops', '--category', 'device', ...WINDOW, '--concurrency', '2']);
      let want = 0;
      let late = 0;
      let shared = 0;
      const misses: string[] = [];
      for (const did of vehicles) {
        const t = truths.get(did) as Truth;
        const mine = got.filter((x) => x.did === did);
        for (const w of radiusStops(t).filter((s) => inside(week, s.arrival, s.departure) && (placed(t, s) || shown(t, s) || bothSides(t, s)) && s.arrivalAround[0] !== null && s.arrival > HISTORY_FROM)) {
          want++;
          if (w.reports === 0) late++;
          if (bothSides(t, w)) shared++;
          const what = `unit ${did}, stop ${w.arrival}..${w.departure}`;
          // An arrival inside a silence is placed only between the reports around it, which bound every event of that silence:
          // the stop the unit left into the silence (its arrival the report before it) is as early as that window allows. Which
          // of those is this one no date can tell, so its place does (within 100 m), else the first in the window.
          const near = mine.filter((x) => within(t, w.arrivalAround, w.arrival, x.arrival));
          const g = near.find((x) => metres(x, w) <= 100) ?? near[0];
          if (!g) misses.push(`${what}: not found`);
          else if (g.departure === null || !within(t, w.departureAround as Around, w.departure as number, g.departure)) misses.push(`${what}: departs at ${g.departure}`);
          else if (metres(g, w) > 100) misses.push(`${what}: ${Math.round(metres(g, w))} m off`);
        }
        for (const g of mine.filter((x) => !x.partial && x.arrival >= FROM + 3600 && x.departure !== null && x.departure <= TO - 3600)) {
          if (!t.stops.some((w) => within(t, w.arrivalAround, w.arrival, g.arrival))) misses.push(`unit ${did}: a stop ${g.arrival}..${g.departure} the truth has not`);
        }
      }
      process.stderr.write(`# stops expected ${want}, ${late} of them shown only by the reports around them (${shared} on either side of a trip in a silence); misses ${misses.length}\n`);
      assert.ok(want >= 330, `enough stops (${want})`);
      assert.ok(late >= 20, `enough stops inside silences (${late})`);
      assert.deepEqual(misses, []);
    });
  });
}
