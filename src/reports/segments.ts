/**
 * What the motion tracker (motion.ts) makes of a unit's reports: trips, short moves and stops,
 * and why (--explain). The trips, stops and summary reports are built from these.
 */
import type { ReportPoint } from '../api/types.js';
import type { Day, DayClock } from './days.js';

/** What a move did on one local day (summary). */
export interface DayPart {
  day: Day;
  distanceKm: number;
  drivingTime: number;
  maxSpeed: number;
}

export interface TripSegment {
  kind: 'trip';
  /** False for a short move: under both trip minimums; its distance counts in the summary only. */
  trip: boolean;
  /** Cut by the stream's edge or a long silence: it began before the first fix, or its end is not known. */
  partial: boolean;
  /** It crossed a silence longer than --max-gap in which the unit moved: no report shows that part, the reports around it bound it. */
  inferred: boolean;
  start: ReportPoint;
  end: ReportPoint;
  distanceKm: number;
  /** Seconds between consecutive fixes of the move where at least one of the two was moving. */
  drivingTime: number;
  /** Highest reported speed (service speed unit); null when nothing of the move carries a speed (avgSpeed null, no fix read one). */
  maxSpeed: number | null;
  /** Driving-time-weighted mean of the reported speeds (service speed unit), over the ways that carry one (Move.add); null when none does. */
  avgSpeed: number | null;
  /** Per local day, when the tracker has a DayClock. */
  parts: DayPart[];
  /** The positions of the move's fixes as flat [lng0, lat0, lng1, lat1, …], when the tracker keeps paths. */
  path: number[] | undefined;
}

export interface StopSegment {
  kind: 'stop';
  /** The fix at which the unit came to rest (the first fix of the stream or after a gap, for an edge stop). */
  arrival: ReportPoint;
  /** The departure fix; undefined while the stop is still open at the end of the stream. */
  departure: ReportPoint | undefined;
  /** The last fix inside the stop. */
  last: ReportPoint;
  /** The median of the stop's fixes. */
  lat: number;
  lng: number;
  /** The first address known during the stop. */
  address: string | null;
  /** Began at the stream's first fix, or still open at the end of the stream. */
  partial: boolean;
}

export type Segment = TripSegment | StopSegment;

/** Why a stretch of a unit's history became what it became (--explain). */
export interface Explanation {
  did: number;
  name: string;
  kind: 'trip' | 'move' | 'stop' | 'edge' | 'jitter' | 'gap' | 'outlier';
  from: number;
  to: number;
  distanceKm: number | null;
  lat: number | null;
  lng: number | null;
  reason: string;
}

export interface TrackerOptions {
  /** Splits moves by local day (summary). */
  clock?: DayClock;
  /** Keep each trip's positions (maps, GPX): memory grows with the longest trip. */
  keepPath?: boolean;
  /** Told why each stretch became a trip, move, stop, gap or outlier. */
  explain?: (e: Explanation) => void;
}
