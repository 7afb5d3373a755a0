/**
 * The motion tracker's rules for silences and for the tracker's own motion_state word (see
 * motion.ts for the whole set):
 * - A silence spent at rest (a logger asleep from the moment it parks: its last report still
 *   shows a driving speed, the next one is near and not driving, and the odometer, when
 *   present, counts no more than the way between) ends the move at the last report before it;
 *   a stop at once when the way at its slowing speed leaves --min-stop of the silence. Driving
 *   on both sides of a silence a short roll apart (ROLL_KM), the way taking a small part of it:
 *   it stood at the place after it (rolledToRest).
 * - The tracker's own word across a silence (its 'stopped' or 'moving' report was made, the
 *   other lost): a motion_state 'moving' report after a silence of at least minStopDurationS
 *   before the unit's fixes at its place says it stood there: a stop from the last report
 *   before the silence (when it rested all along, or drove there and stood: the odometer a
 *   road's length, the way at its speed leaving --min-stop; not when its first fix there is its
 *   'stopped' report: it arrived then) or from its first fix there, until the 'moving' report;
 *   crawling there (slow traffic, no fix at rest), then silent for minStopDurationS or more
 *   before that report: a stop from its last fix before the silence; with no fix there but that
 *   report, the move ends at it and the next begins there. A 'stopped' report whose followers
 *   stay at its place, then a silence of at least minStopDurationS after which the unit is
 *   elsewhere (beyond ROLL_KM, however straight the odometer, or saying 'stopped' again, however
 *   near), ends the move at the 'stopped' report: the unit stood there (a stop when a later fix
 *   shows it there) and drove in the silence; 'stopped' on both sides, it stood until the way at
 *   the speed it came at ends at the second (a departure dated inside the silence; over
 *   maxGapS, the trip is inferred); 'stopped' before it and driving after it, until the way at
 *   the faster of the speed it came at and the speed after ends at the first fix after it, when
 *   that leaves --min-stop (the same estimate, a first fix's speed being a moment's). The
 *   reports ending after a 'stopped' report, its followers still there: the trip ended there,
 *   not cut.
 * - Every silence after which the unit is elsewhere (beyond stopRadiusM) is explained, whatever
 *   its length, by what could have happened in it: the way between the reports around it (the
 *   odometer's or the straight line) against its length. At rest before it and not driving
 *   after it: it drove in the silence, a trip from the last report before it to the first after
 *   it (creeping there, a speed under the threshold, the fixes after it tell where it ends). At
 *   rest before it and driving after it: the way at the speed it drives takes part of the silence; when the rest leaves --min-stop, it stood where it was until it set off in the
 *   silence (an ignition-powered tracker whose first fix comes minutes after it drove off: a
 *   stop until that fix, even with a single report there; but when the next fix is the tracker's
 *   'moving' report at that fix's place, the odometer still, that speed was a parked fix's noise:
 *   the unit drove in the silence and stood there, told so after the first story), else it left
 *   at its last report; not
 *   when its last report creeps on from the one before as far as its speed says (slow traffic,
 *   no report at rest: the move goes on across it). A
 *   first fix creeping in slow traffic (a speed under the threshold, not zero) is driving here
 *   when the way at its speed leaves --min-stop of the silence.
 *   Moving before it: the move goes on across it (or it rested, above; not when its first fix
 *   after it creeps on as far as its speed says, to the next: slow traffic, no report at rest, so
 *   no stop the reports show, motion.ts). Crawling across it (slow
 *   traffic reported every few minutes: a speed under the threshold at which the way takes the
 *   silence): it stood neither before it nor after it, however long the silence. A move that
 *   crossed a silence longer than maxGapS in which the unit moved is inferred: no report shows
 *   that part of it, the reports around the silence bound it.
 */
import { crawledOn, distKm, fartherThan, fixAt, leaving, segmentKm, type Fix } from './fix.js';
import { odometerKm } from './geo.js';
import { Move } from './move.js';
import { Place } from './place.js';
import { MotionCore } from './motion-core.js';
import type { Segment } from './segments.js';

/** How much longer than the straight line a road between two places may be (odometers count the road). */
const ROAD_DETOUR = 1.3;

/** How far a unit may roll on to its stop after its last report before a long silence, km (one sparse report's drive). */
export const ROLL_KM = 1;

/** How far a stand estimated across a silence may fall short of --min-stop and still count (speeds to 0.1, odometers to the metre), s. */
const STAND_SLACK_S = 10;

/** The silence rules of the tracker, on its state (motion-core.ts); motion.ts feeds them reports. */
export abstract class SilenceRules extends MotionCore {
  /**
   * The candidate's last fix p is at rest, then a silence of --min-stop or more, and f drives
   * elsewhere: when the way from p to f at the speed f drives leaves --min-stop of the silence, the
   * unit came to rest at p's place and stood there until it set off in the silence (an
   * ignition-powered tracker whose first fix comes after it drove off). The stop begins at the
   * candidate's arrival there; f then departs from it. Not when p creeps on from the fix before it
   * as far as its speed says (crawledOn): slow traffic, no report shows the unit at rest before the
   * silence, so the move goes on across it (as it does when the first fix after a silence crawls on).
   */
  protected cameToRest(p: Fix, f: Fix, out: Segment[]): boolean {
    if (p.going || f.t - p.t < this.params.minStopDurationS || !fartherThan(p, f, this.radiusKm)) return false;
    if (f.going ? !this.stoodAStop(p, f) : !this.creptOff(p, f)) return false;
    const c = this.candidate;
    const before = c.length >= 2 ? (c[c.length - 2] as Fix) : (this.run as Move).last;
    if (crawledOn(before, p)) return false;
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

  /**
   * Seconds of the silence from p to f the unit stood: the silence less the way at the speed driven
   * around it (f's, or p's when faster; from p driving to f not, the mean of the two: it slowed down).
   */
  protected stoodS(p: Fix, f: Fix): number {
    const kmh = p.going && !f.going ? (p.speed + f.speed) / 2 : Math.max(f.going ? f.speed : 0, p.going ? p.speed : 0);
    if (!(kmh > 0)) return 0;
    return f.t - p.t - (segmentKm(p, f) * 3600) / kmh;
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
    return dt - (km * 3600) / kmh + STAND_SLACK_S < this.params.minStopDurationS && (km * 3600) / dt <= 2 * kmh;
  }

  /** Whether the unit stood for --min-stop or more of the silence from p to f (stoodS). */
  protected stoodAStop(p: Fix, f: Fix): boolean {
    return this.stoodS(p, f) + STAND_SLACK_S >= this.params.minStopDurationS;
  }

  /**
   * f, not driving, creeps on from p's place after a silence (slow traffic, and an ignition-powered
   * tracker's first fix): it reads a speed (under the threshold, not zero) whose way from p leaves
   * --min-stop of the silence. A unit that drove off in the silence and parked at f is farther than
   * a parked fix's noisy speed goes in it.
   */
  protected creptOff(p: Fix, f: Fix): boolean {
    return !f.going && f.speed > 0 && f.t - p.t - (segmentKm(p, f) * 3600) / f.speed + STAND_SLACK_S >= this.params.minStopDurationS;
  }

  /**
   * Whether the unit, last seen at p, spent the silence until f at rest near f: long enough for
   * a stop, f not driving, and neither p's speed nor the odometer says it went far in between
   * (a logger that sleeps from the moment it parks: its last report still shows a driving speed),
   * nor did it crawl the way (crawled).
   */
  protected restedBefore(p: Fix, f: Fix): boolean {
    if (f.t - p.t < this.params.minStopDurationS || f.speed > this.params.speedThreshold || leaving(p, f) || this.crawled(p, f)) return false;
    // driving at p: the way at its slowing speed must leave --min-stop of the silence (else it drove all of it)
    if (p.going && !this.stoodAStop(p, f)) return false;
    // creeping off from p's place: it stood there, not near f
    if (fartherThan(p, f, this.radiusKm) && this.creptOff(p, f)) return false;
    const straight = distKm(p, f);
    const odo = odometerKm(p.r, f.r, straight);
    if (odo !== undefined) return odo <= straight + this.radiusKm;
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
    return f.t - p.t - (segmentKm(p, f) * 3600) / p.speed + STAND_SLACK_S >= this.params.minStopDurationS;
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

  /**
   * A 'moving' report f during a move: the tracker says the unit had stopped (its 'stopped'
   * report was lost in a silence). When a silence of at least --min-stop comes before the unit's
   * fixes at f's place, it stood there: a stop from the last report before the silence (when it
   * rested all along, its first fix there not its 'stopped' report) or from its first fix there,
   * until f; when one comes right before f after fixes there that crawled on (none at rest, no
   * 'stopped'), a stop from the last of them. With no fix there but f, the move
   * ends at f and the next one starts there. Returns false when no such silence came before.
   */
  protected setOffAfterSilence(f: Fix, out: Segment[]): boolean {
    const c = this.candidate;
    const run = this.run as Move;
    let k = c.length;
    while (k > 0 && !fartherThan(c[k - 1] as Fix, f, this.radiusKm)) k--;
    let q = k > 0 ? (c[k - 1] as Fix) : run.last;
    let s = c[k] ?? f;
    if (s.t - q.t < this.params.minStopDurationS) {
      // No silence before its fixes here, but one right before f after a fix still on the move (it crawled here in
      // slow traffic: no fix shows it at rest, so no arrival in the candidate), and it stood through that silence.
      const last = c[c.length - 1];
      if (!last || !(last.speed > 0) || f.t - last.t < this.params.minStopDurationS) return false;
      if (this.haltIndex(c.length) >= 0 || this.arrivalIndex(c.slice(k)) >= 0) return false;
      if (!(this.restedBefore(last, f) || this.droveThenStood(last, f))) return false;
      k = c.length;
      q = last;
      s = f;
    }
    const halt = this.haltIndex(k);
    // it said 'stopped' and stayed, and is far on after the silence: it stood at the halt, however straight the odometer
    if (s === f && halt >= 0 && fartherThan(q, f, ROLL_KM)) {
      this.haltedThenMoved(halt, f, out);
      return true;
    }
    // its first fix here is the tracker's own 'stopped' report: it arrived then (the move went on across the silence)
    const rested = !this.isHalt(s) && (this.restedBefore(q, s) || this.droveThenStood(q, s));
    if (rested || s !== f) {
      for (let i = 0; i < k; i++) run.add(c[i] as Fix);
      this.candidate = [...c.slice(k), f];
      this.restFrom = rested ? q : undefined;
      this.tell('gap', q, s, distKm(q, s), null, `silent ${s.t - q.t} s, then motion_state moving here: the unit had stopped ${rested ? 'from its last report before the silence' : 'by its first fix here'}`);
      this.arrive(out);
      return true;
    }
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
   * The tracker said 'stopped' at candidate fix `halt`, stayed there (the fixes after it), fell
   * silent for --min-stop or more and is now elsewhere (f): the move ended at the halt, the unit
   * stood there (a stop when a fix after the halt shows it, else too short to tell) and left in
   * the silence; f is then taken as the first fix after a silence at that place.
   */
  protected haltedThenMoved(halt: number, f: Fix, out: Segment[]): void {
    const run = this.run as Move;
    const c = this.candidate;
    const before = halt > 0 ? (c[halt - 1] as Fix) : run.last;
    for (let i = 0; i <= halt; i++) run.add(c[i] as Fix);
    this.candidate = [];
    this.restFrom = undefined;
    const last = c[c.length - 1] as Fix;
    this.tell('gap', last, f, distKm(last, f), null, `motion_state stopped, then silent ${f.t - last.t} s and ${Math.round(distKm(last, f) * 1000)} m away: the move ended at the stopped report`);
    this.endMove(undefined, false, out);
    const place = new Place(c[halt] as Fix, c.length > halt + 1, false);
    if (before.going) place.cameAtKmh = before.speed;
    for (let i = halt + 1; i < c.length; i++) place.add(c[i] as Fix);
    this.place = place;
    this.step(f, out);
  }

  /**
   * The unit left `place` with fix f. `parked`: f, after a silence, is known to be at rest whatever
   * speed it reads (noiseAfterSilence: the fix after it showed that speed to be a parked fix's noise).
   */
  protected depart(place: Place, f: Fix, out: Segment[], parked = false): void {
    const silent = f.t - place.last.t;
    const confirmed = place.confirmed;
    const crept = !parked && silent >= this.params.minStopDurationS && this.creptOff(place.last, f);
    // Not when it crawled to f (slow traffic): it did not stand, and left at its last report here as a driving unit does (below).
    if (silent >= this.params.minStopDurationS && (parked || (!(f.speed > this.params.speedThreshold) && !crept && !this.crawled(place.last, f)))) {
      // Silent since it stood here, and now elsewhere, not driving (at rest, or just setting off):
      // it drove in the silence (a trip from the last report here to f) and stood at f's place before f.
      // Stopped here and stopped there by the tracker's own word: it arrived there at f, and left here
      // as long before as the way takes at the speed it drove here; the stand fills the rest.
      const left = place.cameAtKmh > 0 && this.isHalt(f) ? Math.round(f.t - (segmentKm(place.last, f) * 3600) / place.cameAtKmh) : 0;
      const from = left > place.last.t ? fixAt(place.last, left) : place.last;
      if (!place.confirmed && from.t - place.arrival.t + STAND_SLACK_S >= this.params.minStopDurationS) place.confirmed = true;
      const creeps = !parked && !f.going && f.speed > 0 && !this.ending;
      this.tellSilence(place.last, f, from !== place.last
        ? `motion_state stopped on both sides: it stood here about ${from.t - place.last.t} s more (the way at ${place.cameAtKmh} km/h, the speed it came at, ends at the stopped report after it), then drove`
        : creeps
          ? `at rest before it and creeping after it (${f.speed} km/h): it drove in the silence from the last report before it, on into slow traffic or to a stop there, as the fixes after it tell`
          : 'at rest before it and not driving after it: it drove in the silence, a trip from the last report before it to the first after it');
      place.departure = from;
      if (place.confirmed) this.left = place;
      const run = new Move(from, this.clock, this.keepPath, place.confirmed ? place.centre : undefined, this.radiusKm);
      // a departure dated inside the silence is an estimate: no report shows any of the move, which the whole silence bounds
      if (from !== place.last) run.silence = f.t - place.last.t;
      this.run = run;
      this.runPartial = false;
      if (creeps) {
        // f creeps (a speed under the threshold, not zero): slow traffic the unit drove into, or a parked fix's noise;
        // the fixes after it tell, as those of a move do (a stop at its place once they stay there --min-stop)
        this.candidate = [f];
        this.place = undefined;
        return;
      }
      run.add(f);
      this.candidate = [];
      // the last fix of the stream, alone elsewhere: whether the unit arrived there or the fix jumped is not decided
      this.endMove(undefined, this.ending, out);
      this.place = new Place(f, false, false, f, place.last.t);
      return;
    }
    // Driving (or creeping) after a silence here: it stood until it set off in the silence (its first fix
    // came late), unless the way to f at the speed it drives took the silence (it left at its last report).
    let drove = false;
    if (silent >= this.params.minStopDurationS) {
      // Said 'stopped' here (cameAtKmh), driving after the silence: the tracker's word that it stood; as when it says 'stopped'
      // on both sides, it stood until the way at the speed it came at (or f's, when faster) ends at f: a departure dated in
      // the silence (f's speed is a moment's: a first fix that reads a slow one may have come at the end of the way).
      const kmh = place.cameAtKmh > 0 && f.going ? Math.max(place.cameAtKmh, f.speed) : 0;
      const stood = crept ? silent - (segmentKm(place.last, f) * 3600) / f.speed : kmh > 0 ? silent - (segmentKm(place.last, f) * 3600) / kmh : this.stoodS(place.last, f);
      drove = stood + STAND_SLACK_S < this.params.minStopDurationS;
      if (!drove && !place.confirmed && place.last.t - place.arrival.t + stood + STAND_SLACK_S >= this.params.minStopDurationS) place.confirmed = true;
      this.tellSilence(place.last, f, drove
        ? `${f.going ? `driving after it, and the way at ${f.speed}` : `crawling across it, and the way at ${Math.max(place.last.speed, f.speed)}`} km/h takes most of it: the unit left at the last report before it`
        : kmh > 0
          ? `motion_state stopped before it and driving after it: it stood here about ${Math.round(stood)} s more (the way at ${kmh} km/h, the faster of the speed it came at and the speed after, ends at the first fix after it), then drove`
          : `driving after it, and the way at ${f.speed} km/h takes ${silent - Math.round(stood)} s of it: the unit stood here about ${Math.round(stood)} s more and set off in the silence (its first fix came late); the trip from the first fix after it`);
      if (kmh > 0 && !drove) {
        const from = fixAt(place.last, Math.round(f.t - silent + stood));
        place.departure = from;
        this.place = undefined;
        if (place.confirmed) this.left = place;
        const run = new Move(from, this.clock, this.keepPath, place.confirmed ? place.centre : undefined, this.radiusKm);
        // a departure dated inside the silence is an estimate: no report shows any of the move, which the whole silence bounds
        run.silence = silent;
        this.run = run;
        this.runPartial = false;
        this.candidate = [f];
        return;
      }
    }
    // The tracker says it set off from here, having come after a silence long enough for a stop: it stood here.
    if (!place.confirmed && !place.edge && place.setOff && place.setOff !== place.first && place.setOff.t - place.since >= this.params.minStopDurationS) place.confirmed = true;
    // Stood here through the silence: the fixes before it were not on their way out (it was still here after them), it set off in
    // the silence; so the departure is never a fix before the silence, at or before the arrival (a stop of no length).
    if (silent >= this.params.minStopDurationS && !drove) place.leaving.length = 0;
    else if (leaving(place.last, f)) place.leaving.push(place.last);
    else place.leaving.length = 0;
    const on = place.leaving;
    const from = place.setOff ?? on[0] ?? ((f.going || crept) && !drove ? f : place.last);
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
    // set off late in the silence, by f's driving speed alone: the next fix may show that speed to be a parked fix's noise
    if (silent >= this.params.minStopDurationS && !drove && from === f && f.going && !crept && !this.isSetOff(f)) this.lateStart = { place, confirmed };
  }

  /**
   * After a silence at a stop, its first fix `first` elsewhere read a driving speed (depart: the
   * unit set off late in the silence, the move from `first`), and the next fix f is the tracker's
   * own 'moving' report at first's place, the odometer still between them: the tracker says the unit
   * had stopped, and nothing moved; first's speed was a parked fix's noise. Whether f shows that.
   */
  protected parkedNoise(first: Fix, f: Fix): boolean {
    if (!this.isSetOff(f) || f.t <= first.t || fartherThan(first, f, this.radiusKm)) return false;
    const o1 = first.r.properties.odometer;
    const o2 = f.r.properties.odometer;
    return typeof o1 !== 'number' || typeof o2 !== 'number' || !Number.isFinite(o1) || !Number.isFinite(o2) || Math.abs(o2 - o1) <= this.radiusKm;
  }

  /**
   * parkedNoise(first, f) after depart took `first` as the start of a move (lateStart): the unit was
   * at rest at first, so it left `late.place` as a unit found at rest elsewhere after a silence does
   * (depart, parked: a trip in the silence from the last report there to first, a stop at first's
   * place since), and f, its 'moving' report there, comes after.
   */
  protected noiseAfterSilence(late: { place: Place; confirmed: boolean }, first: Fix, f: Fix, out: Segment[]): void {
    const place = late.place;
    if (this.left === place) this.left = undefined;
    place.confirmed = late.confirmed;
    place.departure = undefined;
    this.run = undefined;
    this.candidate = [];
    this.restFrom = undefined;
    this.place = place;
    this.tell('gap', first, f, distKm(first, f), null, `motion_state moving ${Math.round(distKm(first, f) * 1000)} m from the first fix after the silence before it, the odometer still: that fix's ${first.speed} km/h was a parked fix's noise, the unit stood there (not setting off late in the silence)`);
    this.depart(place, { ...first, moving: false, going: false }, out, true);
    this.step(f, out);
  }
}
