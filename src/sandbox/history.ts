/**
 * Position history as a pure function of (seed, did, time): nothing is stored, so the
 * state file stays small and history keeps growing as the sandbox clock advances.
 *
 * Every unit reports every INTERVAL seconds (report k is dated k*INTERVAL + phase + jitter).
 * Most reports are received a few seconds after their date; about 5 % arrive late,
 * 1 to 6 hours after their date. A report is visible once received <= now.
 */
import { hash32, unit } from './prng.js';

export const INTERVAL = 600;
export const LATE_RATE = 0.05;
/** The longest delay between a report's date and its reception, in seconds. */
export const MAX_DELAY = 6 * 3600;

export const REPORT_TYPES = [
  'report', 'reporting_mode', 'availability', 'battery_state', 'check_in', 'crash', 'doze',
  'external_power', 'gps_fix', 'job_state', 'motion_state', 'note', 'reporting_state', 'sensor', 'sos',
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export interface HistoryUnit {
  did: number;
  name: string;
  deviceCategory: string;
  histFrom: number;
  histUntil: number | null;
  lowBattery?: boolean;
}

export interface Report {
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

/** Where the fleet lives, picked by seed. */
const CENTRES: ReadonlyArray<[number, number, string]> = [
  [39.7392, -104.9903, 'Denver, CO'],
  [41.8781, -87.6298, 'Chicago, IL'],
  [47.6062, -122.3321, 'Seattle, WA'],
  [33.749, -84.388, 'Atlanta, GA'],
];
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

const DEVICE_TYPE_CDF: ReadonlyArray<[number, ReportType]> = [
  [0.62, 'report'], [0.72, 'motion_state'], [0.76, 'gps_fix'], [0.79, 'battery_state'], [0.82, 'reporting_mode'],
  [0.85, 'availability'], [0.87, 'check_in'], [0.89, 'doze'], [0.91, 'external_power'], [0.93, 'job_state'],
  [0.95, 'note'], [0.97, 'reporting_state'], [0.985, 'sensor'], [0.995, 'crash'], [1, 'sos'],
];
const SENSOR_TYPE_CDF: ReadonlyArray<[number, ReportType]> = [
  [0.7, 'sensor'], [0.85, 'report'], [0.9, 'battery_state'], [0.94, 'availability'], [0.97, 'reporting_state'],
  [0.99, 'doze'], [1, 'external_power'],
];

export function centreFor(seed: number): [number, number, string] {
  return CENTRES[hash32(seed, 77) % CENTRES.length] as [number, number, string];
}

export function phaseOf(seed: number, did: number): number {
  return hash32(seed, did, 1) % INTERVAL;
}

/** Report date and received time of report k (no existence check). */
export function timesOf(seed: number, did: number, k: number): [number, number] {
  const date = k * INTERVAL + phaseOf(seed, did) + (hash32(seed, did, k, 2) % 45);
  const late = unit(seed, did, k, 3) < LATE_RATE;
  const delay = late ? 3600 + (hash32(seed, did, k, 4) % (MAX_DELAY - 3600)) : 2 + (hash32(seed, did, k, 4) % 28);
  return [date, date + delay];
}

function exists(u: HistoryUnit, date: number): boolean {
  return date >= u.histFrom && (u.histUntil === null || date <= u.histUntil);
}

const round = (n: number, places: number): number => {
  const f = 10 ** places;
  return Math.round(n * f) / f;
};

function position(seed: number, did: number, k: number, sensor: boolean): [number, number] {
  const [clat, clng] = centreFor(seed);
  const hlat = clat + (unit(seed, did, 10) - 0.5) * 0.3;
  const hlng = clng + (unit(seed, did, 11) - 0.5) * 0.4;
  if (sensor) return [hlat, hlng];
  // parked for a block of an hour now and then: hold the block's first position
  const kk = unit(seed, did, Math.floor(k / 6), 12) < 0.35 ? Math.floor(k / 6) * 6 : k;
  const a = unit(seed, did, 13) * 6.283;
  const b = unit(seed, did, 14) * 6.283;
  return [
    hlat + 0.03 * Math.sin(kk / 17 + a) + 0.01 * Math.sin(kk / 5.3 + b),
    hlng + 0.04 * Math.cos(kk / 19 + a) + 0.012 * Math.sin(kk / 4.1 + b),
  ];
}

/** Report k of a unit, or undefined when the unit has no report k. */
export function reportAt(seed: number, u: HistoryUnit, k: number): Report | undefined {
  const [date, received] = timesOf(seed, u.did, k);
  if (!exists(u, date)) return undefined;
  const sensor = u.deviceCategory === 'sensor';
  const [lat, lng] = position(seed, u.did, k, sensor);
  const [plat, plng] = position(seed, u.did, k - 1, sensor);
  const dy = (lat - plat) * 111.2;
  const dx = (lng - plng) * 111.2 * Math.cos((lat * Math.PI) / 180);
  const km = Math.sqrt(dx * dx + dy * dy);
  const cdf = sensor ? SENSOR_TYPE_CDF : DEVICE_TYPE_CDF;
  const r = unit(seed, u.did, k, 5);
  let reportType: ReportType = 'report';
  for (const [p, t] of cdf) {
    if (r < p) {
      reportType = t;
      break;
    }
  }
  const values = TYPE_VALUES[reportType];
  const [reportValue, message] = values[hash32(seed, u.did, k, 6) % values.length] as [string, string];
  const battery = u.lowBattery ? 5 + (hash32(seed, u.did, k, 7) % 11) : 100 - ((k + hash32(seed, u.did, 8)) % 144) * 0.5;
  const noAddress = reportType === 'gps_fix' && reportValue === 'none';
  const street = STREETS[hash32(seed, u.did, Math.floor(k / 3), 9) % STREETS.length] as string;
  return {
    k,
    date,
    received,
    lat: round(lat, 6),
    lng: round(lng, 6),
    alt: Math.round(1600 + 40 * Math.sin(k / 11)) / 1,
    // the path is a smooth curve, not a road: report a plausible speed when the unit moved at all
    speed: km < 0.001 ? 0 : round(15 + 75 * unit(seed, u.did, k, 22), 1),
    heading: Math.round(((Math.atan2(dx, dy) * 180) / Math.PI + 360) % 360),
    battery: Math.round(battery),
    odometer: sensor ? null : round(5000 + (hash32(seed, u.did, 15) % 80000) + (k - 2_600_000) * 0.85, 1),
    precision: 3 + (hash32(seed, u.did, k, 16) % 12),
    satellites: 4 + (hash32(seed, u.did, k, 17) % 9),
    temperature: sensor ? round(4 + 3 * Math.sin(k / 72) + unit(seed, u.did, k, 18), 1) : null,
    reportType,
    reportValue,
    message,
    address: noAddress ? null : `${10 + (hash32(seed, u.did, Math.floor(k / 3), 19) % 890)} ${street}, ${centreFor(seed)[2]}`,
  };
}

/** The k range that may hold reports dated in (lo, hi]. */
export function kRange(seed: number, did: number, lo: number, hi: number): [number, number] {
  const phase = phaseOf(seed, did);
  return [Math.floor((lo - phase) / INTERVAL) - 1, Math.floor((hi - phase) / INTERVAL) + 1];
}

/** The index k of the newest report received by `now`, or undefined when none is. */
export function latestVisibleK(seed: number, u: HistoryUnit, now: number): number | undefined {
  const top = u.histUntil === null ? now : Math.min(now, u.histUntil);
  if (top < u.histFrom) return undefined;
  const phase = phaseOf(seed, u.did);
  const kLo = Math.floor((u.histFrom - phase) / INTERVAL) - 1;
  for (let k = Math.floor((top - phase) / INTERVAL) + 1; k >= kLo; k--) {
    const [date, received] = timesOf(seed, u.did, k);
    if (date < u.histFrom) return undefined;
    if (received <= now && exists(u, date)) return k;
  }
  return undefined;
}

/**
 * Until when report k stays the newest visible one: the earliest reception among later
 * reports. A report received on time bounds the search: nothing after it arrives sooner.
 */
export function latestValidUntil(seed: number, u: HistoryUnit, k: number): number {
  let until = Infinity;
  for (let kk = k + 1; kk <= k + Math.ceil(MAX_DELAY / INTERVAL) + 2; kk++) {
    const [date, received] = timesOf(seed, u.did, kk);
    if (!exists(u, date)) break;
    if (received < until) until = received;
    if (received - date < 60) break;
  }
  return until;
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
