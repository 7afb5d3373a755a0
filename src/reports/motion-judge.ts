/**
 * What the motion tracker reads from fixes around a silence (motion-silence.ts tells what it then
 * does): how long the unit stood in it at the speeds reported around it, whether it crawled, crept
 * off, rested, drove there and stood, or rolled to rest, and the tracker's own motion_state word.
 * Judgements only: nothing here changes the tracker's state.
 */
import { distKm, fartherThan, leaving, segmentKm, type Fix } from './fix.js';
import { odometerDelta, odometerKm } from './geo.js';
import { MotionCore } from './motion-core.js';
import { JITTER_RADII } from './move.js';
import type { Place } from './place.js';

/** How much longer than the straight line a road between two places may be (odometers count the road). */
const ROAD_DETOUR = 1.3;

/** How far a unit may roll on to its stop after its last report before a long silence, km (one sparse report's drive). */
export const ROLL_KM = 1;

/** How far a stand estimated across a silence may fall short of --min-stop and still count (speeds to 0.1, odometers to the metre), s. */
const STAND_SLACK_S = 10;

/** The judgements of fixes around a silence, on the tracker's state (motion-core.ts). */
export abstract class SilenceJudgements extends MotionCore {
  /**
   * Seconds of the silence from p to f the unit stood: the silence less the way at the speed driven
   * around it (f's, or p's when faster; from p driving to f not, the mean of the two: it slowed down).
   */
  protected stoodS(p: Fix, f: Fix): number {
    const kmh = p.going && !f.going ? (p.speed + f.speed) / 2 : Math.max(f.going ? f.speed : 0, p.going ? p.speed : 0);
    return kmh > 0 ? this.standAt(p, f, kmh) : 0;
  }

  /** Seconds of the silence from p to f left when the way between takes it at kmh. */
  protected standAt(p: Fix, f: Fix, kmh: number): number {
    return f.t - p.t - (segmentKm(p, f) * 3600) / kmh;
  }

  /** Whether a stand of s seconds, estimated across a silence, is one of --min-stop (STAND_SLACK_S short of it counts). */
  protected aStop(s: number): boolean {
    return s + STAND_SLACK_S >= this.params.minStopDurationS;
  }

  /**
   * Whether the unit crawled from p to f: neither reports a speed over the threshold, one reports
   * a speed at which the way between takes the silence but less than --min-stop of it, at no more
   * than twice that speed on average (slow traffic reported every few minutes, not a parked fix's
   * noise before a drive): it did not stand in the silence, though no fix says it drove.
   */
  protected crawled(p: Fix, f: Fix): boolean {
    const kmh = Math.max(p.speed, f.speed);
    const dt = f.t - p.t;
    if (!(kmh > 0) || kmh > this.params.speedThreshold || !(dt > 0)) return false;
    const km = segmentKm(p, f);
    return !this.aStop(dt - (km * 3600) / kmh) && (km * 3600) / dt <= 2 * kmh;
  }

  /** Whether the unit stood for --min-stop or more of the silence from p to f (stoodS). */
  protected stoodAStop(p: Fix, f: Fix): boolean {
    return this.aStop(this.stoodS(p, f));
  }

  /**
   * f, not driving, creeps on from p's place after a silence (slow traffic, and an ignition-powered
   * tracker's first fix): it reads a speed (under the threshold, not zero) whose way from p leaves
   * --min-stop of the silence. A unit that drove off in the silence and parked at f is farther than
   * a parked fix's noisy speed goes in it.
   */
  protected creptOff(p: Fix, f: Fix): boolean {
    return !f.going && f.speed > 0 && this.aStop(this.standAt(p, f, f.speed));
  }

  /**
   * Whether the unit, last seen at p, spent the silence until f at rest near f: long enough for
   * a stop, f not driving, and neither p's speed nor the odometer says it went far in between
   * (a logger that sleeps from the moment it parks: its last report still shows a driving speed;
   * driving at p, a road up to ROAD_DETOUR times the straight line), nor did it crawl the way
   * (crawled). Never when f is the tracker's own 'stopped' report: it says the unit stopped then.
   */
  protected restedBefore(p: Fix, f: Fix): boolean {
    if (f.t - p.t < this.params.minStopDurationS || f.speed > this.params.speedThreshold || this.isHalt(f) || leaving(p, f) || this.crawled(p, f)) return false;
    // driving at p: the way at its slowing speed must leave --min-stop of the silence (else it drove all of it)
    if (p.going && !this.stoodAStop(p, f)) return false;
    // at rest at p, creeping off from p's place: it stood there, not near f (driving at p, it stood nowhere before f)
    if (!p.going && fartherThan(p, f, this.radiusKm) && this.creptOff(p, f)) return false;
    const straight = distKm(p, f);
    const odo = odometerKm(p.r, f.r, straight);
    // driving at p, the odometer may count a road's length (the way's time at that length was allowed for above)
    if (odo !== undefined) return odo <= (p.going ? straight * ROAD_DETOUR : straight) + this.radiusKm;
    // Without an odometer, a silence longer than --max-gap proves nothing beyond the last stretch rolled to a stop.
    return f.t - p.t <= this.params.maxGapS || straight <= ROLL_KM;
  }

  /**
   * Before the tracker's 'moving' report: the unit, driving at p, is at rest at f after a silence
   * in which its odometer counts a road's length between them (no more than ROAD_DETOUR times the
   * straight line), and the way at p's speed leaves --min-stop of the silence: it drove there,
   * then stood (its 'stopped' report lost in the silence).
   */
  protected droveThenStood(p: Fix, f: Fix): boolean {
    if (!p.going || f.speed > this.params.speedThreshold) return false;
    const straight = distKm(p, f);
    const odo = odometerKm(p.r, f.r, straight);
    return odo !== undefined && odo <= straight * ROAD_DETOUR + this.radiusKm && this.stoodAStop(p, f);
  }

  /**
   * Driving at p, and at f, a short roll on (ROLL_KM at most, the odometer no more than a road's
   * length), after a silence the way at p's speed takes a small part of (--min-stop left): the
   * unit came to rest at f's place and stood there; f's speed is the noise of a parked fix. So the
   * roll went at p's speed (or slower, as it came to rest), not at f's: a unit crawling at p whose
   * way to f takes the silence at p's speed drove it, however fast f says it drives now.
   */
  protected rolledToRest(p: Fix, f: Fix): boolean {
    if (!p.going || !f.going || f.t - p.t < this.params.minStopDurationS) return false;
    const straight = distKm(p, f);
    if (straight > ROLL_KM) return false;
    const odo = odometerKm(p.r, f.r, straight);
    if (odo !== undefined && odo > straight * ROAD_DETOUR + this.radiusKm) return false;
    return this.aStop(this.standAt(p, f, p.speed));
  }

  /**
   * Driving into a silence and driving after it within the stop radius of where it fell silent,
   * the odometer counting more than a road's length between the two (ROAD_DETOUR times the
   * straight line, and the radius): the unit went elsewhere and came back (what it did there the
   * reports do not show), it did not stand the silence here.
   */
  protected wentAndCameBack(p: Fix, f: Fix): boolean {
    if (!p.going || !f.going || fartherThan(p, f, this.radiusKm)) return false;
    const straight = distKm(p, f);
    const odo = odometerKm(p.r, f.r, straight);
    return odo !== undefined && odo > straight * ROAD_DETOUR + this.radiusKm;
  }

  /**
   * Whether the way from p to f at the speed f reads leaves less than --min-stop of the silence
   * between: f's speed, if it is no parked fix's noise, is slow traffic the unit drove all of it in
   * (and only the fix after f tells which).
   */
  protected slowAfter(p: Fix, f: Fix): boolean {
    return f.speed > 0 && !this.aStop(this.standAt(p, f, f.speed));
  }

  /** The tracker's own motion_state 'moving' report (it had stopped and sets off). */
  protected isSetOff(f: Fix): boolean {
    const p = f.r.properties;
    return this.params.useMotionState && p.reportType === 'motion_state' && p.reportValue === 'moving';
  }

  /** The tracker's own motion_state 'stopped' report. */
  protected isHalt(f: Fix): boolean {
    const p = f.r.properties;
    return this.params.useMotionState && p.reportType === 'motion_state' && p.reportValue === 'stopped';
  }

  /** The index of the candidate's last motion_state 'stopped' fix before `end` whose followers up to `end` stay within the radius of it, or -1. */
  protected haltIndex(end: number): number {
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
   * After a silence at a stop, its first fix `first` elsewhere read a driving speed (depart: the
   * unit set off late in the silence, the move from `first`), and the next fix f is the tracker's
   * own 'moving' report at first's place, the odometer still between them: the tracker says the unit
   * had stopped, and nothing moved; first's speed was a parked fix's noise. Whether f shows that.
   */
  protected parkedNoise(first: Fix, f: Fix): boolean {
    if (!this.isSetOff(f) || f.t <= first.t || fartherThan(first, f, this.radiusKm)) return false;
    const moved = odometerDelta(first.r, f.r);
    return moved === undefined || Math.abs(moved) <= this.radiusKm;
  }

  /**
   * Whether f, beyond the stop radius of `place`, still lies within parked jitter of it (JITTER_RADII
   * radii of its centre) with the odometer counting nothing (no more than the radius) since the
   * place's last report: both carry one, so the odometer shows the unit never moved.
   */
  protected stillAt(place: Place, f: Fix): boolean {
    const moved = odometerDelta(place.last.r, f.r);
    return moved !== undefined && Math.abs(moved) <= this.radiusKm && !fartherThan(place.confirmed ? place.centre : place.first, f, JITTER_RADII * this.radiusKm);
  }
}
