/**
 * Position history as a pure function of (seed, did, time): nothing is stored, so the
 * state file stays small and history keeps growing as the sandbox clock advances.
 *
 * What a unit does comes from drive.ts (planned per day); when it reports, and when each
 * report is received, from report-dates.ts; this module says what each report holds:
 * - while parked (and always, for sensors), on a grid of PARK_PERIOD seconds with
 *   ±PARK_JITTER jitter: a report every 10–30 minutes, a few metres of GPS jitter around
 *   where the unit stands, speed ~0; now and then a fix tens of metres off that reads a
 *   driving speed (PARK_SPEED_RATE);
 * - a trip: a `motion_state` `moving` report at its start and `stopped` at its end, and
 *   reports every plan.step seconds between, on the true path, with the speed of the
 *   segment driven;
 * - none inside the plan's silences;
 * - on JUMP_RATE of a unit's days, one fix kilometres off (the next is right again);
 * - most reports are received a few seconds after their date; some arrive late, 1 to 6 hours
 *   after it (LATE_RATE_MOVING of those made while driving, LATE_RATE_PARKED of the others).
 *   A report is visible once received <= now.
 * A report is identified by its date (no unit has two reports in one second).
 */
import type { DayPlan, Segment, Stop } from './day-plan.js';
import { planDay } from './drive.js';
import { hash32, unit } from './prng.js';
import { datesIn, latestVisibleK, receivedOf, reportDates, type HistoryUnit } from './report-dates.js';
import { centreFor, DAY, dayOf, kindOf } from './unit-profile.js';

/** Share of a parked vehicle's or phone's fixes that land 15–80 m off and read 5–30 km/h. */
export const PARK_SPEED_RATE = 0.04;
/** Share of a vehicle's or phone's days with one jump: a fix 2–15 km off. */
export const JUMP_RATE = 0.2;

export const REPORT_TYPES = [
  'report', 'reporting_mode', 'availability', 'battery_state', 'check_in', 'crash', 'doze',
  'external_power', 'gps_fix', 'job_state', 'motion_state', 'note', 'reporting_state', 'sensor', 'sos',
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export interface Report {
  /** The report's key: its date. */
  k: number;
  date: number;
  received: number;
  lat: number;
  lng: number;
  alt: number;
  speed: number;
  heading: number;
  battery: number;
  odometer: number | null;
  precision: number;
  satellites: number;
  temperature: number | null;
  reportType: ReportType;
  reportValue: string;
  message: string;
  address: string | null;
}

const STREETS = [
  'Main St', 'Oak Ave', 'Industrial Pkwy', 'Commerce Dr', 'Elm St', 'Market St', 'Harbor Rd', 'Depot Ln',
  'Airport Blvd', 'Maple Ave', 'Cedar Ct', 'Riverside Dr', 'Warehouse Way', 'Station Rd', 'Union Ave', '5th St',
];

const TYPE_VALUES: Record<ReportType, ReadonlyArray<[string, string]>> = {
  report: [['periodic', 'Periodic position report']],
  reporting_mode: [['normal', 'Reporting mode set to normal'], ['power_save', 'Reporting mode set to power save'], ['live', 'Reporting mode set to live']],
  availability: [['available', 'Unit is available'], ['unavailable', 'Unit is unavailable']],
  battery_state: [['discharging', 'Battery discharging'], ['charging', 'Battery charging'], ['low', 'Battery low']],
  check_in: [['checked_in', 'Driver checked in']],
  crash: [['impact_detected', 'Possible crash detected']],
  doze: [['entering', 'Entering doze mode'], ['leaving', 'Leaving doze mode']],
  external_power: [['connected', 'External power connected'], ['disconnected', 'External power disconnected']],
  gps_fix: [['3d', 'GPS fix acquired (3D)'], ['2d', 'GPS fix degraded (2D)'], ['none', 'GPS fix lost']],
  job_state: [['started', 'Job started'], ['completed', 'Job completed']],
  motion_state: [['moving', 'Unit started moving'], ['stopped', 'Unit stopped']],
  note: [['note', 'Delivered to front desk'], ['note', 'Customer not at home, left at depot'], ['note', 'Refuelled']],
  reporting_state: [['on', 'Reporting switched on'], ['off', 'Reporting switched off']],
  sensor: [['temperature', 'Sensor reading'], ['humidity', 'Sensor reading'], ['door_open', 'Door opened']],
  sos: [['pressed', 'SOS button pressed']],
};

/** Report types between a trip's start and end (motion_state only marks those two). */
const MOVING_TYPE_CDF: ReadonlyArray<[number, ReportType]> = [
  [0.94, 'report'], [0.965, 'gps_fix'], [0.975, 'reporting_mode'], [0.983, 'battery_state'], [0.988, 'external_power'],
  [0.992, 'reporting_state'], [0.995, 'note'], [0.998, 'crash'], [1, 'sos'],
];
const PARKED_TYPE_CDF: ReadonlyArray<[number, ReportType]> = [
  [0.8, 'report'], [0.83, 'battery_state'], [0.85, 'availability'], [0.87, 'check_in'], [0.89, 'doze'],
  [0.91, 'external_power'], [0.93, 'job_state'], [0.945, 'note'], [0.955, 'reporting_mode'], [0.965, 'reporting_state'],
  [0.98, 'gps_fix'], [0.995, 'sensor'], [1, 'sos'],
];
const SENSOR_TYPE_CDF: ReadonlyArray<[number, ReportType]> = [
  [0.7, 'sensor'], [0.85, 'report'], [0.9, 'battery_state'], [0.94, 'availability'], [0.97, 'reporting_state'],
  [0.99, 'doze'], [1, 'external_power'],
];

function pick(cdf: ReadonlyArray<[number, ReportType]>, r: number): ReportType {
  for (const [p, t] of cdf) if (r < p) return t;
  return 'report';
}

const round = (n: number, places: number): number => {
  const f = 10 ** places;
  return Math.round(n * f) / f;
};

/**
 * The address of a position: a pure function of it, so one place always reads the same.
 * Streets run through cells of about 600 m, house numbers step every 30 m or so.
 */
export function addressOf(seed: number, lat: number, lng: number): string {
  const y = Math.round(lat * 3600);
  const x = Math.round(lng * 3600);
  const street = STREETS[hash32(seed, Math.floor(y / 20), Math.floor(x / 20), 19) % STREETS.length] as string;
  return `${10 + (hash32(seed, y, x, 20) % 890)} ${street}, ${centreFor(seed).city}`;
}

const isMotionDate = (plan: DayPlan, t: number): boolean => plan.trips.some((tr) => t === tr.start || t === tr.end);

/** The date of the plan's jump (a fix kilometres off), or null: the first report after a time drawn for the day that marks no trip's start or end. */
export function jumpOf(seed: number, did: number, plan: DayPlan): number | null {
  if (plan.jump !== undefined) return plan.jump;
  plan.jump = null;
  if (plan.kind !== 'fixed' && unit(seed, did, plan.day, 1300) < JUMP_RATE) {
    const t = plan.start + Math.floor(unit(seed, did, plan.day, 1301) * (DAY - 4 * 3600));
    const dates: number[] = [];
    reportDates(seed, did, plan, t, t + 4 * 3600, dates);
    plan.jump = dates.find((x) => !isMotionDate(plan, x)) ?? null;
  }
  return plan.jump;
}

/** Where the jump of a plan puts its fix: 2–15 km from (lat, lng). */
export function jumpedTo(seed: number, did: number, plan: DayPlan, lat: number, lng: number): [number, number] {
  const km = 2 + 13 * unit(seed, did, plan.day, 1302);
  const ang = 2 * Math.PI * unit(seed, did, plan.day, 1303);
  return [lat + (km * Math.sin(ang)) / 111.32, lng + (km * Math.cos(ang)) / (111.32 * Math.cos((lat * Math.PI) / 180))];
}

/** Whether a parked report of a vehicle or phone is a fix tens of metres off that reads a driving speed. */
export const parkedSpeedFix = (seed: number, did: number, date: number): boolean => unit(seed, did, date, 46) < PARK_SPEED_RATE;

/** The odometer reading (km) after `odo` km of the day, at `date`: resets take off what the odometer had read by then. */
export const odometerOf = (plan: DayPlan, odo: number, date: number): number =>
  round(plan.odoStart + odo - (plan.reset !== null && date < plan.reset ? plan.odoLessBefore : plan.odoLess), 3);

/** The report dated `date`, which reportDates produced for this plan (`jumps` false: where a jump's fix should have been). */
export function reportFromPlan(seed: number, u: HistoryUnit, plan: DayPlan, date: number, jumps = true): Report {
  const did = u.did;
  const kind = kindOf(u);
  const c = centreFor(seed);
  let lat: number;
  let lng: number;
  // what the address is looked up from: where the unit is (parked: where it stands, not the fix)
  let placeLat: number;
  let placeLng: number;
  let speed = 0;
  let heading: number;
  let odo: number;
  let reportType: ReportType;
  let moving = false;
  let fixed: string | undefined;
  const trip = plan.trips.find((tr) => date >= tr.start && date <= tr.end);
  const r = unit(seed, did, date, 5);
  if (trip) {
    let seg = trip.segs[0] as Segment;
    for (const g of trip.segs) {
      seg = g;
      if (date <= g.t1) break;
    }
    const f = (date - seg.t0) / (seg.t1 - seg.t0);
    lat = seg.lat0 + f * (seg.lat1 - seg.lat0);
    lng = seg.lng0 + f * (seg.lng1 - seg.lng0);
    odo = seg.odo0 + f * seg.km;
    heading = seg.heading;
    moving = true;
    if (date === trip.start || date === trip.end) {
      reportType = 'motion_state';
      fixed = date === trip.start ? 'moving' : 'stopped';
    } else {
      speed = round(seg.kmh, 1);
      reportType = pick(MOVING_TYPE_CDF, r);
    }
    placeLat = round(lat, 6);
    placeLng = round(lng, 6);
  } else {
    const st = (plan.stops.find((s) => date > s.from && date < s.to) ?? plan.stops[0]) as Stop;
    const off = kind !== 'fixed' && parkedSpeedFix(seed, did, date);
    // GPS jitter: 1–6 m around where the unit stands; now and then 15–80 m, read as a driving speed
    const m = off ? 15 + 65 * unit(seed, did, date, 43) : 1 + 5 * unit(seed, did, date, 43);
    const ang = 2 * Math.PI * unit(seed, did, date, 44);
    lat = st.lat + (m * Math.sin(ang)) / 111320;
    lng = st.lng + (m * Math.cos(ang)) / (111320 * Math.cos((st.lat * Math.PI) / 180));
    const drift = unit(seed, did, date, 45);
    speed = off ? round(5 + 25 * drift, 1) : drift < 0.15 ? round(0.2 + 8 * drift, 1) : 0;
    heading = off ? Math.floor(360 * drift) % 360 : st.heading;
    odo = st.odo;
    reportType = pick(kind === 'fixed' ? SENSOR_TYPE_CDF : PARKED_TYPE_CDF, r);
    placeLat = round(st.lat, 6);
    placeLng = round(st.lng, 6);
  }
  if (jumps && date === jumpOf(seed, did, plan)) {
    [lat, lng] = jumpedTo(seed, did, plan, lat, lng);
    placeLat = lat;
    placeLng = lng;
  }
  const values = TYPE_VALUES[reportType];
  let [reportValue, message] = values[hash32(seed, did, date, 6) % values.length] as [string, string];
  if (fixed !== undefined) [reportValue, message] = fixed === 'moving' ? ['moving', 'Unit started moving'] : ['stopped', 'Unit stopped'];
  const h = hash32(seed, did, date, 7);
  let battery: number;
  if (u.lowBattery) battery = 5 + (h % 11);
  else if (kind === 'fixed') battery = 100 - ((Math.floor(date / 86400) + hash32(seed, did, 8)) % 50);
  else if (kind === 'person') {
    const hour = (((date + c.tz * 3600) % 86400) + 86400) % 86400 / 3600;
    battery = hour >= 7 && hour < 23 ? 100 - Math.round((hour - 7) * 4) - (h % 4) : 95 + (h % 6);
  } else battery = moving ? 96 + (h % 5) : 90 + (h % 8);
  const noAddress = reportType === 'gps_fix' && reportValue === 'none';
  return {
    k: date,
    date,
    received: receivedOf(seed, did, date, trip !== undefined),
    lat: round(lat, 6),
    lng: round(lng, 6),
    alt: Math.round(c.alt + 15 * Math.sin(lat * 500) + 10 * Math.cos(lng * 400)),
    speed,
    heading,
    battery,
    odometer: kind === 'fixed' ? null : odometerOf(plan, odo, date),
    precision: 3 + (hash32(seed, did, date, 16) % 12),
    satellites: 4 + (hash32(seed, did, date, 17) % 9),
    temperature: kind === 'fixed' ? round(4 + 3 * Math.sin(date / 43200) + unit(seed, did, date, 18), 1) : null,
    reportType,
    reportValue,
    message,
    address: noAddress ? null : addressOf(seed, placeLat, placeLng),
  };
}

/** The report keyed k (its date), or undefined when the unit has none then. */
export function reportAt(seed: number, u: HistoryUnit, k: number): Report | undefined {
  const dates = datesIn(seed, u, k - 1, k);
  if (dates[0] !== k) return undefined;
  return reportFromPlan(seed, u, planDay(seed, u, dayOf(seed, k)), k);
}

/** The newest report received by `now`, if any. */
export function latestVisible(seed: number, u: HistoryUnit, now: number): Report | undefined {
  const k = latestVisibleK(seed, u, now);
  return k === undefined ? undefined : reportAt(seed, u, k);
}

/** One feature as JSON text; `nameJson` is the unit name already JSON-encoded. */
export function featureJson(aid: number, did: number, nameJson: string, r: Report): string {
  return (
    `{"type":"Feature","properties":{"aid":${aid},"did":${did},"name":${nameJson},"availability":"available",` +
    `"lat":${r.lat},"lng":${r.lng},"alt":${r.alt},"speed":${r.speed},"heading":${r.heading},"source":"gps",` +
    `"address":${r.address === null ? 'null' : JSON.stringify(r.address)},"date":${r.date},"battery":${r.battery},` +
    `"odometer":${r.odometer === null ? 'null' : r.odometer},"precision":${r.precision},"satellites":${r.satellites},` +
    `"temperature":${r.temperature === null ? 'null' : r.temperature},"reportType":"${r.reportType}",` +
    `"reportValue":${JSON.stringify(r.reportValue)},"message":${JSON.stringify(r.message)}},` +
    `"geometry":{"type":"Point","coordinates":[${r.lng},${r.lat}]}}`
  );
}
