/**
 * The trip/stop segmentation shared by the trips, stops and summary reports: one state
 * machine per unit, fed reports in date order, holding a few numbers and the reports of the
 * last few minutes whatever the length of the history.
 *
 * Where the unit was decides, not its reported speed alone: real trackers fall silent while
 * parked, report every second or every few minutes, and read 5-30 km/h from the noise of a
 * parked fix. The rules:
 * - Outliers: a fix implying more than outlierSpeedKmh from both the fix before and the fix
 *   after it, a detour out and back that neither the odometer nor the reported speeds explain,
 *   or a fix farther from a neighbour than the odometer counts while the odometer agrees with
 *   the way from the fix before to the fix after (a jump along the road), is left out of
 *   everything here.
 * - A stop: the unit stays within stopRadiusM of a fix for at least minStopDurationS (two
 *   fixes or more), silences included: a logger that sleeps while parked and wakes up at the
 *   same place was stopped all along. Its arrival is the first of those fixes at which the
 *   unit had come to rest (not moving, or covering far less ground to the next fix than its
 *   speed says); its position is the median of its fixes (a robust centre, not the first fix).
 * - A stop ends when a fix falls outside the radius around its centre, however short the move
 *   that follows. The departure is the unit's motion_state 'moving' report there, else the
 *   first of the trailing fixes that were already on their way out (moving and covering the
 *   ground their speed says), else the first fix outside when it is moving, else the last fix
 *   inside (the unit drove in the silence between).
 * - The move between two stops is a trip when it covers minTripDistanceKm or lasts
 *   minTripDurationS (as Traccar decides), otherwise a short move: not a trip, but its
 *   distance and driving time count in the summary. A move that ends at the stop it left and
 *   never went farther than JITTER_RADII stop radii from it is parked jitter, and one with a
 *   single fix beyond the radius is a jump that the speed rule could not tell (sparse
 *   reports): either way the stop goes on.
 * - A silence spent at rest (a logger asleep from the moment it parks: its last report still
 *   shows a driving speed, the next one is near and not driving, and the odometer, when
 *   present, counts no more than the way between) ends the move at the last report before it.
 * - The tracker's own word across a silence (its 'stopped' or 'moving' report was made, the
 *   other lost): a motion_state 'moving' report after a silence of at least minStopDurationS
 *   before the unit's fixes at its place says it stood there: a stop from the last report
 *   before the silence (when it rested all along) or from its first fix there, until the
 *   'moving' report; with no fix there but that report, the move ends at it and the next
 *   begins there. A 'stopped' report whose followers stay at its place, then a silence of at
 *   least minStopDurationS after which the unit is elsewhere, ends the move at the 'stopped'
 *   report: the unit stood there (a stop when a later fix shows it there) and drove in the
 *   silence.
 * - Every silence after which the unit is elsewhere (beyond stopRadiusM) is explained, whatever
 *   its length, by what could have happened in it: the way between the reports around it (the
 *   odometer's or the straight line) against its length. At rest before it and not driving
 *   after it: it drove in the silence, a trip from the last report before it to the first after
 *   it. At rest before it and driving after it: the way at the speed it drives takes part of the
 *   silence; when the rest leaves --min-stop, it stood where it was until it set off in the
 *   silence (an ignition-powered tracker whose first fix comes minutes after it drove off: a
 *   stop until that fix, even with a single report there), else it left at its last report.
 *   Moving before it: the move goes on across it (or it rested, above). A move that crossed a
 *   silence longer than maxGapS in which the unit moved is inferred: no report shows that part
 *   of it, the reports around the silence bound it.
 * - The stream's edges cut: what began before the first fix or goes on after the last is
 *   partial (a lone last fix elsewhere too: whether it is a jump is not decided), an edge stop
 *   shorter than minStopDurationS is no stop, and a last fix farther from the one before than
 *   their odometers count (by more than the stop radius) is left out: a move the odometer says
 *   did not happen.
 *
 * Distance between two fixes of a move: the odometer difference when both carry an odometer
 * and it is plausible (not negative, not much shorter than the straight line, no faster than
 * MAX_ODOMETER_KMH), otherwise the great-circle distance; so a silence in which the unit
 * drove counts the odometer's kilometres, or at least the straight hop.
 */
import type { ReportPoint } from '../api/types.js';
import type { DayClock } from './days.js';
import { distKm, fartherThan, leaving, outlierReason, segmentKm, speedOf, type Fix } from './fix.js';
import { cosOfLat, hasPosition, odometerKm } from './geo.js';
import { Move } from './move.js';
import type { ReportParams } from './params.js';
import { MAX_HELD, Place } from './place.js';
import type { Explanation, Segment, TrackerOptions } from './segments.js';
import { NONE } from './stream.js';

/** A move that stays within this many stop radii of the stop it left, and comes back to it, is parked jitter. */
const JITTER_RADII = 3;

/** How far a unit may roll on to its stop after its last report before a long silence, km (one sparse report's drive). */
const ROLL_KM = 1;

/** How far a stand estimated across a silence may fall short of --min-stop and still count (speeds to 0.1, odometers to the metre), s. */
const STAND_SLACK_S = 10;

/**
 * The segmentation state machine of one unit. push() takes reports in date order and
 * returns the segments they completed, in time order (a stop before the move that ends it).
 */
export class MotionTracker {
  private readonly params: ReportParams;
  private readonly radiusKm: number;
  private readonly clock: DayClock | undefined;
  private readonly keepPath: boolean;
  private readonly explain: ((e: Explanation) => void) | undefined;
  /** The latest motion_state value, once one was seen. */
  private motion: boolean | undefined;
  /** The newest fix, held until the next one says whether it is an outlier. */
  private held: Fix | undefined;
  /** The last fix passed on. */
  private kept: Fix | undefined;
  /** Where the unit stands, when it is not moving. */
  private place: Place | undefined;
  /** The move in progress, from the departure of `left`. */
  private run: Move | undefined;
  /** The stop the move in progress left (emitted once the move is decided: it may have been jitter). */
  private left: Place | undefined;
  /** The fixes of the move not yet committed to it: they may be the start of a stop. */
  private candidate: Fix[] = [];
  /** The move in progress began at the stream's first fix (or the first after a gap): the unit was already moving. */
  private runPartial = false;
  /** The candidate began after a silence the unit spent at rest: it arrived at this fix, the last before the silence. */
  private restFrom: Fix | undefined;
  /** finish() is stepping the stream's last fix. */
  private ending = false;
  /** What push() completes, handed out as a new array only when it holds something (most reports complete nothing). */
  private readonly out: Segment[] = [];

  constructor(params: ReportParams, options: TrackerOptions = {}) {
    this.params = params;
    this.radiusKm = params.stopRadiusM / 1000;
    this.clock = options.clock;
    this.keepPath = options.keepPath ?? false;
    this.explain = options.explain;
  }

  /** Date of the earliest fix whose segment is not decided yet: nothing after it is settled. */
  get unsettledSince(): number | undefined {
    let t = this.held?.t;
    const low = (x: number | undefined): void => {
      if (x !== undefined && (t === undefined || x < t)) t = x;
    };
    low(this.run?.start.t);
    low(this.candidate[0]?.t);
    low(this.place?.leaving[0]?.t);
    if (this.place && !this.place.confirmed) low(this.place.first.t);
    return t;
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

  push(r: ReportPoint): readonly Segment[] {
    const moving = this.isMoving(r);
    const p = r.properties;
    if (!hasPosition(p.lat, p.lng)) return NONE;
    const speed = speedOf(r);
    const going = speed > this.params.speedThreshold || (this.params.useMotionState && p.reportType === 'motion_state' && p.reportValue === 'moving');
    const fix: Fix = { r, t: p.date, lat: p.lat, lng: p.lng, cosLat: cosOfLat(p.lat), speed, moving, going, nextLat: Number.NaN, nextLng: Number.NaN, nextKm: 0 };
    const held = this.held;
    this.held = fix;
    if (!held) return NONE;
    const kept = this.kept;
    const why = kept && outlierReason(kept, held, fix, this.params.outlierSpeedKmh);
    if (why) {
      this.tell('outlier', held, held, null, held, `${why}: left out`);
      return NONE;
    }
    this.kept = held;
    const out = this.out;
    this.step(held, out);
    return out.length === 0 ? NONE : out.splice(0);
  }

  /** The stream ended: the move in progress ends where it is, the stop in progress is returned open. */
  finish(): Segment[] {
    const out: Segment[] = [];
    const held = this.held;
    this.held = undefined;
    const kept = this.kept;
    const still = held && kept ? this.odometerStill(kept, held) : undefined;
    if (held && still !== undefined) {
      this.tell('outlier', held, held, null, held, `the last fix, ${distKm(kept as Fix, held).toFixed(1)} km from the fix before, where the odometer counts ${still.toFixed(1)} km: a move the odometer says did not happen, left out`);
    } else if (held) {
      this.kept = held;
      this.ending = true;
      this.step(held, out);
      this.ending = false;
    }
    const place = this.place;
    if (place) {
      if (place.confirmed) this.emitStop(place, out);
      else this.tell('edge', place.first, place.last, null, place.centre, `stood ${place.last.t - place.first.t} s at the edge of the reports: under --min-stop ${this.params.minStopDurationS} s, not a stop`);
    } else if (this.run) {
      // Still moving, or halted for less than --min-stop: the move ends at its arrival, if it had one.
      const c = this.candidate;
      const rest = this.arrivalIndex(c);
      const k = rest >= 0 ? rest : c.length - 1;
      for (let i = 0; i <= k; i++) this.run.add(c[i] as Fix);
      this.candidate = [];
      this.endMove(undefined, true, out);
    }
    this.place = undefined;
    return out;
  }

  private step(f: Fix, out: Segment[]): void {
    if (!this.place && !this.run) {
      this.place = new Place(f, false, true); // the first fix: where the unit stood before is not known
      return;
    }
    const place = this.place;
    if (place) {
      if (place.holds(f, this.radiusKm)) {
        place.add(f);
        if (!place.confirmed && f.t - place.first.t >= this.params.minStopDurationS) place.confirmed = true;
        return;
      }
      return this.depart(place, f, out);
    }
    const run = this.run as Move;
    const c = this.candidate;
    const first = c[0];
    const p = c[c.length - 1] ?? run.last;
    if (this.isSetOff(f) && this.setOffAfterSilence(f, out)) return;
    const halt = f.t - p.t >= this.params.minStopDurationS ? this.haltIndex(c.length) : -1;
    if (halt >= 0 && fartherThan(c[halt] as Fix, f, this.radiusKm) && !this.restedBefore(p, f)) {
      this.haltedThenMoved(halt, f, out);
      return;
    }
    if (first && this.cameToRest(p, f, out)) return;
    const away = first !== undefined && fartherThan(first, f, this.radiusKm);
    if (away && this.restedBefore(p, f)) {
      for (const x of c) run.add(x);
      this.candidate = [f];
      this.restFrom = p;
      return;
    }
    if (away) {
      this.restFrom = undefined;
      const i = this.reanchor(f);
      const last = c[c.length - 1] as Fix;
      if (i === c.length && f.t - last.t > this.params.maxGapS) {
        this.tellSilence(last, f, 'moving before it, not at rest on both sides: the move went on across it');
      }
      for (let k = 0; k < i; k++) run.add(c[k] as Fix);
      c.splice(0, i);
    }
    if (c.length >= MAX_HELD) run.add(c.shift() as Fix);
    c.push(f);
    if (c.length >= 2 && f.t - (this.restFrom ?? (c[0] as Fix)).t >= this.params.minStopDurationS) this.arrive(out);
  }

  /**
   * The candidate's last fix p is at rest, then a silence of --min-stop or more, and f drives
   * elsewhere: when the way from p to f at the speed f drives leaves --min-stop of the silence, the
   * unit came to rest at p's place and stood there until it set off in the silence (an
   * ignition-powered tracker whose first fix comes after it drove off). The stop begins at the
   * candidate's arrival there; f then departs from it.
   */
  private cameToRest(p: Fix, f: Fix, out: Segment[]): boolean {
    if (p.going || !f.going || f.t - p.t < this.params.minStopDurationS || !fartherThan(p, f, this.radiusKm)) return false;
    if (this.stoodS(p, f) + STAND_SLACK_S < this.params.minStopDurationS) return false;
    const c = this.candidate;
    let k = c.length - 1;
    while (k > 0 && !fartherThan(c[k - 1] as Fix, p, this.radiusKm)) k--;
    const run = this.run as Move;
    for (let i = 0; i < k; i++) run.add(c[i] as Fix);
    this.candidate = c.slice(k);
    this.restFrom = undefined;
    this.arrive(out);
    this.step(f, out);
    return true;
  }

  /** Seconds of the silence from p to f the unit stood: the silence less the way at the speed driven around it (f's, or p's when faster). */
  private stoodS(p: Fix, f: Fix): number {
    const kmh = Math.max(f.going ? f.speed : 0, p.going ? p.speed : 0);
    if (!(kmh > 0)) return 0;
    return f.t - p.t - (segmentKm(p, f) * 3600) / kmh;
  }

  /** --explain: the story chosen for a silence between a and b, in which the unit moved. */
  private tellSilence(a: Fix, b: Fix, story: string): void {
    if (!this.explain) return;
    const km = segmentKm(a, b);
    const over = b.t - a.t > this.params.maxGapS ? ` (over --max-gap ${this.params.maxGapS} s: inferred)` : '';
    this.tell('gap', a, b, km, null, `silent ${b.t - a.t} s${over}, ${Math.round(km * 1000)} m away (${(km * 3600 / Math.max(1, b.t - a.t)).toFixed(1)} km/h on average), ${story}`);
  }

  /**
   * Whether the unit, last seen at p, spent the silence until f at rest near f: long enough for
   * a stop, f not driving, and neither p's speed nor the odometer says it went far in between
   * (a logger that sleeps from the moment it parks: its last report still shows a driving speed).
   */
  private restedBefore(p: Fix, f: Fix): boolean {
    if (f.t - p.t < this.params.minStopDurationS || f.speed > this.params.speedThreshold || leaving(p, f)) return false;
    const straight = distKm(p, f);
    const odo = odometerKm(p.r, f.r, straight);
    if (odo !== undefined) return odo <= straight + this.radiusKm;
    // Without an odometer, a silence longer than --max-gap proves nothing beyond the last stretch rolled to a stop.
    return f.t - p.t <= this.params.maxGapS || straight <= ROLL_KM;
  }

  /**
   * The odometer's count from a to b when both carry one and it says the unit did not go the way
   * between (it counts less than the straight line by more than the stop radius), else undefined.
   * Nothing after the stream's last fix can show it to be a jump: the odometer decides.
   */
  private odometerStill(a: Fix, b: Fix): number | undefined {
    const o1 = a.r.properties.odometer;
    const o2 = b.r.properties.odometer;
    if (typeof o1 !== 'number' || typeof o2 !== 'number' || !Number.isFinite(o1) || !Number.isFinite(o2)) return undefined;
    const delta = o2 - o1;
    return delta >= 0 && delta + this.radiusKm < distKm(a, b) ? delta : undefined;
  }

  /** The tracker's own motion_state 'moving' report (it had stopped and sets off). */
  private isSetOff(f: Fix): boolean {
    const p = f.r.properties;
    return this.params.useMotionState && p.reportType === 'motion_state' && p.reportValue === 'moving';
  }

  /** The tracker's own motion_state 'stopped' report. */
  private isHalt(f: Fix): boolean {
    const p = f.r.properties;
    return this.params.useMotionState && p.reportType === 'motion_state' && p.reportValue === 'stopped';
  }

  /**
   * A 'moving' report f during a move: the tracker says the unit had stopped (its 'stopped'
   * report was lost in a silence). When a silence of at least --min-stop comes before the unit's
   * fixes at f's place, it stood there: a stop from the last report before the silence (when it
   * rested all along) or from its first fix there, until f. With no fix there but f, the move
   * ends at f and the next one starts there. Returns false when no such silence came before.
   */
  private setOffAfterSilence(f: Fix, out: Segment[]): boolean {
    const c = this.candidate;
    const run = this.run as Move;
    let k = c.length;
    while (k > 0 && !fartherThan(c[k - 1] as Fix, f, this.radiusKm)) k--;
    const q = k > 0 ? (c[k - 1] as Fix) : run.last;
    const s = c[k] ?? f;
    if (s.t - q.t < this.params.minStopDurationS) return false;
    const rested = this.restedBefore(q, s);
    if (rested || s !== f) {
      for (let i = 0; i < k; i++) run.add(c[i] as Fix);
      this.candidate = [...c.slice(k), f];
      this.restFrom = rested ? q : undefined;
      this.tell('gap', q, s, distKm(q, s), null, `silent ${s.t - q.t} s, then motion_state moving here: the unit had stopped ${rested ? 'from its last report before the silence' : 'by its first fix here'}`);
      this.arrive(out);
      return true;
    }
    const halt = this.haltIndex(k);
    if (halt >= 0) {
      this.haltedThenMoved(halt, f, out);
      return true;
    }
    for (const x of c) run.add(x);
    this.candidate = [];
    this.restFrom = undefined;
    run.add(f);
    this.tell('gap', q, f, distKm(q, f), null, `silent ${f.t - q.t} s, then motion_state moving ${Math.round(distKm(q, f) * 1000)} m away: the move ended in the silence, where the unit set off again`);
    this.endMove(undefined, false, out);
    this.run = new Move(f, this.clock, this.keepPath, undefined, this.radiusKm);
    this.runPartial = false;
    return true;
  }

  /** The index of the candidate's last motion_state 'stopped' fix before `end` whose followers up to `end` stay within the radius of it, or -1. */
  private haltIndex(end: number): number {
    const c = this.candidate;
    for (let j = end - 1; j >= 0; j--) {
      const h = c[j] as Fix;
      if (fartherThan(h, c[end - 1] as Fix, this.radiusKm)) return -1;
      if (this.isHalt(h)) {
        for (let i = j + 1; i < end; i++) if (fartherThan(h, c[i] as Fix, this.radiusKm)) return -1;
        return j;
      }
    }
    return -1;
  }

  /**
   * The tracker said 'stopped' at candidate fix `halt`, stayed there (the fixes after it), fell
   * silent for --min-stop or more and is now elsewhere (f): the move ended at the halt, the unit
   * stood there (a stop when a fix after the halt shows it, else too short to tell) and left in
   * the silence; f is then taken as the first fix after a silence at that place.
   */
  private haltedThenMoved(halt: number, f: Fix, out: Segment[]): void {
    const run = this.run as Move;
    const c = this.candidate;
    for (let i = 0; i <= halt; i++) run.add(c[i] as Fix);
    this.candidate = [];
    this.restFrom = undefined;
    const last = c[c.length - 1] as Fix;
    this.tell('gap', last, f, distKm(last, f), null, `motion_state stopped, then silent ${f.t - last.t} s and ${Math.round(distKm(last, f) * 1000)} m away: the move ended at the stopped report`);
    this.endMove(undefined, false, out);
    const place = new Place(c[halt] as Fix, c.length > halt + 1, false);
    for (let i = halt + 1; i < c.length; i++) place.add(c[i] as Fix);
    this.place = place;
    this.step(f, out);
  }

  /** The smallest i ≥ 1 such that the candidate's fixes from i on and f are within the radius of fix i; the length when none is. */
  private reanchor(f: Fix): number {
    const c = this.candidate;
    outer: for (let i = 1; i < c.length; i++) {
      const a = c[i] as Fix;
      if (fartherThan(a, f, this.radiusKm)) continue;
      for (let j = c.length - 1; j > i; j--) if (fartherThan(a, c[j] as Fix, this.radiusKm)) continue outer;
      return i;
    }
    return c.length;
  }

  /** The first fix of the candidate at which the unit had come to rest (its last but one at most), or -1. */
  private arrivalIndex(c: Fix[]): number {
    for (let k = 0; k + 1 < c.length; k++) if (!leaving(c[k] as Fix, c[k + 1] as Fix)) return k;
    return -1;
  }

  /** The unit left `place` with fix f. */
  private depart(place: Place, f: Fix, out: Segment[]): void {
    const silent = f.t - place.last.t;
    if (silent >= this.params.minStopDurationS && !(f.speed > this.params.speedThreshold)) {
      // Silent since it stood here, and now elsewhere, not driving (at rest, or just setting off):
      // it drove in the silence (a trip from the last report here to f) and stood at f's place before f.
      this.tellSilence(place.last, f, 'at rest before it and not driving after it: it drove in the silence, a trip from the last report before it to the first after it');
      place.departure = place.last;
      if (place.confirmed) this.left = place;
      const run = new Move(place.last, this.clock, this.keepPath, place.confirmed ? place.centre : undefined, this.radiusKm);
      run.add(f);
      this.run = run;
      this.runPartial = false;
      this.candidate = [];
      // the last fix of the stream, alone elsewhere: whether the unit arrived there or the fix jumped is not decided
      this.endMove(undefined, this.ending, out);
      this.place = new Place(f, false, false, f, place.last.t);
      return;
    }
    // Driving after a silence here: it stood until it set off in the silence (its first fix came
    // late), unless the way to f at the speed it drives took the silence (it left at its last report).
    let drove = false;
    if (silent >= this.params.minStopDurationS) {
      const stood = this.stoodS(place.last, f);
      drove = stood + STAND_SLACK_S < this.params.minStopDurationS;
      if (!drove && !place.confirmed && place.last.t - place.arrival.t + stood + STAND_SLACK_S >= this.params.minStopDurationS) place.confirmed = true;
      this.tellSilence(place.last, f, drove
        ? `driving after it, and the way at ${f.speed} km/h takes most of it: the unit left at the last report before it`
        : `driving after it, and the way at ${f.speed} km/h takes ${silent - Math.round(stood)} s of it: the unit stood here about ${Math.round(stood)} s more and set off in the silence (its first fix came late); the trip from the first fix after it`);
    }
    // The tracker says it set off from here, having come after a silence long enough for a stop: it stood here.
    if (!place.confirmed && !place.edge && place.setOff && place.setOff !== place.first && place.setOff.t - place.since >= this.params.minStopDurationS) place.confirmed = true;
    if (leaving(place.last, f)) place.leaving.push(place.last);
    else place.leaving.length = 0;
    const on = place.leaving;
    const from = place.setOff ?? on[0] ?? (f.going && !drove ? f : place.last);
    place.departure = from;
    this.place = undefined;
    // the tracker's own 'moving' report dates the start even at the edge of the reports
    const partial = place.edge && from === place.first && !this.isSetOff(from);
    if (place.confirmed) this.left = place;
    else if (!partial) this.tell('edge', place.first, from, null, place.centre, `stood ${from.t - place.first.t} s ${place.edge ? 'at the edge of the reports' : 'after a silence'}: under --min-stop ${this.params.minStopDurationS} s, not a stop`);
    const run = new Move(from, this.clock, this.keepPath, place.confirmed ? place.centre : undefined, this.radiusKm, from === f ? place.last : undefined);
    for (const x of on) if (x.t > from.t) run.add(x);
    if (from !== f && from !== place.last) run.add(place.last);
    this.run = run;
    this.runPartial = partial;
    this.candidate = [f];
  }

  /** The candidate lasted --min-stop: the move ends at its arrival, and a stop begins there. */
  private arrive(out: Segment[]): void {
    const c = this.candidate;
    const run = this.run as Move;
    const rest = this.restFrom;
    this.restFrom = undefined;
    const k = rest ? 0 : Math.max(0, this.arrivalIndex(c));
    if (rest) run.hop(c[0] as Fix);
    else for (let i = 0; i <= k; i++) run.add(c[i] as Fix);
    const stop = new Place(c[k] as Fix, true, false, rest);
    for (let i = k + 1; i < c.length; i++) stop.add(c[i] as Fix);
    this.candidate = [];
    const left = this.left;
    const r = this.radiusKm;
    if (left && !rest && distKm(left.centre, stop.centre) <= r && (run.maxAwayKm <= JITTER_RADII * r || run.awayFixes <= 1)) {
      const what = run.awayFixes <= 1 ? 'one fix away from the stop and back: a jump' : `went at most ${Math.round(run.maxAwayKm * 1000)} m from the stop (within ${JITTER_RADII} × --stop-radius ${this.params.stopRadiusM} m) and came back: parked jitter`;
      this.tell('jitter', run.start, stop.last, null, left.centre, `${what}, the stop goes on`);
      for (const x of [...c.slice(0, k), stop.first]) left.add(x);
      for (let i = k + 1; i < c.length; i++) left.add(c[i] as Fix);
      left.departure = undefined;
      this.place = left;
      this.left = undefined;
      this.run = undefined;
      return;
    }
    this.endMove(stop, false, out);
    this.place = stop;
  }

  /** The move in progress ends (at run.last): the stop it left, then the move; `next` is the stop it reached, if any. */
  private endMove(next: Place | undefined, cut: boolean, out: Segment[]): void {
    const run = this.run as Move;
    this.run = undefined;
    if (this.left) this.emitStop(this.left, out);
    this.left = undefined;
    const p = this.params;
    const duration = run.last.t - run.start.t;
    const km = run.distanceKm;
    const trip = duration >= p.minTripDurationS || km >= p.minTripDistanceKm;
    const partial = this.runPartial || cut;
    out.push(run.segment(trip, partial, p.maxGapS));
    if (this.explain) {
      const size = `${km.toFixed(3)} km in ${duration} s`;
      const why = trip
        ? `${size}: a trip (${km >= p.minTripDistanceKm ? `at least --min-trip-distance ${p.minTripDistanceKm} km` : `at least --min-trip-duration ${p.minTripDurationS} s`})`
        : `${size}: a short move, not a trip (under --min-trip-distance ${p.minTripDistanceKm} km and --min-trip-duration ${p.minTripDurationS} s); its distance counts in the summary`;
      const edges = partial ? `; cut by ${cut ? 'the end of the reports' : 'the start of the reports'}` : '';
      const inferred = run.silence > p.maxGapS ? `; inferred: it crossed a silence of ${run.silence} s (over --max-gap ${p.maxGapS} s) in which it moved` : '';
      this.tell(trip ? 'trip' : 'move', run.start, run.last, km, null, `${why}${inferred}${next ? `, ended on staying within --stop-radius ${p.stopRadiusM} m for --min-stop ${p.minStopDurationS} s` : ''}${edges}`);
    }
  }

  private emitStop(place: Place, out: Segment[]): void {
    const seg = place.segment();
    out.push(seg);
    if (!this.explain) return;
    const until = place.departure ?? place.last;
    const silence = place.longestSilence >= 600 ? `, through a silence of ${place.longestSilence} s at the same place` : '';
    const rest = place.arrival !== place.first ? `, at rest from the last report before a silence of ${place.first.t - place.arrival.t} s` : '';
    const cut = seg.partial ? '; cut by the edge of the reports' : '';
    this.tell('stop', place.arrival, until, null, place.centre,
      `stayed within --stop-radius ${this.params.stopRadiusM} m for ${until.t - place.arrival.t} s (at least --min-stop ${this.params.minStopDurationS} s)${rest}${silence}${cut}`);
  }

  private tell(kind: Explanation['kind'], a: Fix, b: Fix, km: number | null, at: { lat: number; lng: number } | null, reason: string): void {
    if (!this.explain) return;
    const p = a.r.properties;
    this.explain({
      did: p.did, name: p.name, kind, from: a.t, to: b.t,
      distanceKm: km === null ? null : Math.round(km * 1000) / 1000,
      lat: at ? at.lat : null, lng: at ? at.lng : null, reason,
    });
  }
}
