/**
 * Parameters of the trip and stop detection, their defaults and their validation.
 *
 * The defaults follow Traccar's report.trip.* settings (minimalTripDistance 500 m,
 * minimalTripDuration 300 s, minimalParkingDuration 300 s, minimalNoDataDuration 3600 s;
 * like Traccar, a move is a trip when it is long enough in time or in distance) except the
 * stop radius and the outlier speed, which Traccar has not, and the speed threshold: Traccar's event.motion.speedThreshold is 0.01 knots, i.e. any
 * non-zero speed, which counts the speed noise of a parked GPS as motion. Here it is 5 in the
 * service's own speed unit (the interface does not name the unit; the sandbox reports
 * vehicle speeds of 15–90, which reads as km/h, making 5 a walking pace).
 */
import { UsageError } from '../errors.js';

export interface ReportParams {
  /** A move between two stops is a trip when it covers at least this (km)… */
  minTripDistanceKm: number;
  /** …or lasts at least this (s); a shorter and nearer move is a short move (its distance still counts in the summary). */
  minTripDurationS: number;
  /** Staying within stopRadiusM at least this long (s) is a stop; shorter halts (a light) are not. */
  minStopDurationS: number;
  /** A unit that stays within this many metres of where it stood has not moved (parked GPS jitter); farther, it left. */
  stopRadiusM: number;
  /** A fix implying more than this (km/h) from both its neighbours is an outlier, left out of distances and trips. */
  outlierSpeedKmh: number;
  /** A report is moving when its speed is above this (service speed unit), unless motion_state decides. */
  speedThreshold: number;
  /** A trip that crossed a silence longer than this (s) in which the unit moved is marked inferred: no report shows that part. */
  maxGapS: number;
  /** Once the unit has sent a motion_state report, its latest value says moving or stopped instead of the speed. */
  useMotionState: boolean;
  /**
   * Reports up to this much (s) older than the newest one seen are put back in date order; older ones are dropped.
   * Each unit holds this much of its reports: about 0.4 kB a report, so at 30 s a report 3600 s is 120 reports, ~50 kB.
   */
  reorderWindowS: number;
}

export const DEFAULTS: Readonly<ReportParams> = Object.freeze({
  minTripDistanceKm: 0.5,
  minTripDurationS: 300,
  minStopDurationS: 300,
  stopRadiusM: 100,
  outlierSpeedKmh: 300,
  speedThreshold: 5,
  maxGapS: 3600,
  useMotionState: true,
  reorderWindowS: 3600,
});

/** The command-line flag of each parameter (kebab case), for help text and error messages. */
export const PARAM_FLAGS: Readonly<Record<keyof ReportParams, string>> = Object.freeze({
  minTripDistanceKm: '--min-trip-distance',
  minTripDurationS: '--min-trip-duration',
  minStopDurationS: '--min-stop',
  stopRadiusM: '--stop-radius',
  outlierSpeedKmh: '--outlier-speed',
  speedThreshold: '--speed-threshold',
  maxGapS: '--max-gap',
  useMotionState: '--motion-state',
  reorderWindowS: '--reorder-window',
});

const NUMBER = /^[+]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function number(key: keyof ReportParams, value: unknown, positive: boolean): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && NUMBER.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < 0 || (positive && n === 0)) {
    throw new UsageError(
      `${PARAM_FLAGS[key]}: expected a ${positive ? 'positive' : 'non-negative'} number, got ${JSON.stringify(value)}`,
    );
  }
  return n;
}

function boolean(key: keyof ReportParams, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (['true', 'yes', 'on', '1'].includes(v)) return true;
    if (['false', 'no', 'off', '0'].includes(v)) return false;
  }
  throw new UsageError(`${PARAM_FLAGS[key]}: expected true or false, got ${JSON.stringify(value)}`);
}

/**
 * Parameters from flag values (numbers or their text; undefined keeps the default).
 * Unknown names, negative, non-finite or malformed values → UsageError (exit 2).
 */
export function validateParams(raw: Readonly<Record<string, unknown>> = {}): ReportParams {
  const out: ReportParams = { ...DEFAULTS };
  for (const [key, value] of Object.entries(raw)) {
    if (!Object.hasOwn(DEFAULTS, key)) {
      throw new UsageError(`unknown report parameter "${key}" (known: ${Object.keys(DEFAULTS).join(', ')})`);
    }
    if (value === undefined) continue;
    const k = key as keyof ReportParams;
    if (k === 'useMotionState') out.useMotionState = boolean(k, value);
    else out[k] = number(k, value, k === 'maxGapS' || k === 'stopRadiusM' || k === 'outlierSpeedKmh');
  }
  return out;
}
