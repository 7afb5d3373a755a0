/**
 * The trip/stop segmentation shared by the trips, stops and summary reports: one state
 * machine per unit, fed reports in date order, holding a few numbers whatever the length
 * of the history.
 *
 * Each report is moving or not (its speed above the threshold, or the latest motion_state
 * report of the unit; a speed above the threshold after a 'stopped' counts as the 'moving'
 * that a reporting gap swallowed). A run of movement starts at the first moving report. Inside it, a
 * stopped report opens a halt; the halt ends the run, as a stop, once it has lasted
 * minStopDurationS (measured from its first report to any later report, moving or not);
 * a moving report before that makes it a halt at a light, part of the trip. Reports more
 * than maxGapS apart end the run at the last report before the gap. A run that ends is a
 * trip when it lasted minTripDurationS and covered minTripDistanceKm; otherwise (GPS jitter,
 * a van moved across the yard) it is absorbed into the stop around it. Stops are the
 * periods between trips, gaps included, from the arrival (first stopped report) to the
 * departure (first moving report of the next trip).
 *
 * Distance between two reports of a trip: the odometer difference when both carry an
 * odometer and it is plausible (not negative, not much shorter than the straight line, no
 * faster than MAX_ODOMETER_KMH), otherwise the great-circle distance. Segments where the
 * unit stood still at both ends add no great-circle distance (jitter at a light).
 */
import type { ReportPoint } from '../api/types.js';
import type { Day, DayClock } from './days.js';
import { haversineKm, hasPosition } from './geo.js';
import type { ReportParams } from './params.js';

/** The fastest an odometer may advance between two reports, km/h; faster is a jump or a unit change. */
export const MAX_ODOMETER_KMH = 250;

/** What a trip did on one local day (summary). */
export interface DayPart {
  day: Day;
  distanceKm: number;
  drivingTime: number;
  maxSpeed: number;
}

export interface TripSegment {
  kind: 'trip';
  start: ReportPoint;
  end: ReportPoint;
  distanceKm: number;
  /** Seconds between consecutive reports of the trip where at least one of the two was moving. */
  drivingTime: number;
  maxSpeed: number;
  /** Driving-time-weighted mean of the reported speeds (service speed unit). */
  avgSpeed: number;
  /** Per local day, when the tracker has a DayClock. */
  parts: DayPart[];
  /** The positions of the trip's reports as flat [lng0, lat0, lng1, lat1, …], when the tracker keeps paths. */
  path: number[] | undefined;
}

export interface StopSegment {
  kind: 'stop';
  /** The first report of the stop (the first one of the stream when the unit was parked from the start). */
  arrival: ReportPoint;
  /** The first report of the next trip; undefined while the stop is still open at the end of the stream. */
  departure: ReportPoint | undefined;
  /** The last report of the stream, for an open stop. */
  last: ReportPoint;
  /** The first address known during the stop. */
  address: string | null;
}

export type Segment = TripSegment | StopSegment;

/** Odometer distance between two reports when plausible, else undefined. */
export function odometerKm(a: ReportPoint, b: ReportPoint, straightKm: number): number | undefined {
  const o1 = a.properties.odometer;
  const o2 = b.properties.odometer;
  if (typeof o1 !== 'number' || typeof o2 !== 'number' || !Number.isFinite(o1) || !Number.isFinite(o2)) return undefined;
  const delta = o2 - o1;
  if (delta < 0) return undefined; // a reset or a replaced unit
  if (delta + 0.1 < straightKm * 0.9) return undefined; // stuck, or reset and regrown: shorter than the straight line
  const dt = Math.max(0, b.properties.date - a.properties.date);
  if (delta > 0.1 + (MAX_ODOMETER_KMH * dt) / 3600) return undefined; // a jump
  return delta;
}

/** A run of movement: a trip when it ends long and far enough. */
class Run {
  start: ReportPoint;
  last: ReportPoint;
  distanceKm = 0;
  drivingTime = 0;
  speedTime = 0;
  maxSpeed: number;
  parts: DayPart[] = [];
  /** Flat [lng, lat, …] of every report of the run, when paths are kept; a halt's snapshot shares it, up to its length. */
  path: number[] | undefined;
  pathLength = 0;
  /** The halt in progress: its first report, and the run as it stood there. */
  halt: { first: ReportPoint; run: Run } | undefined;

  constructor(start: ReportPoint, clock: DayClock | undefined, keepPath: boolean) {
    this.start = start;
    this.last = start;
    if (keepPath) {
      this.path = [start.properties.lng, start.properties.lat];
      this.pathLength = 2;
    }
    this.maxSpeed = speedOf(start);
    if (clock) this.partOf(clock.dayOf(start.properties.date)).maxSpeed = this.maxSpeed;
  }

  clone(): Run {
    const c = Object.create(Run.prototype) as Run;
    Object.assign(c, this);
    c.parts = this.parts.map((p) => ({ ...p }));
    c.halt = undefined;
    return c;
  }

  partOf(day: Day): DayPart {
    const last = this.parts[this.parts.length - 1];
    if (last && last.day.key === day.key) return last;
    for (const p of this.parts) if (p.day.key === day.key) return p;
    const p: DayPart = { day, distanceKm: 0, drivingTime: 0, maxSpeed: 0 };
    this.parts.push(p);
    return p;
  }

  /** Adds the segment from this.last to r. */
  add(r: ReportPoint, lastMoving: boolean, moving: boolean, clock: DayClock | undefined): void {
    const a = this.last;
    const t0 = a.properties.date;
    const t1 = r.properties.date;
    const dt = Math.max(0, t1 - t0);
    const driving = lastMoving || moving;
    let km = 0;
    const straight = haversineKm(a.properties.lat, a.properties.lng, r.properties.lat, r.properties.lng);
    const odo = odometerKm(a, r, straight);
    if (odo !== undefined) km = odo;
    else if (driving) km = straight;
    const speed = speedOf(r);
    this.distanceKm += km;
    if (driving) {
      this.drivingTime += dt;
      this.speedTime += (dt * (speedOf(a) + speed)) / 2;
    }
    if (speed > this.maxSpeed) this.maxSpeed = speed;
    this.last = r;
    if (this.path) {
      this.path.push(r.properties.lng, r.properties.lat);
      this.pathLength = this.path.length;
    }
    if (!clock) return;
    // Apportion the segment to the days it spans, by time.
    const endPart = this.partOf(clock.dayOf(t1));
    if (speed > endPart.maxSpeed) endPart.maxSpeed = speed;
    if (dt === 0) {
      endPart.distanceKm += km;
      return;
    }
    for (let t = t0; t < t1; ) {
      const day = clock.dayOf(t);
      const to = Math.min(t1, day.end);
      const part = this.partOf(day);
      part.distanceKm += (km * (to - t)) / dt;
      if (driving) part.drivingTime += to - t;
      t = to;
    }
  }

  segment(): TripSegment {
    return {
      kind: 'trip',
      start: this.start,
      end: this.last,
      distanceKm: this.distanceKm,
      drivingTime: this.drivingTime,
      maxSpeed: this.maxSpeed,
      avgSpeed: this.drivingTime > 0 ? this.speedTime / this.drivingTime : 0,
      parts: this.parts,
      path: this.path?.slice(0, this.pathLength),
    };
  }
}

const speedOf = (r: ReportPoint): number => {
  const s = r.properties.speed;
  return typeof s === 'number' && Number.isFinite(s) && s > 0 ? s : 0;
};

/**
 * The segmentation state machine of one unit. push() takes reports in date order and
 * returns the segments they completed, in time order (a stop before the trip that ends it).
 */
export class MotionTracker {
  private readonly params: ReportParams;
  private readonly clock: DayClock | undefined;
  private readonly keepPath: boolean;
  private prev: ReportPoint | undefined;
  private prevMoving = false;
  /** The latest motion_state value, once one was seen. */
  private motion: boolean | undefined;
  private run: Run | undefined;
  private stop: StopSegment | undefined;

  /** `clock` splits trips by local day (summary); `keepPath` keeps each trip's positions (maps, GPX): memory grows with the longest trip. */
  constructor(params: ReportParams, clock?: DayClock, keepPath = false) {
    this.params = params;
    this.clock = clock;
    this.keepPath = keepPath;
  }

  /** Date of the first report of the run of movement in progress, if any: nothing after it is settled. */
  get unsettledSince(): number | undefined {
    return this.run?.start.properties.date;
  }

  private isMoving(r: ReportPoint): boolean {
    const p = r.properties;
    if (this.params.useMotionState) {
      if (p.reportType === 'motion_state') {
        if (p.reportValue === 'moving') this.motion = true;
        else if (p.reportValue === 'stopped') this.motion = false;
      }
      // A unit said stopped, yet reports driving speed: its 'moving' was lost (in a reporting gap).
      if (this.motion === false && p.reportType !== 'motion_state' && speedOf(r) > this.params.speedThreshold) this.motion = true;
      if (this.motion !== undefined) return this.motion;
    }
    return speedOf(r) > this.params.speedThreshold;
  }

  push(r: ReportPoint): Segment[] {
    const moving = this.isMoving(r);
    if (!hasPosition(r.properties.lat, r.properties.lng)) return [];
    const out: Segment[] = [];
    const prev = this.prev;
    if (!prev) {
      if (moving) this.run = new Run(r, this.clock, this.keepPath);
      else this.stop = { kind: 'stop', arrival: r, departure: undefined, last: r, address: r.properties.address ?? null };
    } else if (r.properties.date - prev.properties.date > this.params.maxGapS) {
      // Nothing is known across the gap: a run ends before it, and the gap counts as stopped.
      if (this.run) this.endRun(out);
      if (moving) this.run = new Run(r, this.clock, this.keepPath);
    } else if (this.run) {
      const run = this.run;
      if (run.halt && r.properties.date - run.halt.first.properties.date >= this.params.minStopDurationS) {
        this.endRun(out);
        if (moving) this.run = new Run(r, this.clock, this.keepPath);
      } else {
        run.add(r, this.prevMoving, moving, this.clock);
        if (moving) run.halt = undefined;
        else if (!run.halt) {
          run.halt = { first: r, run: run.clone() };
          if (this.params.minStopDurationS <= 0) this.endRun(out);
        }
      }
    } else if (moving) {
      this.run = new Run(r, this.clock, this.keepPath);
    }
    if (this.stop && !this.run) {
      this.stop.last = r;
      if (this.stop.address === null) this.stop.address = r.properties.address ?? null;
    }
    this.prev = r;
    this.prevMoving = moving;
    return out;
  }

  /** Ends the run in progress: a trip (ending at its halt, if halted) or absorbed into the stop. */
  private endRun(out: Segment[]): void {
    const run = this.run as Run;
    this.run = undefined;
    const ended = run.halt ? run.halt.run : run;
    const p = this.params;
    const duration = ended.last.properties.date - ended.start.properties.date;
    if (duration >= p.minTripDurationS && ended.distanceKm >= p.minTripDistanceKm) {
      if (this.stop) {
        this.stop.departure = ended.start;
        out.push(this.stop);
      }
      out.push(ended.segment());
      const arrival = ended.last;
      this.stop = { kind: 'stop', arrival, departure: undefined, last: this.prev ?? arrival, address: arrival.properties.address ?? null };
      // The reports of the halt after the arrival belong to the stop.
      if (run.halt) {
        this.stop.last = run.last;
        if (this.stop.address === null) this.stop.address = run.last.properties.address ?? null;
      }
    } else if (!this.stop) {
      this.stop = { kind: 'stop', arrival: run.start, departure: undefined, last: run.last, address: run.start.properties.address ?? null };
    } else {
      this.stop.last = run.last;
    }
  }

  /** The stream ended: a run in progress ends where it is; the stop in progress is returned open. */
  finish(): Segment[] {
    const out: Segment[] = [];
    const open = this.run && !this.run.halt; // moving at the end: no arrival, so no stop after it
    if (this.run) this.endRun(out);
    if (this.stop && !(open && out.length > 0)) out.push(this.stop);
    this.stop = undefined;
    return out;
  }
}
