/**
 * The daily summary: one record per unit and local day (in a time zone) on which the unit
 * reported. Field names are fixed by the design; odometerKm and partial (a day the report's
 * window cuts: it starts after the day's first second or ends before its last) are additions.
 *
 * A move across midnight is split: each segment between two reports gives its distance and
 * driving time to the days it spans, in proportion to time (its distance to the time the way
 * took, across a silence the unit drove into or set off in: drivenIn of move.ts); `trips` counts the trips that
 * drove on the day, so such a trip counts on both days. distanceKm and drivingTime include
 * the short moves (not trips: under both trip minimums), so the day's kilometres are all
 * there. odometerKm is the odometer's own count for the day: the sum of its plausible
 * increases between consecutive reports (a reset or a jump adds nothing; an odometer that counts
 * whole kilometres steps once in a while, each step plausible by the time since the step before),
 * shared between days by time like the moves; null when no report of the day carried one. A disagreement
 * between distanceKm and odometerKm shows where one of them is wrong. stoppedTime is the
 * time the unit was observed (from its first to its last report in the stream) on the day
 * and not moving, silences included, as the stops report counts them. maxSpeed is the highest speed
 * reported during the day's moves (0 without any), so a parked unit's speed noise does not
 * show. A day row is emitted once a later day has started and no run of movement that began
 * before its end is still undecided; memory holds the one or two days still open.
 */
import type { ReportPoint } from '../api/types.js';
import { DayClock, type Day } from './days.js';
import { MAX_ODOMETER_KMH, ODOMETER_SLACK_KM, plausibleStep } from './geo.js';
import { MotionTracker } from './motion.js';
import { ordered, type OrderOptions } from './order.js';
import { DEFAULTS, type ReportParams } from './params.js';
import type { Explanation, Segment } from './segments.js';
import { NONE, run, type UnitProcessor } from './stream.js';
import { round } from './trips.js';

export interface DaySummary {
  did: number;
  name: string;
  /** Local date, YYYY-MM-DD. */
  day: string;
  distanceKm: number;
  /** The odometer's count for the day (its plausible increases); null without odometers. */
  odometerKm: number | null;
  drivingTime: number;
  stoppedTime: number;
  maxSpeed: number;
  trips: number;
  /** Unix s of the first and last report of the day (any report type). */
  firstReport: number | null;
  lastReport: number | null;
  /** First and last odometer reported that day, as reported; null when none was. */
  startOdometer: number | null;
  endOdometer: number | null;
  /** The window did not hold the whole day (it starts after the day's start or ends before its end). */
  partial: boolean;
}

type Unit = Pick<DaySummary, 'did' | 'name'>;

interface Row {
  day: Day;
  did: number;
  name: string;
  firstReport: number | null;
  lastReport: number | null;
  startOdometer: number | null;
  endOdometer: number | null;
  distanceKm: number;
  /** The odometer's count (a number from the start, so that adding to it makes no new number each report), and whether a report of the day carried one. */
  odometerKm: number;
  odometerSeen: boolean;
  drivingTime: number;
  tripTime: number;
  maxSpeed: number;
  trips: number;
}

export function summaryProcessor(
  tz: string,
  params: ReportParams = DEFAULTS,
  options: OrderOptions & { explain?: (e: Explanation) => void; window?: { from: number; to: number } } = {},
): UnitProcessor<DaySummary> {
  const { explain, window, ...order } = options;
  const clock = new DayClock(tz);
  const tracker = new MotionTracker(params, { clock, explain });
  /** Whether a report carried an odometer, the date and odometer of the last that did, and since when it read that: numbers, not an object a report. */
  let odoSeen = false;
  let lastOdoT = 0;
  let lastOdoKm = 0;
  let odoSince = 0;
  /** Open days, oldest first (a stream in date order only ever appends). */
  const rows: Row[] = [];
  let firstEver = Infinity;
  let lastEver = -Infinity;

  /** The row of a day, made in its place among the open ones when new; `unit` names the unit in a new row. */
  const rowOf = (day: Day, unit: Unit): Row => {
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i] as Row;
      if (row.day.key === day.key) return row;
      if (row.day.start < day.start) {
        const fresh = newRow(day, unit);
        rows.splice(i + 1, 0, fresh);
        return fresh;
      }
    }
    const fresh = newRow(day, unit);
    rows.unshift(fresh);
    return fresh;
  };
  const newRow = (day: Day, unit: Unit): Row => ({
    day, did: unit.did, name: unit.name,
    firstReport: null, lastReport: null, startOdometer: null, endOdometer: null,
    distanceKm: 0, odometerKm: 0, odometerSeen: false, drivingTime: 0, tripTime: 0, maxSpeed: 0, trips: 0,
  });

  /**
   * Shares a plausible odometer increase from (at, akm) to (bt, bkm) between the days it spans, by
   * time: no faster than MAX_ODOMETER_KMH since the report before, or a step of an odometer that
   * counts in steps, no faster than that since it read akm first (`since`).
   */
  const addOdometer = (at: number, akm: number, bt: number, bkm: number, since: number, unit: Unit): void => {
    const delta = bkm - akm;
    const dt = bt - at;
    const plausible = delta <= ODOMETER_SLACK_KM + (MAX_ODOMETER_KMH * dt) / 3600 || plausibleStep(delta, bt - since);
    if (!(delta >= 0 && plausible)) return; // a reset or a jump
    if (dt <= 0) {
      const row = rowOf(clock.dayOf(bt), unit);
      row.odometerKm += delta;
      row.odometerSeen = true;
      return;
    }
    const last = rows[rows.length - 1];
    if (last !== undefined && at >= last.day.start && bt <= last.day.end) {
      // within the newest day, as most increases are: the loop below's one step
      last.odometerKm += (delta * (bt - at)) / dt;
      last.odometerSeen = true;
      return;
    }
    for (let t = at; t < bt; ) {
      const day = clock.dayOf(t);
      const to = Math.min(bt, day.end);
      const row = rowOf(day, unit);
      row.odometerKm += (delta * (to - t)) / dt;
      row.odometerSeen = true;
      t = to;
    }
  };

  const record = (row: Row): DaySummary => {
    const from = Math.max(firstEver, row.day.start);
    const to = Math.min(lastEver, row.day.end);
    const observed = Math.max(0, to - from);
    return {
      did: row.did,
      name: row.name,
      day: row.day.key,
      distanceKm: round(row.distanceKm, 3),
      odometerKm: row.odometerSeen ? round(row.odometerKm, 3) : null,
      drivingTime: Math.round(row.drivingTime),
      stoppedTime: Math.max(0, Math.round(observed - row.tripTime)),
      maxSpeed: row.maxSpeed,
      trips: row.trips,
      firstReport: row.firstReport,
      lastReport: row.lastReport,
      startOdometer: row.startOdometer,
      endOdometer: row.endOdometer,
      // The window [from, to] (whole seconds, both held) holds the day [start, end) when from <= start and to >= end - 1.
      partial: window !== undefined && (window.from > row.day.start || window.to < row.day.end - 1),
    };
  };

  /**
   * The rows no report, undecided move or odometer increase can change any more; no array while a
   * day waits for a move across midnight (every report then). The next odometer reading is shared
   * back to the last one's date: a day from there on stays open until it comes (reports without
   * an odometer in between would otherwise leave its share to a second row of a day written).
   */
  const settled = (now: number): readonly DaySummary[] => {
    let out: DaySummary[] | undefined;
    while (rows.length > 0) {
      const row = rows[0] as Row;
      if (now < row.day.end || (odoSeen && lastOdoT < row.day.end)) break;
      const open = tracker.unsettledSince;
      if (open !== undefined && open < row.day.end) break;
      rows.shift();
      (out ??= []).push(record(row));
    }
    return out ?? NONE;
  };

  const take = (segments: readonly Segment[], unit: Unit): void => {
    for (const seg of segments) {
      if (seg.kind !== 'trip') continue;
      const s = seg.start.properties.date;
      const e = seg.end.properties.date;
      for (const part of seg.parts) {
        const overlap = Math.max(0, Math.min(e, part.day.end) - Math.max(s, part.day.start));
        // a trip arriving at 00:00:00 sharp has a part for the new day that drove nothing in it
        if (overlap === 0 && part.distanceKm === 0 && s !== e) continue;
        const row = rowOf(part.day, unit);
        row.distanceKm += part.distanceKm;
        row.drivingTime += part.drivingTime;
        row.tripTime += overlap;
        if (part.maxSpeed > row.maxSpeed) row.maxSpeed = part.maxSpeed;
        if (seg.trip) row.trips++;
      }
    }
  };

  const summary: UnitProcessor<DaySummary> = {
    push(r) {
      const p = r.properties;
      const date = p.date;
      if (date < firstEver) firstEver = date;
      if (date > lastEver) lastEver = date;
      const newest = rows[rows.length - 1];
      // the newest day's report, as most are: the row rowOf would find first
      const row = newest !== undefined && date >= newest.day.start && date < newest.day.end ? newest : rowOf(clock.dayOf(date), p);
      if (row.firstReport === null) row.firstReport = date;
      row.lastReport = date;
      row.name = p.name;
      const odo = p.odometer;
      if (typeof odo === 'number' && Number.isFinite(odo)) {
        if (row.startOdometer === null) row.startOdometer = odo;
        row.endOdometer = odo;
        if (odoSeen) addOdometer(lastOdoT, lastOdoKm, date, odo, odoSince, p);
        else row.odometerSeen = true;
        if (!odoSeen || odo !== lastOdoKm) odoSince = date;
        odoSeen = true;
        lastOdoT = date;
        lastOdoKm = odo;
      }
      take(tracker.push(r), p);
      return rows.length > 1 || date >= (rows[0] as Row).day.end ? settled(date) : NONE;
    },
    finish() {
      const last = rows[rows.length - 1];
      if (last) take(tracker.finish(), last);
      const out = rows.map(record);
      rows.length = 0;
      return out;
    },
  };
  return ordered({ windowS: params.reorderWindowS, ...order }, summary);
}

/** The daily summary of one unit, days in time order. `tz` is an IANA zone (validate it first: validateTimeZone of time-zone.ts). */
export function summary(
  reports: AsyncIterable<ReportPoint> | Iterable<ReportPoint>,
  tz: string,
  params: ReportParams = DEFAULTS,
  order: OrderOptions = {},
): AsyncIterable<DaySummary> {
  return run(reports, summaryProcessor(tz, params, order));
}
