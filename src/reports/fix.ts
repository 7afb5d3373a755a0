/**
 * A report with a usable position as the motion tracker sees it, and the measures it takes of
 * pairs and triples of them: distance, whether a fix is on its way out, whether one is an outlier.
 */
import type { ReportPoint } from '../api/types.js';
import { cosOfLat, EARTH_RADIUS_KM, haversineTerm, kmOfTerm, ODOMETER_SLACK_KM, odometerKm, odometerRounding } from './geo.js';

/**
 * A position with the cosine of its latitude (cosOfLat of geo.ts) at hand: a fix is measured
 * against a dozen others on average (outliers, the candidate stop, the move), and the cosines
 * were a third of each haversine's cost.
 */
export interface Position {
  lat: number;
  lng: number;
  cosLat: number;
}

/** A report with a usable position, and what the tracker made of it. */
export interface Fix extends Position {
  r: ReportPoint;
  t: number;
  speed: number;
  /** Moving by the unit's motion state (sticky: a sleeping logger never says stopped), for driving time. */
  moving: boolean;
  /** Moving on this report's own evidence: its speed, or a motion_state 'moving' report. */
  going: boolean;
  /** Where the fix this one was last measured to lies (NaN before), and the km (see legKm). */
  nextLat: number;
  nextLng: number;
  nextKm: number;
}

/** The fix of a report with a usable position (one object shape for every fix, whoever makes it). */
export function fixOf(r: ReportPoint, speed: number, moving: boolean, going: boolean): Fix {
  const p = r.properties;
  return { r, t: p.date, lat: p.lat, lng: p.lng, cosLat: cosOfLat(p.lat), speed, moving, going, nextLat: Number.NaN, nextLng: Number.NaN, nextKm: 0 };
}

/** A fix at f's place and in its state, dated t: a departure the silence after f hides, dated by what the reports around it say. */
export function fixAt(f: Fix, t: number): Fix {
  return fixOf({ ...f.r, properties: { ...f.r.properties, date: t } }, f.speed, f.moving, f.going);
}

/** Great-circle km between two positions: haversineKm of geo.ts, to the bit. */
export const distKm = (a: Position, b: Position): number => kmOfTerm(haversineTerm(a.lat, a.lng, a.cosLat, b.lat, b.lng, b.cosLat));

const RAD = Math.PI / 180;

/** Kilometres per degree along a meridian: no great circle between two points is shorter than their latitude difference at this. */
const KM_PER_DEG_LAT = (EARTH_RADIUS_KM * Math.PI) / 180;

/**
 * The haversine term of a distance of `km`, for the last km asked (the stop radius, nearly
 * always): distances compare as their terms do, so most comparisons need no square root and
 * arc sine. A term within a millionth of it (far wider than the rounding of either side) is
 * decided by the distance itself, so every answer is the one distKm(a, b) > km gives.
 */
let termKm = Number.NaN;
let termOfKm = 0;

/** Whether a and b are farther apart than km: the latitude difference alone often says so without the trigonometry (the hot path of a moving unit). */
export function fartherThan(a: Position, b: Position, km: number): boolean {
  // a margin for rounding: at a pole the great circle is the meridian, and the two ways of reckoning it differ in the last bits
  if (Math.abs(a.lat - b.lat) * KM_PER_DEG_LAT > km * (1 + 1e-9)) return true;
  if (km !== termKm) {
    termKm = km;
    // beyond a quarter of the globe (or not a distance) every case is decided the exact way
    termOfKm = km >= 0 && km < EARTH_RADIUS_KM ? Math.sin(km / (2 * EARTH_RADIUS_KM)) ** 2 : Number.NaN;
  }
  const near = termOfKm * (1 - 1e-6);
  // The term with each sine replaced by its angle, in the same order of operations: no smaller, as
  // |sin x| ≤ |x| holds for doubles too (x is a double, and sin x, faithfully rounded, cannot pass
  // it). Below `near`, the term is too: the answer the sines give, without them (fixes within the
  // radius of each other, the usual case of a parked unit and of the candidate stop of a moving one).
  const x = ((b.lat - a.lat) * RAD) / 2;
  const y = ((b.lng - a.lng) * RAD) / 2;
  const xx = x * x;
  const yy = y * y;
  const cc = a.cosLat * b.cosLat;
  if (xx + cc * yy < near) return false;
  // The other way: sin²x ≥ x²(1 - x²/3) (sin x ≥ x - x³/6 ≥ 0 for 0 ≤ x ≤ √6), so below a radian
  // (both parts positive, each within a few units in 1e-16 of its value) the term is at least
  // this. Above the radius's term by more than the rounding of either side (1e-9; for any radius
  // over 1e-30 of a term, none of it subnormal), the term the sines give is above it too, as the
  // check below would find: farther, without the sines (a moving unit's fix just beyond the radius).
  if (xx < 1 && yy < 1 && termOfKm > 1e-30 && xx * (1 - xx / 3) + cc * (yy * (1 - yy / 3)) > termOfKm * (1 + 1e-6) * (1 + 1e-9)) return true;
  const term = haversineTerm(a.lat, a.lng, a.cosLat, b.lat, b.lng, b.cosLat);
  if (term < near) return false;
  if (term > termOfKm * (1 + 1e-6)) return true;
  return kmOfTerm(term) > km;
}

/**
 * distKm from a fix to a later one, kept with the first: the outlier rule measures each leg
 * between consecutive fixes twice (into a fix, then out of it) and the move once more. The
 * later fix is known by its position, which alone decides the distance: a reference to it
 * would chain every fix to the next and keep them all.
 */
export function legKm(a: Fix, b: Fix): number {
  if (a.nextLat === b.lat && a.nextLng === b.lng) return a.nextKm;
  const km = distKm(a, b);
  a.nextLat = b.lat;
  a.nextLng = b.lng;
  a.nextKm = km;
  return km;
}

/** Kilometres between two fixes of a move: the odometer's when plausible, else the great circle. */
export function segmentKm(a: Fix, b: Fix): number {
  const straight = legKm(a, b);
  return odometerKm(a.r, b.r, straight) ?? straight;
}

/**
 * On its way: moving, or creeping in slow traffic (a speed under the threshold, not zero), and
 * covering at least half the ground its speed says by the next fix (a parked fix's small noisy
 * speed says far more ground than its few metres of jitter between reports).
 */
export const leaving = (a: Fix, next: Fix): boolean => (a.going || a.speed > 0) && distKm(a, next) >= (0.5 * a.speed * Math.max(0, next.t - a.t)) / 3600;

/** A fix that reads a speed under the threshold, not zero: the noise of a parked fix, or slow traffic. */
export const creeps = (f: Fix): boolean => !f.going && f.speed > 0;

/**
 * Whether the unit went on from a to b at the speed a reads: b lies as far on as that speed goes
 * (leaving) and no more than twice as far. A parked fix's noisy speed goes nowhere, and a unit
 * that drove off after it is much farther.
 */
export const wentOnAt = (a: Fix, b: Fix): boolean => a.speed > 0 && leaving(a, b) && distKm(a, b) <= (2 * a.speed * Math.max(0, b.t - a.t)) / 3600;

/** Whether a, creeping, crawled on to b at the speed it reads (wentOnAt). */
export const crawledOn = (a: Fix, b: Fix): boolean => creeps(a) && wentOnAt(a, b);

/** The reported speed, 0 when missing or not a positive number. */
export const speedOf = (r: ReportPoint): number => {
  const s = r.properties.speed;
  return typeof s === 'number' && Number.isFinite(s) && s > 0 ? s : 0;
};

/** How far out of its way a jump must take a unit before the detour rule calls it one, km. */
const DETOUR_KM = 1;

/**
 * Why x, between a and c, is an outlier, or undefined. Either it implies an impossible speed
 * from both neighbours, or it is a detour the unit cannot have driven: out and back by more
 * than DETOUR_KM beyond the way from a to c, and longer than the odometer's count from a to c
 * (when plausible) or than the fastest speed any of the three reported would cover.
 */
export function outlierReason(a: Fix, x: Fix, c: Fix, limit: number): string | undefined {
  // each distance once: this runs for every report
  const ax = legKm(a, x);
  const xc = legKm(x, c);
  const inKmh = (ax * 3600) / Math.max(1, Math.abs(x.t - a.t));
  const outKmh = (xc * 3600) / Math.max(1, Math.abs(c.t - x.t));
  if (inKmh > limit && outKmh > limit) return `${Math.round(inKmh)} km/h from the fix before and ${Math.round(outKmh)} km/h to the next (over --outlier-speed ${limit})`;
  // Legs of ODOMETER_SLACK_KM or less are no odometer jump (odometerKm of geo.ts allows that much), and a way
  // of twice that is no detour: the usual fix, decided without the odometer.
  if (ax <= ODOMETER_SLACK_KM && xc <= ODOMETER_SLACK_KM) return undefined;
  // The way from a to c is no longer than the way through x and no shorter than the difference
  // of its legs (with a margin for rounding): bounds that decide the usual fix without it.
  const way = ax + xc;
  let direct = Number.NaN;
  let odo = odometerKm(a.r, c.r, way * (1 + 1e-9) + 1e-12);
  if (odo === undefined) {
    // the odometer's count may be too short for the longest way a to c could be, or missing: the way itself decides
    direct = distKm(a, c);
    odo = odometerKm(a.r, c.r, direct);
  }
  if (odo !== undefined) {
    // the odometer agrees with the way from a to c, yet x lies farther from a or c than it counts: x's position is wrong
    // each leg in turn, without a pair of arrays made for every report
    const jump = odometerJump(a, x, ax, 'before', x) ?? odometerJump(x, c, xc, 'after', x);
    if (jump !== undefined) return jump;
  }
  if (way <= 2 * (Math.abs(ax - xc) * (1 - 1e-9) - 1e-12) + DETOUR_KM) return undefined;
  if (Number.isNaN(direct)) direct = distKm(a, c);
  if (way <= 2 * direct + DETOUR_KM) return undefined;
  const could = odo ?? (1.2 * Math.max(a.speed, x.speed, c.speed) * Math.max(0, c.t - a.t)) / 3600;
  if (way <= could + DETOUR_KM) return undefined;
  return `a detour of ${way.toFixed(1)} km between fixes ${direct.toFixed(1)} km apart, where the ${odo === undefined ? 'reported speeds allow' : 'odometer counts'} ${could.toFixed(1)} km`;
}

/**
 * Whether the odometer's count from a to c says the unit went by x rather than by y (two fixes
 * between them, one of which jumped): the way through x is nearer that count than the way
 * through y, by more than the tenth of it that a road and the odometer's own slack allow (two
 * ways alike to that are no evidence). False without a plausible count.
 */
export function odometerGoesBy(a: Fix, x: Fix, y: Fix, c: Fix): boolean {
  const odo = odometerKm(a.r, c.r, distKm(a, c));
  if (odo === undefined) return false;
  const offX = Math.abs(distKm(a, x) + distKm(x, c) - odo);
  const offY = Math.abs(distKm(a, y) + distKm(y, c) - odo);
  return offY - offX > 0.1 * odo + ODOMETER_SLACK_KM;
}

/**
 * Whether x, left out by outlierReason, was left out for its leg to c alone: the leg from a agrees
 * with the odometer, the one to c does not. Then c may as well be the jump (a fix off along the way
 * from a that the odometer still happens to agree with), which only the fix after c tells.
 */
export function jumpToNextOnly(a: Fix, x: Fix, c: Fix): boolean {
  return odometerJump(a, x, legKm(a, x), 'before', x) === undefined && odometerJump(x, c, legKm(x, c), 'after', x) !== undefined;
}

/** Why x lies farther from its neighbour than the odometer counts between u and v (the leg of x from or to it, `km` long; its rounding allowed), or undefined. */
function odometerJump(u: Fix, v: Fix, km: number, side: 'before' | 'after', x: Fix): string | undefined {
  const o1 = u.r.properties.odometer as number;
  const o2 = v.r.properties.odometer as number;
  const delta = o2 - o1;
  if (typeof x.r.properties.odometer === 'number' && delta >= 0 && km > delta + odometerRounding(o1, o2) && odometerKm(u.r, v.r, km) === undefined)
    return `${km.toFixed(1)} km from the fix ${side}, where the odometer counts ${delta.toFixed(1)} km (and agrees with the way from the fix before to the fix after)`;
  return undefined;
}
