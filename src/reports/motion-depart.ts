/**
 * The motion tracker's departures (see motion.ts for the whole set): how the unit left a place,
 * and every silence after which it is elsewhere, explained whatever its length by what could
 * have happened in it: the way between the reports around it (the odometer's or the straight
 * line) against its length.
 * - At rest before it and not driving after it: it drove in the silence, a trip from the last
 *   report before it to the first after it (creeping there, a speed under the threshold, the
 *   fixes after it tell where it ends). The tracker's 'stopped' on both sides (or its 'stopped',
 *   then a first fix creeping in slow traffic): it stood until the way at the speed it came at
 *   ends at the second (a departure dated inside the silence); its 'stopped' before and 'moving'
 *   after: it stood at both places, the way at that speed takes its part, the two stands share
 *   the rest alike (a stop on each side of the trip).
 * - At rest before it and driving after it: the way at the speed it drives takes part of the
 *   silence; when the rest leaves --min-stop, it stood where it was until it set off in the
 *   silence, as long before the first fix after it as the way takes (an ignition-powered tracker
 *   whose first fix comes minutes after it drove off: a stop even with a single report there; but
 *   when the next fix is the tracker's 'moving' report at that fix's place, the odometer still,
 *   that speed was a parked fix's noise: the unit drove in the silence and stood there, the one
 *   story told), else it left at its last report. Not when its last report creeps on from the one
 *   before as far as its speed says (slow traffic, no report at rest: the move goes on across
 *   it). A first fix creeping in slow traffic (a speed under the threshold, not zero) is driving
 *   here when the way at its speed leaves --min-stop of the silence.
 * - Moving before it: the move goes on across it (or it rested: motion-silence.ts; not when its
 *   first fix after it creeps on as far as its speed says, to the next: slow traffic, no report at
 *   rest, so no stop the reports show, motion.ts). Crawling across it (slow traffic reported
 *   every few minutes: a speed under the threshold at which the way takes the silence): it stood
 *   neither before it nor after it, however long the silence.
 * A move that crossed a silence longer than maxGapS in which the unit moved is inferred: no
 * report shows that part of it, the reports around the silence bound it.
 */
import { distKm, fixAt, leaving, type Fix } from './fix.js';
import { Move } from './move.js';
import { Place } from './place.js';
import { SilenceRules } from './motion-silence.js';
import type { Segment } from './segments.js';
import { formatSpan } from '../span.js';

/** The departures of the tracker, on its silence rules (motion-silence.ts); motion.ts feeds them reports. */
export abstract class DepartureRules extends SilenceRules {
  /**
   * The unit left `place` with fix f. `parked`: f, after a silence, is known to be at rest whatever
   * speed it reads (noiseAfterSilence: the fix after it showed that speed to be a parked fix's noise).
   */
  protected depart(place: Place, f: Fix, out: Segment[], parked = false): void {
    const silent = f.t - place.last.t;
    // The stream's first fix, alone, read a driving speed, and a silence followed: the unit was on its way there (a move
    // the start of the reports cut), not standing; the move's silence rules read the silence (driving into it).
    if (place.edge && place.last === place.first && place.first.going && !this.isSetOff(place.first) && !parked && silent >= this.params.minStopDurationS) {
      this.place = undefined;
      this.run = new Move(place.first, this.clock, this.keepPath, undefined, this.radiusKm);
      this.runPartial = true;
      this.candidate = [place.first];
      return this.step(f, out);
    }
    // At rest at f by the fix after it, the odometer still since the last report here, no farther than parked jitter goes:
    // the unit never left, f's place is a parked fix's noise (no move of 0 km made a trip by its silence's length).
    if (parked && this.stillAt(place, f)) {
      place.add(f);
      return;
    }
    const confirmed = place.confirmed;
    const crept = !parked && silent >= this.params.minStopDurationS && this.creptOff(place.last, f);
    // Not when it crawled to f (slow traffic): it did not stand, and left at its last report here as a driving unit does (below);
    // unless the tracker said 'stopped' here and the way at the speed it came at leaves --min-stop of the silence: it stood.
    const saidStopped = place.cameAtKmh > 0 && !f.going && f.speed > 0 && this.aStop(this.standAt(place.last, f, place.cameAtKmh));
    if (silent >= this.params.minStopDurationS && (parked || (!(f.speed > this.params.speedThreshold) && !crept && (saidStopped || !this.crawled(place.last, f))))) {
      // Silent since it stood here, and now elsewhere, not driving (at rest, or just setting off):
      // it drove in the silence (a trip from the last report here to f) and stood at f's place before f.
      // Stopped here and stopped there by the tracker's own word: it arrived there at f, and left here
      // as long before as the way takes at the speed it drove here; the stand fills the rest. Stopped
      // here and setting off there (f, its 'moving' report): it stood at both places, and nothing tells
      // how long at each; the way takes its part of the silence, the two stands share the rest alike.
      const creeps = !parked && !f.going && f.speed > 0 && !this.ending;
      // (creeping after it, in slow traffic: it got there driving, as when it says 'stopped' there)
      const stand = place.cameAtKmh > 0 && (this.isHalt(f) || this.isSetOff(f) || creeps) ? this.standAt(place.last, f, place.cameAtKmh) : 0;
      const shared = stand > 0 && this.isSetOff(f);
      const left = stand > 0 ? Math.round(place.last.t + (shared ? stand / 2 : stand)) : 0;
      const from = left > place.last.t ? fixAt(place.last, left) : place.last;
      // where the way ends: at f, or (shared) the stand there before its 'moving' report
      const at = shared && left > place.last.t ? fixAt(f, Math.round(f.t - stand / 2)) : f;
      if (!place.confirmed && this.aStop(from.t - place.arrival.t)) place.confirmed = true;
      this.tellSilence(place.last, f, at !== f
        ? `motion_state stopped before it and moving after it: it stood at both places; the way at ${place.cameAtKmh} km/h, the speed it came at, takes ${formatSpan(f.t - place.last.t - stand)} of it, the two stands share the rest (about ${formatSpan(stand / 2)} each)`
        : from !== place.last
        ? `motion_state stopped ${creeps ? `before it, creeping after it (${f.speed} km/h)` : 'on both sides'}: it stood here about ${formatSpan(from.t - place.last.t)} more (the way at ${place.cameAtKmh} km/h, the speed it came at, ends at the ${creeps ? 'first fix' : 'stopped report'} after it), then drove`
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
          ? `motion_state stopped before it and driving after it: it stood here about ${formatSpan(stood)} more (the way at ${kmh} km/h, the faster of the speed it came at and the speed after, ends at the first fix after it), then drove`
          : `driving after it, and the way at ${f.speed} km/h takes ${formatSpan(silent - stood)} of it: the unit stood here about ${formatSpan(stood)} more and set off in the silence (its first fix came late); the trip from ${setOffAt > 0 ? 'then' : 'the first fix after it'}`;
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
    else if (!partial) this.tell('edge', place.first, from, null, place.centre, `stood ${formatSpan(from.t - place.first.t)} ${place.edge ? 'at the edge of the reports' : 'after a silence'}: under --min-stop ${formatSpan(this.params.minStopDurationS)}, not a stop`);
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
