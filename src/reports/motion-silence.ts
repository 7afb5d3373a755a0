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
import { crawledOn, distKm, fartherThan, fixAt, leaving, type Fix } from './fix.js';
import { Move } from './move.js';
import { Place } from './place.js';
import { ROLL_KM, SilenceJudgements } from './motion-judge.js';
import type { Segment } from './segments.js';

/** The silence rules of the tracker, on its judgements of fixes (motion-judge.ts); motion.ts feeds them reports. */
export abstract class SilenceRules extends SilenceJudgements {
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
      // as long before as the way takes at the speed it drove here; the stand fills the rest. Stopped
      // here and setting off there (f, its 'moving' report): it stood at both places, and nothing tells
      // how long at each; the way takes its part of the silence, the two stands share the rest alike.
      const stand = place.cameAtKmh > 0 && (this.isHalt(f) || this.isSetOff(f)) ? this.standAt(place.last, f, place.cameAtKmh) : 0;
      const shared = stand > 0 && this.isSetOff(f);
      const left = stand > 0 ? Math.round(place.last.t + (shared ? stand / 2 : stand)) : 0;
      const from = left > place.last.t ? fixAt(place.last, left) : place.last;
      // where the way ends: at f, or (shared) the stand there before its 'moving' report
      const at = shared && left > place.last.t ? fixAt(f, Math.round(f.t - stand / 2)) : f;
      if (!place.confirmed && this.aStop(from.t - place.arrival.t)) place.confirmed = true;
      const creeps = !parked && !f.going && f.speed > 0 && !this.ending;
      this.tellSilence(place.last, f, at !== f
        ? `motion_state stopped before it and moving after it: it stood at both places; the way at ${place.cameAtKmh} km/h, the speed it came at, takes ${Math.round(f.t - place.last.t - stand)} s of it, the two stands share the rest (about ${Math.round(stand / 2)} s each)`
        : from !== place.last
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
      run.add(at);
      this.candidate = [];
      // the last fix of the stream, alone elsewhere: whether the unit arrived there or the fix jumped is not decided
      this.endMove(undefined, this.ending && at === f, out);
      if (at === f) {
        this.place = new Place(f, false, false, f, place.last.t);
        return;
      }
      const there = new Place(at, this.aStop(f.t - at.t), false, at, at.t);
      there.setOff = undefined; // at is where it came to rest: f, its 'moving' report, is the set-off
      there.add(f);
      this.place = there;
      return;
    }
    // Driving (or creeping) after a silence here: it stood until it set off in the silence (its first fix
    // came late), unless the way to f at the speed it drives took the silence (it left at its last report).
    let drove = false;
    /** Set off late in the silence by f's driving speed alone: when the way to f at it began (it stood until then). */
    let setOffAt = 0;
    let lateStory = '';
    if (silent >= this.params.minStopDurationS) {
      // Said 'stopped' here (cameAtKmh), driving after the silence: the tracker's word that it stood; as when it says 'stopped'
      // on both sides, it stood until the way at the speed it came at (or f's, when faster) ends at f: a departure dated in
      // the silence (f's speed is a moment's: a first fix that reads a slow one may have come at the end of the way).
      const kmh = place.cameAtKmh > 0 && f.going ? Math.max(place.cameAtKmh, f.speed) : 0;
      const stood = crept || kmh > 0 ? this.standAt(place.last, f, crept ? f.speed : kmh) : this.stoodS(place.last, f);
      drove = !this.aStop(stood);
      if (!drove && !place.confirmed && this.aStop(place.last.t - place.arrival.t + stood)) place.confirmed = true;
      if (!drove && kmh === 0 && f.going && !crept && !this.isSetOff(f) && place.setOff === undefined) setOffAt = Math.round(f.t - silent + stood);
      const story = drove
        ? `${f.going ? `driving after it, and the way at ${f.speed}` : `crawling across it, and the way at ${Math.max(place.last.speed, f.speed)}`} km/h takes most of it: the unit left at the last report before it`
        : kmh > 0
          ? `motion_state stopped before it and driving after it: it stood here about ${Math.round(stood)} s more (the way at ${kmh} km/h, the faster of the speed it came at and the speed after, ends at the first fix after it), then drove`
          : `driving after it, and the way at ${f.speed} km/h takes ${silent - Math.round(stood)} s of it: the unit stood here about ${Math.round(stood)} s more and set off in the silence (its first fix came late); the trip from ${setOffAt > 0 ? 'then' : 'the first fix after it'}`;
      // set off late by f's speed alone: the next fix may show that speed to be a parked fix's noise, a story of its own
      // (noiseAfterSilence), so this one is told once the next fix says it is not (step)
      if (setOffAt > 0) lateStory = story;
      else this.tellSilence(place.last, f, story);
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
    else if (leaving(place.last, f)) place.onItsWay();
    else place.leaving.length = 0;
    const on = place.leaving;
    const late = setOffAt > 0; // (no fix here was on its way out: the silence reset them)
    const from = place.setOff ?? on[0] ?? (late ? fixAt(place.last, setOffAt) : (f.going || crept) && !drove ? f : place.last);
    place.departure = from;
    this.place = undefined;
    // the tracker's own 'moving' report dates the start even at the edge of the reports
    const partial = place.edge && from === place.first && !this.isSetOff(from);
    if (place.confirmed) this.left = place;
    else if (!partial) this.tell('edge', place.first, from, null, place.centre, `stood ${from.t - place.first.t} s ${place.edge ? 'at the edge of the reports' : 'after a silence'}: under --min-stop ${this.params.minStopDurationS} s, not a stop`);
    const run = new Move(from, this.clock, this.keepPath, place.confirmed ? place.centre : undefined, this.radiusKm, from === f ? place.last : undefined);
    for (const x of on) if (x.t > from.t) run.add(x);
    if (from !== f && from !== place.last && !late) run.add(place.last);
    // a departure dated inside the silence is an estimate: no report shows any of the move, which the whole silence bounds
    if (late) run.silence = silent;
    this.run = run;
    this.runPartial = partial;
    this.candidate = [f];
    // set off late in the silence, by f's driving speed alone: the next fix may show that speed to be a parked fix's noise
    if (late) this.lateStart = { place, confirmed, first: f, story: lateStory };
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
