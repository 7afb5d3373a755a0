/**
 * A move from a departure, fix by fix: its distance, driving time and speeds, split by local
 * day when the tracker has a clock.
 */
import type { Day, DayClock } from './days.js';
import { distKm, fixAt, legKm, segmentKm, type Fix } from './fix.js';
import { odometerKm, plausibleStep } from './geo.js';
import type { Centre } from './place.js';
import type { DayPart, TripSegment } from './segments.js';

/** A move that stays within this many stop radii of the stop it left, and comes back to it, is parked jitter (motion-core.ts). */
export const JITTER_RADII = 3;

/**
 * When the way from a to f (km) was driven, within the time between them, as pieces [from, to,
 * km]: a unit driving at a and not at f (into a silence it is found at rest after) drove it first,
 * at the mean of the two speeds (it slowed down), then stood (at once when neither reads a speed:
 * set off by its 'moving' report, no report says how long it took); one not driving at a and
 * driving at f set off late, at f's speed; one driving on both sides of a silence whose way at
 * their speeds takes less than it, drove on at a's speed, stood where no report shows, and drove
 * on at f's, each for the same time (nothing tells which side of the silence the stand lay
 * nearer); else any time between (by time). An f the move arrived at its stop by (`atRest`: the
 * stop's arrival, motion-core.ts) is not driving here, whatever speed it reads (a parked fix's
 * noise). So a silence over midnight gives its way to the day it was driven on, as the motion
 * tracker's silence rules read it (motion-silence.ts, motion-depart.ts).
 */
function drivenIn(a: Fix, f: Fix, km: number, atRest: boolean): Array<[number, number, number]> {
  const going = f.going && !atRest;
  const kmh = going || !f.going ? f.speed : 0;
  if (a.going && !going && a.speed + kmh > 0) return [[a.t, Math.min(f.t, a.t + (km * 3600 * 2) / (a.speed + kmh)), km]];
  // set off at a by the tracker's own word (no speed) and not driving at f: it drove at once, at no speed a report gives
  if (a.going && !going) return [[a.t, a.t, km]];
  if (!a.going && going && f.speed > 0) return [[Math.max(a.t, f.t - (km * 3600) / f.speed), f.t, km]];
  if (a.going && going && a.speed > 0 && f.speed > 0) {
    const each = (km * 3600) / (a.speed + f.speed);
    if (2 * each < f.t - a.t) {
      const before = (km * a.speed) / (a.speed + f.speed);
      return [[a.t, a.t + each, before], [f.t - each, f.t, km - before]];
    }
  }
  return [[a.t, f.t, km]];
}

/** When a unit driving into a silence at a, at rest at f after it, arrived there (Move.driveInto): the way at a's speed, f at the latest; a's date without a speed. */
export function arrivalAt(a: Fix, f: Fix): number {
  return a.going && a.speed > 0 ? Math.min(f.t, Math.round(a.t + (segmentKm(a, f) * 3600) / a.speed)) : a.t;
}

/** A move from a departure, fix by fix. */
export class Move {
  start: Fix;
  last: Fix;
  distanceKm = 0;
  drivingTime = 0;
  /** The reported speeds integrated over the driving time whose ways carry one (see add), and that time, s. */
  speedTime = 0;
  speedDt = 0;
  maxSpeed: number;
  parts: DayPart[] = [];
  path: number[] | undefined;
  /** The longest silence between two of its fixes (or before its first, from the stop) across which the unit moved beyond the stop radius, s. */
  silence = 0;
  /** Farthest from the centre of the stop it left, km, and how many fixes were beyond its radius (measured while it may be parked jitter: see away()). */
  maxAwayKm = 0;
  awayFixes = 0;
  /** The centre of the stop it left, while the move may still be parked jitter around it. */
  private from: Centre | undefined;
  /** Since when the odometer has read what the last fix reads (the move's start, as far as the move saw), and whether every leg since was counted by it (see wayKm). */
  private odoSince: number;
  private odometerOnly = true;
  private readonly radiusKm: number;
  private readonly clock: DayClock | undefined;

  /** `hop`: the last fix at the stop when the move starts at a fix beyond it; the way between counts as distance, not time. */
  constructor(start: Fix, clock: DayClock | undefined, keepPath: boolean, from: Centre | undefined, radiusKm: number, hop?: Fix) {
    this.start = start;
    this.last = start;
    this.clock = clock;
    this.from = from;
    this.odoSince = start.t;
    this.radiusKm = radiusKm;
    this.maxSpeed = start.speed;
    if (keepPath) this.path = [start.lng, start.lat];
    if (from) this.away(start);
    const part = clock ? this.partOf(clock.dayOf(start.t)) : undefined;
    if (part) part.maxSpeed = start.speed;
    if (hop) {
      this.silent(hop, start);
      const km = segmentKm(hop, start);
      this.distanceKm += km;
      if (part) part.distanceKm += km;
    }
  }

  partOf(day: Day): DayPart {
    const last = this.parts[this.parts.length - 1];
    if (last && last.day.key === day.key) return last;
    for (const p of this.parts) if (p.day.key === day.key) return p;
    const p: DayPart = { day, distanceKm: 0, drivingTime: 0, maxSpeed: 0 };
    this.parts.push(p);
    return p;
  }

  /** Adds the way from this.last to f; `atRest`: f is the arrival of the stop the move ends at (drivenIn). */
  add(f: Fix, atRest = false): void {
    const a = this.last;
    if (f === a) return;
    const t0 = a.t;
    const t1 = f.t;
    const dt = Math.max(0, t1 - t0);
    const driving = a.moving || f.moving;
    const km = this.wayKm(a, f);
    this.distanceKm += km;
    this.silent(a, f);
    if (driving) {
      this.drivingTime += dt;
      // a way beyond the stop radius with no speed at either end (a silence the unit crossed, a tracker that reads none)
      // says nothing of the speed it was driven at: left out of the average (a halt at a light, within the radius, is in it)
      if (a.speed > 0 || f.speed > 0 || legKm(a, f) <= this.radiusKm) {
        this.speedTime += (dt * (a.speed + f.speed)) / 2;
        this.speedDt += dt;
      }
    }
    if (f.speed > this.maxSpeed) this.maxSpeed = f.speed;
    if (this.from) this.away(f);
    this.last = f;
    this.path?.push(f.lng, f.lat);
    const clock = this.clock;
    if (!clock) return;
    const open = this.parts[this.parts.length - 1];
    if (open !== undefined && open.day.start <= t0 && t0 <= t1 && t1 < open.day.end) {
      // Within the day of the last part, as most ways are: what the apportioning below gives, without asking the clock.
      if (f.speed > open.maxSpeed) open.maxSpeed = f.speed;
      open.distanceKm += dt === 0 ? km : (km * (t1 - t0)) / dt;
      if (driving) open.drivingTime += t1 - t0;
      return;
    }
    // Apportion the way to the days it spans, by time; its kilometres by the time they took (see drivenIn).
    const endPart = this.partOf(clock.dayOf(t1));
    if (f.speed > endPart.maxSpeed) endPart.maxSpeed = f.speed;
    if (dt === 0) {
      endPart.distanceKm += km;
      return;
    }
    const pieces = drivenIn(a, f, km, atRest);
    for (const [d0, d1, k] of pieces) if (d1 <= d0) this.partOf(clock.dayOf(d0)).distanceKm += k;
    for (let t = t0; t < t1; ) {
      const day = clock.dayOf(t);
      const to = Math.min(t1, day.end);
      const part = this.partOf(day);
      for (const [d0, d1, k] of pieces) if (d1 > d0) part.distanceKm += (k * Math.max(0, Math.min(to, d1) - Math.max(t, d0))) / (d1 - d0);
      if (driving) part.drivingTime += to - t;
      t = to;
    }
  }

  /**
   * segmentKm from a to f, and the steps of an odometer that counts whole kilometres (or miles): it
   * reads the same while the unit drives on, then steps by a kilometre in a second, faster than
   * anything drives. Where its count of the legs since it last changed was taken (nothing: they were
   * shorter than its rounding), a step of up to ODOMETER_STEP_KM that the unit could have driven since
   * then counts whole (their straight line at least). Where the legs were longer and counted their
   * straight lines, the step counts its own: the kilometre is in them already.
   */
  private wayKm(a: Fix, f: Fix): number {
    const straight = legKm(a, f);
    const odo = odometerKm(a.r, f.r, straight);
    const o1 = a.r.properties.odometer;
    const o2 = f.r.properties.odometer;
    if (o1 === o2) {
      if (odo === undefined) this.odometerOnly = false;
      return odo ?? straight;
    }
    const since = this.odoSince;
    const counted = this.odometerOnly;
    this.odoSince = f.t;
    this.odometerOnly = true;
    if (odo !== undefined) return odo;
    if (!counted || typeof o1 !== 'number' || typeof o2 !== 'number') return straight;
    const delta = o2 - o1;
    return plausibleStep(delta, f.t - since) ? Math.max(straight, delta) : straight;
  }

  /**
   * The unit drove into a silence at this.last and is at rest at f after it: it drove on at the
   * speed it reported there (as a late start is dated by its first fix's, motion-depart.ts) and
   * arrived as long after as the way takes, f at the latest; it stood the rest of the silence. The
   * move ends at f's place, dated so; that end is returned (the stop's arrival). Without a speed
   * (at rest at this.last, or set off by the tracker's word alone): hop, at once, so the move ends
   * at f's place dated this.last's (not at this.last: its distance is the way to f).
   */
  driveInto(f: Fix): Fix {
    const a = this.last;
    const at = arrivalAt(a, f);
    if (at <= a.t) {
      this.hop(f);
      this.last = fixAt(f, a.t);
      return this.last;
    }
    // the silence across which it moved is the whole one (an estimate dates the arrival in it)
    this.silent(a, f);
    const end = at < f.t ? fixAt(f, at) : f;
    this.add(end, true);
    return end;
  }

  /** The way from this.last to f counts as distance, not as time: the unit went there in a silence and stood. */
  hop(f: Fix): void {
    const km = segmentKm(this.last, f);
    this.silent(this.last, f);
    this.distanceKm += km;
    if (this.clock) this.partOf(this.clock.dayOf(this.last.t)).distanceKm += km;
    this.path?.push(f.lng, f.lat);
  }

  private silent(a: Fix, b: Fix): void {
    const dt = b.t - a.t;
    // legKm is the distance fartherThan compares (distKm), most often already measured for this leg
    if (dt > this.silence && legKm(a, b) > this.radiusKm) this.silence = dt;
  }

  private away(f: Fix): void {
    const km = distKm(this.from as Centre, f);
    if (km > this.maxAwayKm) this.maxAwayKm = km;
    if (km > this.radiusKm) this.awayFixes++;
    // Both only grow: once beyond the jitter rule's bounds (motion-core.ts), no later fix can bring the move back within them.
    if (this.maxAwayKm > JITTER_RADII * this.radiusKm && this.awayFixes > 1) this.from = undefined;
  }

  /** `maxGapS`: a silence longer than this across which it moved makes the move inferred. */
  segment(trip: boolean, partial: boolean, maxGapS: number): TripSegment {
    return {
      kind: 'trip', trip, partial, inferred: this.silence > maxGapS, start: this.start.r, end: this.last.r,
      distanceKm: this.distanceKm, drivingTime: this.drivingTime,
      // no way of the move carries a speed and no fix read one: not known (not 0: it moved)
      maxSpeed: this.speedDt === 0 && this.maxSpeed === 0 ? null : this.maxSpeed,
      avgSpeed: this.speedDt > 0 ? this.speedTime / this.speedDt : null,
      parts: this.parts, path: this.path,
    };
  }
}
