/**
 * The report algorithms: pure functions over async iterables of report features, no I/O.
 * Per unit: trips(), stops(), summary(), visits(), overspeed episodes; for a merged stream of many units,
 * byUnit(stream, () => tripProcessor(params)) and the like.
 */
export { byUnit, NONE, run, type UnitProcessor } from './stream.js';
export { inDateOrder, type OrderOptions } from './order.js';
export { DEFAULTS, PARAM_FLAGS, validateParams, type ReportParams } from './params.js';
export { DayClock, type Day } from './days.js';
export { EARTH_RADIUS_KM, haversineKm } from './geo.js';
export { MotionTracker } from './motion.js';
export type { Explanation, Segment, StopSegment, TripSegment } from './segments.js';
export { tripProcessor, tripRecord, trips, tripWithPath, type Trip, type TripOptions, type TripWithPath } from './trips.js';
export { stopProcessor, stopRecord, stops, type Stop } from './stops.js';
export { summary, summaryProcessor, type DaySummary } from './summary.js';
export { visitProcessor, visits, type Visit } from './visits.js';
export {
  DEFAULT_MIN_OVERSPEED_S, limitAt, newOverspeedState, overspeedFinish, overspeedProcessor, overspeedStep,
  type Overspeed, type OverspeedState, type OverspeedWithPath, type SpeedRules,
} from './overspeed.js';
export { containing, inFence, loadFences, parseFences, type Fence } from './fences.js';
