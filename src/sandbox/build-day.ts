/**
 * A day's plan built from its seed (see drive.ts for what a working day is): the loop laid
 * out and scaled to the day's distance, its timeline of trips and stops, and its silences.
 * buildDay is synchronous and hot (a history request plans every day it covers), so its
 * scratch arrays are module-level and shared by every call.
 */
import { unit } from './prng.js';
import { DAY, dayDistance, dayStart, odometerAt, profile, resetsOf, workDay, working, type Kind } from './unit-profile.js';
import {
  FIRST_FIX_MAX, FIRST_FIX_MIN, GAP_MAX, GAP_MIN, GAP_RATE, LATE_SHIFT_RATE, LONG_TRIP_SILENCE_RATE, MOVE_RATE, SEGMENT_MIN_S,
  SPEEDING_RATE, STOP_MAX, STOP_MIN, TRAFFIC_RATE, TRIP_SILENCE_RATE,
  type DayPlan, type Segment, type Silence, type Stop, type Trip,
} from './day-plan.js';
import { idleDay, merged, sleepAt } from './idle-day.js';

const R_EARTH_KM = 6371.0088;
const RAD = Math.PI / 180;
const KM_PER_DEG = 111.32;

/** Great-circle distance in km. */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * R_EARTH_KM * Math.asin(Math.min(1, Math.sqrt(s)));
}

// Scratch space for buildDay (synchronous, so one set serves every call): at most 12 legs of up to 3 segments.
const MAX_VERTICES = 40;
const XS = new Float64Array(MAX_VERTICES);
const YS = new Float64Array(MAX_VERTICES);
const LATS = new Float64Array(MAX_VERTICES);
const LNGS = new Float64Array(MAX_VERTICES);
const KMS = new Float64Array(MAX_VERTICES);
const DURS = new Int32Array(MAX_VERTICES);
/** The vertex each leg ends at (LEG_END[-1] is the depot, vertex 0), and whether the leg is a repositioning move. */
const LEG_END = new Int32Array(16);
const LEG_SHORT = new Uint8Array(16);
const STOP_LEN = new Int32Array(16);

/**
 * Lay the loop out at scale s (km per unit) from the depot; returns its great-circle length.
 * Vertex `mv` (when > 0) is a repositioning move's end: (mdx, mdy) km from the vertex before it, whatever the scale.
 */
function place(nv: number, s: number, lat0: number, lng0: number, kx: number, ky: number, mv: number, mdx: number, mdy: number): number {
  let total = 0;
  for (let i = 0; i < nv; i++) {
    LATS[i] = i === mv ? (LATS[i - 1] as number) + mdy * ky : lat0 + s * (YS[i] as number) * ky;
    LNGS[i] = i === mv ? (LNGS[i - 1] as number) + mdx * kx : lng0 + s * (XS[i] as number) * kx;
  }
  for (let i = 0; i < nv - 1; i++) {
    const km = haversineKm(LATS[i] as number, LNGS[i] as number, LATS[i + 1] as number, LNGS[i + 1] as number);
    KMS[i] = km;
    total += km;
  }
  return total;
}

export function buildDay(seed: number, did: number, kind: Kind, d: number): DayPlan {
  const p = profile(seed, did, kind);
  const start = dayStart(seed, d);
  const end = start + DAY;
  if (kind === 'fixed') return idleDay(seed, did, p, d, start, 0);
  const j = workDay(p, d);
  const odoStart = odometerAt(seed, did, p, j);
  if (!working(p.mask, d)) return idleDay(seed, did, p, d, start, odoStart);
  const r = (i: number): number => unit(seed, did, d, 1000 + i);
  const person = kind === 'person';

  // The loop in units of "about a km before scaling": x east, y north, from the depot.
  const n = person ? 2 + Math.floor(r(0) * 3) : 3 + Math.floor(r(0) * 8);
  // after the delivery leg `moveAfter` (before the last leg home), a short move to another dock or the next street
  const moveAfter = !person && r(200) < MOVE_RATE ? Math.floor(r(201) * n) : -1;
  const moveKm = 1.5 + 1.5 * r(202);
  const moveAng = 2 * Math.PI * r(203);
  let nv = 1;
  let nl = 0;
  let mv = -1;
  XS[0] = 0;
  YS[0] = 0;
  const a0 = r(1) * 2 * Math.PI;
  let px = 0;
  let py = 0;
  let planar = 0;
  for (let leg = 0; leg <= n; leg++) {
    let qx = 0;
    let qy = 0;
    if (leg < n) {
      const ang = a0 + ((leg + 0.5) * 2 * Math.PI * (0.75 + 0.5 * r(10 + leg))) / n;
      const rad = 0.35 + 0.65 * r(30 + leg);
      qx = rad * Math.cos(ang);
      qy = rad * Math.sin(ang);
    }
    const dx = qx - px;
    const dy = qy - py;
    const w = Math.floor(r(50 + leg) * 3); // 0–2 turns on the way
    for (let k = 1; k <= w; k++) {
      const f = (k + (r(80 + 3 * leg + k) - 0.5) * 0.4) / (w + 1);
      const off = (r(120 + 3 * leg + k) - 0.5) * 0.5;
      XS[nv] = px + f * dx - off * dy;
      YS[nv] = py + f * dy + off * dx;
      nv++;
    }
    XS[nv] = qx;
    YS[nv] = qy;
    nv++;
    LEG_SHORT[nl] = 0;
    LEG_END[nl++] = nv - 1;
    if (leg === moveAfter) {
      // placed by place() at a fixed distance from the stop; the planar loop goes on from the stop
      XS[nv] = qx;
      YS[nv] = qy;
      mv = nv++;
      LEG_SHORT[nl] = 1;
      LEG_END[nl++] = mv;
    }
    px = qx;
    py = qy;
  }
  for (let i = 1; i < nv; i++) planar += Math.hypot((XS[i] as number) - (XS[i - 1] as number), (YS[i] as number) - (YS[i - 1] as number));

  // Scale the loop until its great-circle length is the day's distance (the move's kilometres do not scale).
  const D = dayDistance(seed, did, p, j);
  const kx = 1 / (KM_PER_DEG * Math.cos(p.depotLat * RAD));
  const ky = 1 / KM_PER_DEG;
  const mdx = moveKm * Math.cos(moveAng);
  const mdy = moveKm * Math.sin(moveAng);
  const fixedKm = mv > 0 ? moveKm : 0;
  let s = (D - fixedKm) / planar;
  for (let it = 0; it < 8; it++) {
    const L = place(nv, s, p.depotLat, p.depotLng, kx, ky, mv, mdx, mdy);
    if (Math.abs(L - D) < 1e-6) break; // a millimetre
    s *= (D - fixedKm) / (L - fixedKm);
  }

  // Timeline: leave in the morning, drive each leg, stop, and come home.
  // hours after 03:00: people leave 07:00–09:30, vehicles 06:30–09:00 or, on a late shift, 14:00–17:00
  const late = !person && r(6) < LATE_SHIFT_RATE;
  const depart = start + Math.round((person ? 4 + 2.5 * r(2) : late ? 11 + 3 * r(2) : 3.5 + 2.5 * r(2)) * 3600);
  let stopped = 0;
  for (let i = 0; i < nl - 1; i++) {
    const q = unit(seed, did, d, 1700 + i);
    if (person && i === 0) STOP_LEN[i] = 3 * 3600 + Math.round(5 * 3600 * q);
    else if (LEG_SHORT[i] || LEG_SHORT[i + 1]) STOP_LEN[i] = 1800 + Math.round(1800 * q); // the long stops around a move
    else STOP_LEN[i] = STOP_MIN + Math.round((STOP_MAX - STOP_MIN) * q ** 1.2);
    stopped += STOP_LEN[i] as number;
  }
  // one stretch of slow traffic: the first segment of 1–6 km from a random place on, crawled at 2–10 km/h for 12–50 minutes
  let jam = -1;
  if (r(204) < TRAFFIC_RATE) {
    const first = Math.floor(r(205) * (nv - 1));
    for (let k = 0; k < nv - 1 && jam < 0; k++) {
      const i = (first + k) % (nv - 1);
      const km = KMS[i] as number;
      if (i !== mv - 1 && km >= 1 && km <= 6) jam = i;
    }
  }
  let driving = 0;
  for (let i = 0; i < nv - 1; i++) {
    const km = KMS[i] as number;
    const q = unit(seed, did, d, 2000 + i);
    let dur: number;
    if (i === mv - 1) dur = 180 + Math.floor(121 * q);
    else if (i === jam) dur = Math.round((km / Math.min(10, Math.max(2, (km * 3600) / (720 + 2280 * q)))) * 3600);
    else {
      let v: number;
      if (person) v = km > 4 ? 45 + 30 * q : 18 + 27 * q;
      else v = km > 8 ? 60 + 35 * q : km > 3 ? 40 + 25 * q : 20 + 25 * q;
      if (km > 5 && unit(seed, did, d, 2100 + i) < SPEEDING_RATE) v = (person ? 95 : 100) + 30 * unit(seed, did, d, 2200 + i);
      v = Math.min(v, (km * 3600) / SEGMENT_MIN_S);
      dur = Math.max(SEGMENT_MIN_S, Math.round((km / v) * 3600));
    }
    DURS[i] = dur;
    driving += dur;
  }
  // Home before the day ends (by 02:30): shorten the stops when the day is too long.
  const over = depart + driving + stopped - (end - 1800);
  if (over > 0) {
    const spare = stopped - STOP_MIN * (nl - 1);
    for (let i = 0; i < nl - 1; i++) {
      const len = STOP_LEN[i] as number;
      STOP_LEN[i] = Math.max(STOP_MIN, Math.floor(len - (over * (len - STOP_MIN)) / Math.max(1, spare)) - 1);
    }
  }

  const stops: Stop[] = [{ from: start - 1, to: depart, lat: p.depotLat, lng: p.depotLng, heading: p.depotHeading, odo: 0 }];
  const trips: Trip[] = [];
  let t = depart;
  let odo = 0;
  for (let leg = 0; leg < nl; leg++) {
    const tripStart = t;
    const segs: Segment[] = [];
    let km = 0;
    let max = 0;
    for (let i = leg === 0 ? 0 : (LEG_END[leg - 1] as number); i < (LEG_END[leg] as number); i++) {
      const dur = DURS[i] as number;
      // the day's last metres close it exactly on its distance (they differ from the great circle by under a millimetre)
      if (i === nv - 2) KMS[i] = D - odo;
      const seg: Segment = {
        t0: t, t1: t + dur, lat0: LATS[i] as number, lng0: LNGS[i] as number, lat1: LATS[i + 1] as number, lng1: LNGS[i + 1] as number,
        km: KMS[i] as number, kmh: ((KMS[i] as number) / dur) * 3600, heading: 0, odo0: odo,
      };
      seg.heading = headingOf(seg);
      segs.push(seg);
      t += dur;
      odo += seg.km;
      km += seg.km;
      if (seg.kmh > max) max = seg.kmh;
    }
    trips.push({ start: tripStart, end: t, segs, km, maxSpeed: max, short: LEG_SHORT[leg] === 1 });
    const last = segs[segs.length - 1] as Segment;
    if (leg < nl - 1) {
      const to = t + (STOP_LEN[leg] as number);
      stops.push({ from: t, to, lat: last.lat1, lng: last.lng1, heading: last.heading, odo });
      t = to;
    } else {
      stops.push({ from: t, to: end, lat: p.depotLat, lng: p.depotLng, heading: p.depotHeading, odo });
    }
  }

  const silences: Silence[] = [];
  if (r(206) < TRIP_SILENCE_RATE) {
    // silent over a whole delivery leg, from a little into the stop before it to a little into the stop after it
    const k = Math.floor(r(207) * trips.length);
    const tr = (trips[k]?.short ? trips[k + 1] ?? trips[k - 1] : trips[k]) as Trip;
    const i = trips.indexOf(tr);
    // sometimes on over the stop after it and the next delivery leg too: two trips inside one silence
    const next = trips[i + 1];
    const two = next !== undefined && !next.short && r(210) < LONG_TRIP_SILENCE_RATE;
    const last = two ? next : tr;
    const before = stops[i] as Stop;
    const after = stops[trips.indexOf(last) + 1] as Stop;
    const a = 60 + Math.floor(r(208) * Math.max(0, Math.min(1800, tr.start - Math.max(before.from, start) - 120)));
    const b = 60 + Math.floor(r(209) * Math.max(0, Math.min(1800, after.to - last.end - 120)));
    silences.push({ from: tr.start - a, to: last.end + b, kind: 'outage' });
  } else if (r(3) < GAP_RATE) {
    const len = GAP_MIN + Math.floor(r(5) * (GAP_MAX - GAP_MIN));
    const lo = Math.max(start, depart - 3600);
    const hi = Math.min(end - len, t + 3600);
    const g0 = lo + Math.floor(r(4) * Math.max(0, hi - lo));
    silences.push({ from: g0, to: g0 + len, kind: 'outage' });
  }
  if (p.sleeper) for (let i = 1; i < stops.length; i++) sleepAt(seed, did, d, i, (stops[i] as Stop).from, (stops[i] as Stop).to, silences);
  if (p.ignition) {
    // off at every stop away from the depot (there it is on external power): from just after the
    // `stopped` report until the GPS has a fix again, a little into the next trip
    for (let i = 1; i < stops.length - 1; i++) {
      const next = trips[i] as Trip;
      const late = FIRST_FIX_MIN + Math.floor(unit(seed, did, d, 1500 + i) * (FIRST_FIX_MAX - FIRST_FIX_MIN + 1));
      silences.push({ from: (stops[i] as Stop).from + 1, to: next.start + Math.min(late, Math.floor((next.end - next.start) / 2)), kind: 'ignition' });
    }
  }
  return {
    seed, did, kind, day: d, start, end, odoStart, ...resetsOf(seed, did, p, d, start), step: p.step, stops, trips, silences: merged(silences),
  };
}

/** Compass heading of a segment in whole degrees (planar: exact enough over a few km). */
function headingOf(g: Segment): number {
  const dx = (g.lng1 - g.lng0) * Math.cos(g.lat0 * RAD);
  const dy = g.lat1 - g.lat0;
  return Math.round((Math.atan2(dx, dy) / RAD + 360) % 360) % 360;
}
