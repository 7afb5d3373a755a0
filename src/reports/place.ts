/**
 * Where a unit stands: a stop once confirmed, and the robust centre of its fixes.
 */
import { fartherThan, leaving, type Fix, type Position } from './fix.js';
import { cosOfLat } from './geo.js';
import type { StopSegment } from './segments.js';

/** The most fixes a candidate stop or a departure holds (dense reporting in slow traffic); older ones are committed. */
export const MAX_HELD = 4096;

const byValue = (x: number, y: number): number => x - y;

/** The middle of values kept in order. */
const middle = (s: readonly number[]): number => {
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/** Puts `x` after every value not above it: the order a stable sort of the values in arrival order gives. */
function insertInOrder(s: number[], x: number): void {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((s[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  s.splice(lo, 0, x);
}

/** The median position of a place's fixes, from an evenly thinned sample of at most SAMPLES of them. */
const SAMPLES = 64;
export class Centre implements Position {
  lat: number;
  lng: number;
  cosLat: number;
  /** The sample in arrival order (thinned by it), and the same values in order: a median is the middle, not a sort a fix. */
  private lats: number[] = [];
  private lngs: number[] = [];
  private latsInOrder: number[] = [];
  private lngsInOrder: number[] = [];
  private stride = 1;
  private seen = 0;

  constructor(f: Fix) {
    this.lat = f.lat;
    this.lng = f.lng;
    this.cosLat = f.cosLat;
    this.add(f);
  }

  add(f: Fix): void {
    if (this.seen++ % this.stride !== 0) return;
    this.lats.push(f.lat);
    this.lngs.push(f.lng);
    if (this.lats.length > SAMPLES) {
      this.lats = this.lats.filter((_, i) => i % 2 === 0);
      this.lngs = this.lngs.filter((_, i) => i % 2 === 0);
      this.stride *= 2;
      this.latsInOrder = [...this.lats].sort(byValue);
      this.lngsInOrder = [...this.lngs].sort(byValue);
    } else {
      insertInOrder(this.latsInOrder, f.lat);
      insertInOrder(this.lngsInOrder, f.lng);
    }
    const lat = middle(this.latsInOrder);
    if (lat !== this.lat) this.cosLat = cosOfLat(lat);
    this.lat = lat;
    this.lng = middle(this.lngsInOrder);
  }
}

/** Where the unit stands: a stop once confirmed; before that, the place at the stream's start or after a gap. */
export class Place {
  /** The anchor: the first fix here. */
  first: Fix;
  /** When the unit came to rest: the first fix, or the last one before a silence it spent here. */
  arrival: Fix;
  last: Fix;
  centre: Centre;
  confirmed: boolean;
  /** Began at the first fix of the stream or after a gap: the arrival is not known. */
  edge: boolean;
  address: string | null;
  /** The trailing fixes already on their way out, oldest first. */
  leaving: Fix[] = [];
  /**
   * The centre as it was when those trailing fixes began (the first of them in it), and that fix:
   * where the unit stood before it left. A departure at that fix reports the stop there, not at a
   * centre that its way out (a slow crawl within the radius, say) dragged along.
   */
  private stood: { fix: Fix; lat: number; lng: number } | undefined;
  /** A motion_state 'moving' report since the unit stood here (the tracker's own word that it set off). */
  setOff: Fix | undefined;
  /** The tracker's last motion_state 'stopped' report here (its word that the unit came to rest there). */
  halt: Fix | undefined;
  /** The departure, once the unit left. */
  departure: Fix | undefined;
  longestSilence = 0;
  /** The earliest the unit may have come here: the last report before the silence it arrived in (else the first fix). */
  since: number;
  /** The speed it drove at to come here, km/h, when the tracker said 'stopped' here (0 otherwise): it dates a departure in a silence. */
  cameAtKmh = 0;

  constructor(first: Fix, confirmed: boolean, edge: boolean, arrival: Fix = first, since = first.t) {
    this.first = first;
    this.since = since;
    this.arrival = arrival;
    this.last = first;
    this.centre = new Centre(first);
    this.confirmed = confirmed;
    this.edge = edge;
    this.address = first.r.properties.address ?? null;
    this.noteMotion(first);
  }

  private noteMotion(f: Fix): void {
    const p = f.r.properties;
    if (p.reportType !== 'motion_state') return;
    this.setOff = p.reportValue === 'moving' && f.going ? (this.setOff ?? f) : undefined;
    if (p.reportValue === 'stopped') this.halt = f;
  }

  add(f: Fix): void {
    if (leaving(this.last, f)) this.onItsWay();
    else this.leaving.length = 0;
    this.longestSilence = Math.max(this.longestSilence, f.t - this.last.t);
    this.noteMotion(f);
    this.last = f;
    this.centre.add(f);
    if (this.address === null) this.address = f.r.properties.address ?? null;
  }

  /** The last fix is on its way out: it joins the trailing fixes. */
  onItsWay(): void {
    if (this.leaving.length === 0) this.stood = { fix: this.last, lat: this.centre.lat, lng: this.centre.lng };
    if (this.leaving.length >= MAX_HELD) this.leaving.shift();
    this.leaving.push(this.last);
  }

  /** Within the radius: of the centre for a stop, of the first fix before (a crawl must not drag the centre along). */
  holds(f: Fix, radiusKm: number): boolean {
    return !fartherThan(this.confirmed ? this.centre : this.first, f, radiusKm);
  }

  segment(): StopSegment {
    const at = this.stood !== undefined && this.departure === this.stood.fix ? this.stood : this.centre;
    return {
      kind: 'stop', arrival: this.arrival.r, departure: this.departure?.r, last: this.last.r,
      lat: at.lat, lng: at.lng, address: this.address,
      partial: this.edge || this.departure === undefined,
    };
  }
}
