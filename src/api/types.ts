/** Records of the service, as the interface describes them. */

export interface Unit {
  did: number;
  name: string;
  uniqueID: string | null;
  trackerID: string | null;
  deviceType: string;
  deviceCategory: string;
  isActive: number;
  guard: string | null;
  humidity: number | null;
  airPressure: number | null;
  temperature: number | null;
  lastBatteryLevel: number;
  lastGPSTimestamp: number;
  lastKnownAddress: string;
  lastValidLatitude: number;
  lastValidLongitude: number;
  odometerKM: number;
  groupMember: number[];
  [key: string]: unknown;
}

/** Every field of a unit record, for --fields validation before any request. */
export const UNIT_FIELDS = [
  'did', 'name', 'uniqueID', 'trackerID', 'deviceType', 'deviceCategory', 'isActive', 'guard', 'humidity', 'airPressure',
  'temperature', 'lastBatteryLevel', 'lastGPSTimestamp', 'lastKnownAddress', 'lastValidLatitude', 'lastValidLongitude',
  'odometerKM', 'groupMember',
] as const;

export interface User {
  uid: number;
  did?: number;
  device?: Unit;
  name: string;
  email: string;
  userType: 'trackedUser' | 'dispatcher' | string;
  loginLevel: string;
  isActive: number;
  country: string;
  timezone: string;
  lastLoginTime: number;
  simPhoneNumber?: string;
  groupViewer: number[];
  groupMember: number[];
  [key: string]: unknown;
}

/** Every field of a user record (the interface's), for --fields validation before any request. */
export const USER_FIELDS = [
  'uid', 'did', 'device', 'name', 'email', 'userType', 'loginLevel', 'isActive', 'country', 'timezone', 'lastLoginTime',
  'simPhoneNumber', 'groupViewer', 'groupMember',
] as const;

export interface Group {
  gid: number;
  name: string;
  groupMembers: number[];
  groupViewers: number[];
  [key: string]: unknown;
}

/** Every field of a group record. */
export const GROUP_FIELDS = ['gid', 'name', 'groupMembers', 'groupViewers'] as const;

export interface Share {
  sid: string;
  uid: number;
  did?: number;
  device?: Unit;
  gid?: number;
  group?: Record<string, Group>;
  name: string;
  timestamp: number;
  expiration: number | 'never' | string;
  [key: string]: unknown;
}

/** Every field of a share record. */
export const SHARE_FIELDS = ['sid', 'uid', 'did', 'device', 'gid', 'group', 'name', 'timestamp', 'expiration'] as const;

export interface ReportFeature {
  type: 'Feature';
  properties: {
    aid: number;
    did: number;
    name: string;
    availability: string;
    lat: number;
    lng: number;
    alt: number;
    speed: number;
    heading: number;
    source: string;
    address: string | null;
    date: number;
    battery: number;
    odometer: number | null;
    precision: number;
    satellites: number;
    temperature: number | null;
    reportType: string;
    reportValue: string;
    message: string;
  };
  geometry: { type: 'Point'; coordinates: [number, number] };
}

/** The properties of a report the report algorithms read (src/reports/), and the message a poll's report key holds (src/runs/cursor.ts); every ReportFeature is one. */
export interface ReportPoint {
  properties: Pick<ReportFeature['properties'], 'did' | 'name' | 'lat' | 'lng' | 'speed' | 'date' | 'odometer' | 'address' | 'reportType' | 'reportValue'> &
    Partial<Pick<ReportFeature['properties'], 'message'>>;
}

/** Every property of a report: the fields of history's rows. */
export const REPORT_PROPERTY_FIELDS = [
  'aid', 'did', 'name', 'availability', 'lat', 'lng', 'alt', 'speed', 'heading', 'source', 'address', 'date', 'battery',
  'odometer', 'precision', 'satellites', 'temperature', 'reportType', 'reportValue', 'message',
] as const;

export const REPORT_TYPES = [
  'report', 'reporting_mode', 'availability', 'battery_state', 'check_in', 'crash', 'doze', 'external_power',
  'gps_fix', 'job_state', 'motion_state', 'note', 'reporting_state', 'sensor', 'sos',
] as const;
