// Hand-made report fixtures: a unit scripted as park / drive / halt steps. Positions move
// east along a parallel; the odometer, when kept, grows by the distance driven.
import assert from 'node:assert/strict';
import type { ReportFeature } from '../../src/api/types.js';

export const T0 = Date.UTC(2026, 5, 1, 6, 0, 0) / 1000; // 2026-06-01 06:00 UTC

export function report(p: Partial<ReportFeature['properties']> & { date: number }): ReportFeature {
  const lat = p.lat ?? 48.1;
  const lng = p.lng ?? 11.5;
  return {
    type: 'Feature',
    properties: {
      aid: 1, did: 7, name: 'Van 7', availability: 'available', lat, lng, alt: 500, speed: 0, heading: 90,
      source: 'gps', address: `at ${lat.toFixed(4)},${lng.toFixed(4)}`, battery: 90, odometer: null, precision: 5,
      satellites: 9, temperature: null, reportType: 'report', reportValue: 'periodic', message: '',
      ...p,
    },
    geometry: { type: 'Point', coordinates: [lng, lat] },
  };
}

/** Kilometres per degree of longitude at this latitude, on the flat-earth model the fixtures use. */
export const kmPerDegLng = (lat: number): number => 111.32 * Math.cos((lat * Math.PI) / 180);

export class Track {
  t: number;
  lat: number;
  lng: number;
  private odo: number | null;
  did: number;
  readonly reports: ReportFeature[] = [];
  /** Kilometres actually driven (by construction, not by any code under test). */
  drivenKm = 0;

  constructor(opts: { t?: number; lat?: number; lng?: number; odometer?: number | null; did?: number } = {}) {
    this.t = opts.t ?? T0;
    this.lat = opts.lat ?? 48.1;
    this.lng = opts.lng ?? 11.5;
    this.odo = opts.odometer === undefined ? 1000 : opts.odometer;
    this.did = opts.did ?? 7;
  }

  /** The odometer as a tracker reports it (metres resolution). */
  get odometer(): number | null {
    return this.odo === null ? null : Math.round(this.odo * 1000) / 1000;
  }

  set odometer(km: number | null) {
    this.odo = km;
  }

  emit(extra: Partial<ReportFeature['properties']> = {}): ReportFeature {
    const r = report({ did: this.did, date: this.t, lat: this.lat, lng: this.lng, odometer: this.odometer, ...extra });
    this.reports.push(r);
    return r;
  }

  /** Parked for `seconds`, a report every `every` s (the first one now); jitter moves the fix by up to `jitterM`. */
  park(seconds: number, every: number, opts: { jitterM?: number; spikes?: number[] } = {}): this {
    const end = this.t + seconds;
    let i = 0;
    for (; this.t < end; this.t += every, i++) {
      const j = opts.jitterM ?? 0;
      // deterministic jitter: a small orbit around the parking place
      const dLat = (j / 1000 / 111.2) * Math.sin(i * 2.1);
      const dLng = (j / 1000 / kmPerDegLng(this.lat)) * Math.cos(i * 1.7);
      const speed = opts.spikes?.[i % opts.spikes.length] ?? 0;
      this.emit({ lat: this.lat + dLat, lng: this.lng + dLng, speed });
    }
    this.t = end;
    return this;
  }

  /** Drives `km` east at `kmh`, a report every `every` s after the start (the first one at the start, moving). */
  drive(km: number, kmh: number, every: number, opts: { reportSpeed?: number } = {}): this {
    const seconds = (km / kmh) * 3600;
    const steps = Math.round(seconds / every);
    const stepKm = km / steps;
    this.emit({ speed: opts.reportSpeed ?? kmh });
    for (let s = 1; s <= steps; s++) {
      this.t += every;
      this.lng += stepKm / kmPerDegLng(this.lat);
      this.drivenKm += stepKm;
      if (this.odo !== null) this.odo += stepKm;
      if (s < steps) this.emit({ speed: opts.reportSpeed ?? kmh });
    }
    return this;
  }

  /** Stands still for `seconds`, a report every `every` s, the first one now (the arrival). */
  halt(seconds: number, every: number): this {
    return this.park(seconds, every);
  }

  /** Silence: no report for `seconds`. */
  gap(seconds: number): this {
    this.t += seconds;
    return this;
  }
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of items) out.push(x);
  return out;
}

export const near = (actual: number, expected: number, tol: number, what: string): void =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} not within ${tol} of ${expected}`);

/** The tracker says it sets off (speed 0, as trackers send it), then drives `km` east at 40 km/h; returns when it said so. */
export function setOff(u: Track, km: number): number {
  const at = u.t;
  u.emit({ reportType: 'motion_state', reportValue: 'moving', speed: 0 });
  u.t += 30;
  u.lng += 1 / 3 / kmPerDegLng(u.lat);
  u.odometer = (u.odometer ?? 0) + 1 / 3;
  u.drive(km, 40, 30);
  return at;
}

/** The tracker says it stopped here (speed 0); returns when. */
export function halt(u: Track): number {
  u.emit({ reportType: 'motion_state', reportValue: 'stopped', speed: 0 });
  return u.t;
}

/** Moves east `km` (and the odometer `odoKm`) without a report. */
export function away(u: Track, km: number, odoKm = km): void {
  u.lng += km / kmPerDegLng(u.lat);
  u.odometer = (u.odometer ?? 0) + odoKm;
}
