/**
 * The trip/stop segmentation shared by the trips, stops and summary reports: one state
 * machine per unit, fed reports in date order, holding a few numbers and the reports of the
 * last few minutes whatever the length of the history. This file holds the tracker's entry
 * points (push, finish: the outlier rule and the stream's edges) and the step of each fix; its
 * state and the steps that close segments are in motion-core.ts, the silence rules in
 * motion-silence.ts and motion-depart.ts (what they read of fixes in motion-judge.ts).
 *
 * Where the unit was decides, not its reported speed alone: real trackers fall silent while
 * parked, report every second or every few minutes, and read 5-30 km/h from the noise of a
 * parked fix. The rules:
 * - Outliers: a fix implying more than outlierSpeedKmh from both the fix before and the fix
 *   after it, a detour out and back that neither the odometer nor the reported speeds explain,
 *   or a fix farther from a neighbour than the odometer counts while the odometer agrees with
 *   the way from the fix before to the fix after (a jump along the road), is left out of
 *   everything here. A fix left out for its leg to the next alone (its leg from the fix before
 *   agrees with the odometer) waits for the fix after that: when it fits between the fix before
 *   and that one and the next does not, the next was the jump (a fix off along the way that the
 *   odometer happened to agree with), and it is kept, unless the next fits there too and the
 *   odometer's count from the fix before to that one goes by the next (odometerGoesBy). The
 *   stream's first fix, farther from the next than their odometers count (by more than the stop
 *   radius), is left out when the fix after that agrees with the next and not with it: a jump
 *   nothing before it could show.
 * - A stop: the unit stays within stopRadiusM of a fix for at least minStopDurationS (two
 *   fixes or more), silences included: a logger that sleeps while parked and wakes up at the
 *   same place was stopped all along. Its arrival is the first of those fixes at which the
 *   unit had come to rest (not moving, or covering far less ground to the next fix than its
 *   speed says); its position is the median of its fixes (a robust centre, not the first fix)
 *   up to the departure (the fixes on their way out after it do not drag it along).
 * - A stop ends when a fix falls outside the radius around its centre, however short the move
 *   that follows. The departure is the unit's motion_state 'moving' report there, else the
 *   first of the trailing fixes that were already on their way out (moving and covering the
 *   ground their speed says), else the first fix outside when it is moving, else the last fix
 *   inside (the unit drove in the silence between); after a silence it stood through, never a
 *   fix before it (so never the arrival: no stop of no length).
 * - The move between two stops is a trip when it covers minTripDistanceKm or lasts
 *   minTripDurationS (as Traccar decides), otherwise a short move: not a trip, but its
 *   distance and driving time count in the summary. A move that ends at the stop it left and
 *   never went farther than JITTER_RADII stop radii from it is parked jitter, and one with a
 *   single fix beyond the radius is a jump that the speed rule could not tell (sparse
 *   reports): either way the stop goes on.
 * - Silences (a logger asleep at rest, the tracker's motion_state word across a silence, every
 *   silence after which the unit is elsewhere): motion-silence.ts, motion-depart.ts.
 * - The stream's edges cut: what began before the first fix or goes on after the last is
 *   partial (a lone last fix elsewhere too: whether it is a jump is not decided; not a move that
 *   ended at the tracker's 'stopped' report, its followers still there), an edge stop
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
import { Anchors } from './anchors.js';
import { distKm, fartherThan, fixOf, jumpToNextOnly, odometerGoesBy, outlierReason, speedOf, wentOnAt, type Fix } from './fix.js';
import { hasPosition, odometerRounding } from './geo.js';
import type { Move } from './move.js';
import { MAX_HELD, Place } from './place.js';
import { DepartureRules } from './motion-depart.js';
import type { Segment } from './segments.js';
import { NONE } from './stream.js';
import { formatSpan } from '../span.js';

/**
 * The segmentation state machine of one unit. push() takes reports in date order and
 * returns the segments they completed, in time order (a stop before the move that ends it).
 */
export class MotionTracker extends DepartureRules {
  /** What reanchoring a move's candidate measures, kept from fix to fix. */
  private readonly anchors = new Anchors();

  private isMoving(r: ReportPoint, speed: number): boolean {
    const p = r.properties;
    if (this.params.useMotionState) {
      if (p.reportType === 'motion_state') {
        if (p.reportValue === 'moving') this.motion = true;
        else if (p.reportValue === 'stopped') this.motion = false;
      }
      // A unit said stopped, yet reports driving speed: its 'moving' was lost (in a reporting gap).
      if (this.motion === false && p.reportType !== 'motion_state' && speed > this.params.speedThreshold) this.motion = true;
      if (this.motion !== undefined) return this.motion;
    }
    return speed > this.params.speedThreshold;
  }

  push(r: ReportPoint): readonly Segment[] {
    const speed = speedOf(r);
    const moving = this.isMoving(r, speed);
    const p = r.properties;
    if (!hasPosition(p.lat, p.lng)) return NONE;
    const going = speed > this.params.speedThreshold || (this.params.useMotionState && p.reportType === 'motion_state' && p.reportValue === 'moving');
    const fix = fixOf(r, speed, moving, going);
    const held = this.held;
    this.held = fix;
    if (!held) return NONE;
    const out = this.out;
    if (this.doubt) this.settleDoubt(held, fix, out);
    const kept = this.kept;
    if (kept) {
      const why = outlierReason(kept, held, fix, this.params.outlierSpeedKmh);
      if (why) {
        // left out for its leg to this fix alone: this fix may be the jump, the next one tells
        if (jumpToNextOnly(kept, held, fix)) this.doubt = { fix: held, why };
        else this.tell('outlier', held, held, null, held, `${why}: left out`);
        return out.length === 0 ? NONE : out.splice(0);
      }
    } else {
      // the first fix, farther from the next than their odometers count: one of the two jumped, the next fix tells which
      const still = this.odometerStill(held, fix);
      if (still !== undefined) {
        this.doubt = { fix: held, why: `the first fix, ${distKm(held, fix).toFixed(1)} km from the fix after, where the odometer counts ${still.toFixed(1)} km` };
        return NONE;
      }
    }
    this.kept = held;
    this.step(held, out);
    return out.length === 0 ? NONE : out.splice(0);
  }

  /**
   * The fix in doubt d (left out for its leg to `held` alone) and the fix after `held`, `next`: d
   * was the jump, or `held` was. After a kept fix, d is restored when it fits between that fix and
   * `next` (outlierReason) and `held` does not fit between d and `next`: `held` was a fix off along
   * the way that the odometer from the fix before happened to agree with; unless `held` fits between
   * that fix and `next` too and the odometer's count between them goes by `held` rather than by d
   * (odometerGoesBy: after a silence, a fix at rest kilometres from where the unit stood, then the
   * tracker's 'moving' report there, the odometer still between the two). As the first fix, d is
   * left out when it is farther from `next` than their odometers count and `held` is not (the
   * odometer agrees with `held`); else (a stuck odometer, say) it is kept, as nothing says it jumped.
   */
  private settleDoubt(held: Fix, next: Fix, out: Segment[]): void {
    const d = this.doubt as { fix: Fix; why: string };
    this.doubt = undefined;
    const kept = this.kept;
    const limit = this.params.outlierSpeedKmh;
    const fits = kept !== undefined && !outlierReason(kept, d.fix, next, limit) && outlierReason(d.fix, held, next, limit) !== undefined;
    // both fit between the fix before and `next`: the odometer's count between those two tells which one the unit went by
    const byOdometer = fits && outlierReason(kept, held, next, limit) === undefined && odometerGoesBy(kept, held, d.fix, next);
    const restore = kept ? fits && !byOdometer : !(this.odometerStill(d.fix, next) !== undefined && this.odometerStill(held, next) === undefined);
    if (!restore) {
      this.tell('outlier', d.fix, d.fix, null, d.fix, `${d.why}${byOdometer ? "; the odometer's count from the fix before to the next but one goes by the fix after, not by this one" : ''}: left out`);
      return;
    }
    this.kept = d.fix;
    this.step(d.fix, out);
  }

  /** The stream ended: the move in progress ends where it is, the stop in progress is returned open. */
  finish(): Segment[] {
    const out: Segment[] = [];
    const held = this.held;
    const d = this.doubt;
    this.doubt = undefined;
    // a fix in doubt before the last: no fix after tells which of the two jumped; left out as outlierReason says (a first fix is kept: nothing shows it jumped)
    if (d && this.kept) this.tell('outlier', d.fix, d.fix, null, d.fix, `${d.why}: left out`);
    else if (d) {
      this.kept = d.fix;
      this.step(d.fix, out);
    }
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
    // a late start at the last fix: no fix after it says its speed was noise
    const late = this.lateStart;
    this.lateStart = undefined;
    if (late) this.tellSilence(late.place.last, late.first, late.story);
    // a stop since the silence waited for a fix after its first: none came, so it stands
    if (this.run && this.restPending()) this.arriveAfterSilence(out);
    const place = this.place;
    if (place) {
      if (place.confirmed) this.emitStop(place, out);
      else this.tell('edge', place.first, place.last, null, place.centre, `stood ${formatSpan(place.last.t - place.first.t)} at the edge of the reports: under --min-stop ${formatSpan(this.params.minStopDurationS)}, not a stop`);
    } else if (this.run) {
      // Still moving, or halted for less than --min-stop: the move ends at its arrival, if it had one, cut by the end
      // of the reports; at the tracker's own 'stopped' report, its followers still there, it ends whole (it ended there).
      const c = this.candidate;
      const halt = this.haltIndex(c.length);
      const rest = this.arrivalIndex(c);
      const k = halt >= 0 ? halt : rest >= 0 ? rest : c.length - 1;
      for (let i = 0; i <= k; i++) this.run.add(c[i] as Fix);
      this.candidate = [];
      this.endMove(undefined, halt < 0, out);
    }
    this.place = undefined;
    return out;
  }

  protected override step(f: Fix, out: Segment[]): void {
    const late = this.lateStart;
    this.lateStart = undefined;
    if (!this.place && !this.run) {
      this.place = new Place(f, false, true); // the first fix: where the unit stood before is not known
      return;
    }
    const place = this.place;
    if (place) {
      // no candidate while the unit stands: what was measured of the last one keeps none of its fixes
      this.anchors.forget();
      // the tracker said 'stopped' here, and says it again beyond the radius of that report: it moved in between (a shuffle
      // within the radius of the stop's centre, which the fixes between dragged along)
      if (!this.haltedAgain(place, f) && place.holds(f, this.radiusKm)) {
        place.add(f);
        // still here, at rest, --min-stop after it said moving (it moved a few metres, or never set off): that word starts no trip
        if (place.setOff !== undefined && !f.going && f.t - place.setOff.t >= this.params.minStopDurationS) place.setOff = undefined;
        if (!place.confirmed && f.t - place.first.t >= this.params.minStopDurationS) place.confirmed = true;
        return;
      }
      return this.depart(place, f, out);
    }
    const run = this.run as Move;
    const c = this.candidate;
    const first = c[0];
    // the move began at its first fix after a silence at a stop, by that fix's speed alone, and f says it was noise
    if (late && c.length === 1 && first === late.first && this.parkedNoise(first, f)) return this.noiseAfterSilence(late, first, f, out);
    if (late) this.tellSilence(late.place.last, late.first, late.story);
    const rest = this.restFrom;
    if (rest && this.restPending()) {
      // its first fix after the silence went on to f at the speed it reads: no report shows the unit at rest, it moved across
      if (wentOnAt(first as Fix, f)) {
        this.tellSilence(rest, first as Fix, `driving before it, and crawling after it (the next fix as far on as its speed of ${(first as Fix).speed} km/h goes): no report shows it at rest, the move went on across it`);
        this.restFrom = undefined;
      } else {
        this.arriveAfterSilence(out);
        return this.step(f, out);
      }
    }
    const p = c[c.length - 1] ?? run.last;
    // the rules of a silence and of the tracker's 'moving' (silenceRules): none applies to a fix under --min-stop after the one before
    if ((f.t - p.t >= this.params.minStopDurationS || this.isSetOff(f)) && this.silenceRules(p, f, out)) return;
    const away = first !== undefined && fartherThan(first, f, this.radiusKm);
    if (away) {
      this.restFrom = undefined;
      const i = this.anchors.first(c, f, this.radiusKm);
      const last = c[c.length - 1] as Fix;
      if (i === c.length && f.t - last.t > this.params.maxGapS) {
        this.tellSilence(last, f, 'moving before it, not at rest on both sides: the move went on across it');
      }
      for (let k = 0; k < i; k++) run.add(c[k] as Fix);
      this.anchors.drop(c, i);
    }
    if (c.length >= MAX_HELD) {
      run.add(c[0] as Fix);
      this.anchors.drop(c, 1);
    }
    c.push(f);
    if (c.length >= 2 && f.t - (this.restFrom ?? (c[0] as Fix)).t >= this.params.minStopDurationS) {
      if (this.restFrom) this.arriveAfterSilence(out);
      else this.arrive(out);
    }
  }

  /**
   * The odometer's count from a to b when both carry one and it says the unit did not go the way
   * between (it counts less than the straight line by more than the stop radius and its rounding), else undefined.
   * Nothing after the stream's last fix can show it to be a jump: the odometer decides.
   */
  private odometerStill(a: Fix, b: Fix): number | undefined {
    const o1 = a.r.properties.odometer;
    const o2 = b.r.properties.odometer;
    if (typeof o1 !== 'number' || typeof o2 !== 'number' || !Number.isFinite(o1) || !Number.isFinite(o2)) return undefined;
    const delta = o2 - o1;
    return delta >= 0 && delta + this.radiusKm + odometerRounding(o1, o2) < distKm(a, b) ? delta : undefined;
  }
}
