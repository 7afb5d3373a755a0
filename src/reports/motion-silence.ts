/**
 * The motion tracker's rules for silences and for the tracker's own motion_state word (see
 * motion.ts for the whole set):
 * - A silence spent at rest (a logger asleep from the moment it parks: its last report still
 *   shows a driving speed, the next one is near and not driving, and the odometer, when
 *   present, counts no more than the way between) ends the move at the last report before it;
 *   a stop at once when the way at its slowing speed leaves --min-stop of the silence. Driving
 *   on both sides of a silence a short roll apart (ROLL_KM), the way taking a small part of it:
 *   it stood at the place after it (rolledToRest). Driving on both sides within the stop radius,
 *   the odometer counting more than a road between them: the unit went elsewhere and came back, no
 *   stop here (wentAndCameBack).
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
 *   near; beyond the stop radius when the first fix there is its 'moving' report: the tracker
 *   says it stood at both places; or when the 'stopped' report is the last before the silence: no
 *   fix shows a roll on after it), ends the move at the 'stopped' report: the unit stood there
 *   (a stop when a later fix shows it there) and drove in the silence; 'stopped' on both sides,
 *   it stood until the way at the speed it came at ends at the second (a departure dated inside
 *   the silence; over maxGapS, the trip is inferred); 'stopped' before it and driving after it,
 *   until the way at the faster of the speed it came at and the speed after ends at the first fix
 *   after it, when that leaves --min-stop (the same estimate, a first fix's speed being a moment's). The
 *   reports ending after a 'stopped' report, its followers still there: the trip ended there,
 *   not cut.
 * - Every silence after which the unit is elsewhere, when it leaves a place: motion-depart.ts.
 */
import { crawledOn, creeps, distKm, fartherThan, type Fix } from './fix.js';
import { arrivalAt, Move } from './move.js';
import { lengthText } from './motion-core.js';
import { Place } from './place.js';
import { ROLL_KM, SilenceJudgements } from './motion-judge.js';
import type { Segment } from './segments.js';
import { formatSpan } from '../span.js';

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
    // it said 'stopped' and stayed, and its first fix after the silence is its 'moving' report beyond the stop radius: it
    // stood at the halt, however straight the odometer (and at f's place: the tracker's two words, depart shares the silence)
    if (s === f && halt >= 0 && fartherThan(q, f, this.radiusKm)) {
      this.haltedThenMoved(halt, f, out);
      return true;
    }
    // its first fix here is the tracker's own 'stopped' report: it arrived then (the move went on across the silence); the
    // move began at q, at rest, as the silence began (depart: creeping after it, the fixes after it tell): the way is the trip
    const departed = q === run.start && run.last === q && !q.going;
    const rested = !this.isHalt(s) && !departed && (this.restedBefore(q, s) || this.droveThenStood(q, s));
    if (rested || s !== f) {
      for (let i = 0; i < k; i++) run.add(c[i] as Fix);
      this.candidate = [...c.slice(k), f];
      this.restFrom = rested ? q : undefined;
      // driving at its last report before the silence, it arrived as long after it as the way takes at that speed (arrive)
      const since = !rested ? 'by its first fix here' : q.going && q.speed > 0 ? `where the way from its last report before the silence, at the ${q.speed} km/h that report read, ended` : 'from its last report before the silence';
      this.tell('gap', q, s, distKm(q, s), null, `silent ${formatSpan(s.t - q.t)}, then motion_state moving here: the unit had stopped ${since}`);
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
    this.tell('gap', q, f, distKm(q, f), null, `silent ${formatSpan(f.t - q.t)}, then motion_state moving ${lengthText(distKm(q, f))} away: the move ended in the silence, where the unit set off again`);
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
    this.tell('gap', last, f, distKm(last, f), null, `motion_state stopped, then silent ${formatSpan(f.t - last.t)} and ${lengthText(distKm(last, f))} away: the move ended at the stopped report`);
    this.endMove(undefined, false, out);
    const place = new Place(c[halt] as Fix, c.length > halt + 1, false);
    if (before.going) place.cameAtKmh = before.speed;
    for (let i = halt + 1; i < c.length; i++) place.add(c[i] as Fix);
    this.place = place;
    this.step(f, out);
  }

  /** arrive(), the candidate's first fix the first after a silence since restFrom the unit spent at rest there: --explain tells that story. */
  protected arriveAfterSilence(out: Segment[]): void {
    const rest = this.restFrom as Fix;
    const f = this.candidate[0] as Fix;
    if (this.explain) {
      this.tellSilence(rest, f, rest.going && rest.speed > 0
        ? `driving before it (${rest.speed} km/h) and at rest after it: the way at that speed takes ${formatSpan(arrivalAt(rest, f) - rest.t)} of it, and the unit stood the rest where the first fix after it is (a stop from then)`
        : 'at rest after it, and no speed dates the way: the unit went there as the silence began and stood (a stop from the last report before it)');
    }
    this.arrive(out);
  }

  /**
   * A fix f after a silence of --min-stop or more since p (the candidate's last fix, or the move's), or
   * the tracker's own 'moving' report: the stories of this file that may end the move or
   * begin a stop; true when one took f.
   */
  protected silenceRules(p: Fix, f: Fix, out: Segment[]): boolean {
    if (this.isSetOff(f) && this.setOffAfterSilence(f, out)) return true;
    const c = this.candidate;
    const run = this.run as Move;
    if (this.wentAndCameBack(p, f)) {
      // no stop here for the silence: the candidate's fixes are the move's, and a new candidate starts at f
      this.tellSilence(p, f, `by the odometer, driving before it (${p.speed} km/h) and after it (${f.speed} km/h), the reports around it ${Math.round(distKm(p, f) * 1000)} m apart: the unit went elsewhere and came back, the move went on across it`);
      for (const x of c) run.add(x);
      this.candidate = [f];
      this.restFrom = undefined;
      return true;
    }
    const first = c[0];
    const halt = f.t - p.t >= this.params.minStopDurationS ? this.haltIndex(c.length) : -1;
    // the tracker said 'stopped' and stayed: it stood there, unless, after fixes past that report, it rolled on a little and
    // rested near f (not when f says 'stopped' again, which restedBefore never takes: the tracker says that only after it
    // moved; nor when the 'stopped' report is the last before the silence: no fix shows a roll after it)
    if (halt >= 0 && fartherThan(c[halt] as Fix, f, this.radiusKm) && !(c[halt] !== p && this.restedBefore(p, f) && !fartherThan(p, f, ROLL_KM))) {
      this.haltedThenMoved(halt, f, out);
      return true;
    }
    if (first && this.cameToRest(p, f, out)) return true;
    const away = first !== undefined && fartherThan(first, f, this.radiusKm);
    const rolled = away && this.rolledToRest(p, f);
    // At rest at p and at its place at f (the candidate's first fix, still driving, was what lay beyond the radius): the
    // candidate is re-anchored below, and the stop begins where the unit came to rest among its fixes (p at the latest).
    if (rolled || (away && (p.going || fartherThan(p, f, this.radiusKm)) && this.restedBefore(p, f))) {
      for (const x of c) run.add(x);
      this.candidate = [f];
      this.restFrom = p;
      // driving at p, and the way to f at its speed leaves --min-stop of the silence: a stop at f's place since p
      // (when f creeps, or reads a speed the way at which fills the silence, once the next fix says it is no crawl: restPending)
      if ((rolled || this.stoodAStop(p, f)) && !this.restPending()) this.arriveAfterSilence(out);
      return true;
    }
    return false;
  }

  /**
   * Whether the stop since restFrom (a unit driving into a silence, then at rest near its first
   * fix after it) waits for the next fix: that first fix creeps, or reads a driving speed at which
   * the way from restFrom fills the silence (slowAfter), and only the next one tells parked noise
   * (a stop since restFrom) from slow traffic (wentOnAt: the move went on).
   */
  protected restPending(): boolean {
    const c = this.candidate;
    const rest = this.restFrom;
    const f = c[0] as Fix;
    return rest?.going === true && c.length === 1 && (creeps(f) || (f.going && this.slowAfter(rest, f)));
  }
}
