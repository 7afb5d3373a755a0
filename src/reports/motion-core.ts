/**
 * The motion tracker's state (motion.ts) and how it closes what it holds: a candidate that lasted
 * --min-stop becomes a stop (or parked jitter, and the stop it left goes on), a move ends as a
 * trip or a short move, a stop is emitted, and each is told to --explain.
 */
import type { DayClock } from './days.js';
import { distKm, fartherThan, leaving, segmentKm, type Fix } from './fix.js';
import { roundDegrees } from './geo.js';
import { JITTER_RADII, type Move } from './move.js';
import type { ReportParams } from './params.js';
import { Centre, Place } from './place.js';
import type { Explanation, Segment, TrackerOptions } from './segments.js';
import { formatSpan } from '../span.js';

/** The earlier of two dates, either unknown (a function, not a closure made at each call). */
function earlier(t: number | undefined, x: number | undefined): number | undefined {
  return x !== undefined && (t === undefined || x < t) ? x : t;
}

/** A distance as --explain tells it: metres under a kilometre, else kilometres to 0.1. */
export function lengthText(km: number): string {
  return km < 1 ? `${Math.round(km * 1000)} m` : `${km.toFixed(1)} km`;
}

/**
 * What the tracker of one unit holds between reports, and the steps that close segments; the
 * rules that read fixes are in motion-judge.ts, motion-silence.ts and motion.ts, built on this.
 */
export abstract class MotionCore {
  protected readonly params: ReportParams;
  protected readonly radiusKm: number;
  protected readonly clock: DayClock | undefined;
  protected readonly keepPath: boolean;
  protected readonly explain: ((e: Explanation) => void) | undefined;
  /** The latest motion_state value, once one was seen. */
  protected motion: boolean | undefined;
  /** The newest fix, held until the next one says whether it is an outlier. */
  protected held: Fix | undefined;
  /** The last fix passed on. */
  protected kept: Fix | undefined;
  /** A fix left out for its leg to the held one alone (the first fix, or jumpToNextOnly of fix.ts), until the next fix says which of the two jumped. */
  protected doubt: { fix: Fix; why: string } | undefined;
  /** Where the unit stands, when it is not moving. */
  protected place: Place | undefined;
  /** The move in progress, from the departure of `left`. */
  protected run: Move | undefined;
  /** The stop the move in progress left (emitted once the move is decided: it may have been jitter). */
  protected left: Place | undefined;
  /**
   * The fixes of the move not yet committed to it: they may be the start of a stop. Changed in
   * place by step() alone (pushed to, its front dropped: anchors.ts); elsewhere replaced by a new array.
   */
  protected candidate: Fix[] = [];
  /** The move in progress began at the stream's first fix (or the first after a gap): the unit was already moving. */
  protected runPartial = false;
  /** The candidate began after a silence the unit spent at rest: it arrived at this fix, the last before the silence. */
  protected restFrom: Fix | undefined;
  /**
   * The move in progress was begun by its first fix after a silence that the stop it left stood
   * through (depart: that fix, `first`, read a driving speed, so the unit set off late in the
   * silence, as long before it as the way takes at that speed): that stop, and whether it was
   * confirmed before depart, until the next fix says whether the speed was a parked fix's noise
   * (the tracker's 'moving' there, its odometer still: noiseAfterSilence). `story`: --explain's story of
   * that silence, told once the next fix says the speed was no noise (else noiseAfterSilence tells its own).
   */
  protected lateStart: { place: Place; confirmed: boolean; first: Fix; story: string } | undefined;
  /** finish() is stepping the stream's last fix. */
  protected ending = false;
  /** What push() completes, handed out as a new array only when it holds something (most reports complete nothing). */
  protected readonly out: Segment[] = [];

  constructor(params: ReportParams, options: TrackerOptions = {}) {
    this.params = params;
    this.radiusKm = params.stopRadiusM / 1000;
    this.clock = options.clock;
    this.keepPath = options.keepPath ?? false;
    this.explain = options.explain;
  }

  /** Date of the earliest fix whose segment is not decided yet: nothing after it is settled (the summary asks once a report while a day waits). */
  get unsettledSince(): number | undefined {
    const place = this.place;
    let t = earlier(earlier(this.held?.t, this.doubt?.fix.t), this.run?.start.t);
    // the fix held may be the end of a trip that began at the place's last fix (before a silence it drove in)
    if (this.held !== undefined) t = earlier(t, place?.last.t);
    t = earlier(t, this.candidate[0]?.t);
    t = earlier(t, place?.leaving[0]?.t);
    if (place && !place.confirmed) t = earlier(t, place.first.t);
    // a move begun late in a silence may yet be a trip from the last report before it (noiseAfterSilence)
    t = earlier(t, this.lateStart?.place.last.t);
    return t;
  }

  /** Takes the next fix kept (not an outlier) in date order. */
  protected abstract step(f: Fix, out: Segment[]): void;

  /** The first fix of the candidate at which the unit had come to rest (its last but one at most), or -1. */
  protected arrivalIndex(c: Fix[]): number {
    for (let k = 0; k + 1 < c.length; k++) if (!leaving(c[k] as Fix, c[k + 1] as Fix)) return k;
    return -1;
  }

  /** The candidate lasted --min-stop: the move ends at its arrival, and a stop begins there. */
  protected arrive(out: Segment[]): void {
    const c = this.candidate;
    const run = this.run as Move;
    const rest = this.restFrom;
    this.restFrom = undefined;
    const k = rest ? 0 : Math.max(0, this.arrivalIndex(c));
    let arrival = rest;
    if (rest) arrival = run.driveInto(c[0] as Fix);
    else {
      for (let i = 0; i <= k; i++) run.add(c[i] as Fix, i === k);
      // still driving at its arrival fix (the next one covers far less than its speed says): it rolled on to the next one's place
      const next = c[k + 1];
      if (next && (c[k] as Fix).going) run.hop(next);
    }
    const stop = new Place(c[k] as Fix, true, false, arrival);
    for (let i = k + 1; i < c.length; i++) stop.add(c[i] as Fix);
    this.candidate = [];
    const left = this.left;
    const r = this.radiusKm;
    // (no jitter when the tracker said 'stopped' at the new stop, beyond the radius of its last 'stopped' at the one it left)
    let stoppedAgain = false;
    for (let i = k; left && i < c.length && !stoppedAgain; i++) stoppedAgain = this.haltedAgain(left, c[i] as Fix);
    if (left && !rest && distKm(left.centre, stop.centre) <= r && (run.maxAwayKm <= JITTER_RADII * r || run.awayFixes <= 1) && !stoppedAgain) {
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

  /** Whether x is the tracker's 'stopped' report beyond the radius of its last 'stopped' at `place`: it says so only after the unit moved. */
  protected haltedAgain(place: Place, x: Fix): boolean {
    const halt = place.halt;
    const p = x.r.properties;
    return halt !== undefined && this.params.useMotionState && p.reportType === 'motion_state' && p.reportValue === 'stopped' && fartherThan(halt, x, this.radiusKm);
  }

  /** The move in progress ends (at run.last): the stop it left, then the move; `next` is the stop it reached, if any. */
  protected endMove(next: Place | undefined, cut: boolean, out: Segment[]): void {
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
      const size = `${km.toFixed(3)} km in ${formatSpan(duration)}`;
      const why = trip
        ? `${size}: a trip (${km >= p.minTripDistanceKm ? `at least --min-trip-distance ${p.minTripDistanceKm} km` : `at least --min-trip-duration ${formatSpan(p.minTripDurationS)}`})`
        : `${size}: a short move, not a trip (under --min-trip-distance ${p.minTripDistanceKm} km and --min-trip-duration ${formatSpan(p.minTripDurationS)}); its distance counts in the summary`;
      const edges = partial ? `; cut by ${cut ? 'the end of the reports' : 'the start of the reports'}` : '';
      const inferred = run.silence > p.maxGapS ? `; inferred: it crossed a silence of ${formatSpan(run.silence)} (over --max-gap ${formatSpan(p.maxGapS)}) in which it moved` : '';
      this.tell(trip ? 'trip' : 'move', run.start, run.last, km, null, `${why}${inferred}${next ? `, ended on staying within --stop-radius ${p.stopRadiusM} m for --min-stop ${formatSpan(p.minStopDurationS)}` : ''}${edges}`);
    }
  }

  protected emitStop(place: Place, out: Segment[]): void {
    const seg = place.segment();
    out.push(seg);
    if (!this.explain) return;
    const until = place.departure ?? place.last;
    const silence = place.longestSilence >= 600 ? `, through a silence of ${formatSpan(place.longestSilence)} at the same place` : '';
    const rest = place.arrival !== place.first ? `, at rest ${formatSpan(place.first.t - place.arrival.t)} before the first report after a silence` : '';
    const cut = seg.partial ? '; cut by the edge of the reports' : '';
    this.tell('stop', place.arrival, until, null, place.centre,
      `stayed within --stop-radius ${this.params.stopRadiusM} m for ${formatSpan(until.t - place.arrival.t)} (at least --min-stop ${formatSpan(this.params.minStopDurationS)})${rest}${silence}${cut}`);
  }

  protected tell(kind: Explanation['kind'], a: Fix, b: Fix, km: number | null, at: { lat: number; lng: number } | null, reason: string): void {
    if (!this.explain) return;
    const p = a.r.properties;
    // a stop's centre is computed (its last bits rounded away); a fix's position is as reported
    const round = at instanceof Centre ? roundDegrees : (deg: number): number => deg;
    this.explain({
      did: p.did, name: p.name, kind, from: a.t, to: b.t,
      distanceKm: km === null ? null : Math.round(km * 1000) / 1000,
      lat: at ? round(at.lat) : null, lng: at ? round(at.lng) : null, reason,
    });
  }

  /** --explain: the story chosen for a silence between a and b, in which the unit moved. */
  protected tellSilence(a: Fix, b: Fix, story: string): void {
    if (!this.explain) return;
    const km = segmentKm(a, b);
    const over = b.t - a.t > this.params.maxGapS ? ` (over --max-gap ${formatSpan(this.params.maxGapS)}: inferred)` : '';
    this.tell('gap', a, b, km, null, `silent ${formatSpan(b.t - a.t)}${over}, ${lengthText(km)} away (${(km * 3600 / Math.max(1, b.t - a.t)).toFixed(1)} km/h on average), ${story}`);
  }
}
