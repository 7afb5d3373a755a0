/** Records as the service renders them, and the sandbox's persisted state. */

export interface UnitRecord {
  did: number;
  name: string;
  uniqueID: string | null;
  trackerID: string | null;
  deviceType: string;
  deviceCategory: 'device' | 'sensor' | 'trackedUser';
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
}

/** A unit as stored: the record's own fields plus what the history generator needs. */
export interface UnitEntry
  extends Pick<UnitRecord, 'did' | 'name' | 'uniqueID' | 'trackerID' | 'deviceType' | 'deviceCategory' | 'isActive' | 'guard' | 'groupMember'> {
  simPhoneNumber?: string;
  /** History exists from this unix time (seconds) ... */
  histFrom: number;
  /** ... until this time (null: still reporting). */
  histUntil: number | null;
  /** Battery profile: low-battery units report 5-15 %. */
  lowBattery?: boolean;
  /** Owner of a trackedUser device. */
  uid?: number;
}

export interface UserEntry {
  uid: number;
  did?: number;
  name: string;
  email: string;
  userType: 'trackedUser' | 'dispatcher';
  loginLevel: 'user' | 'admin';
  isActive: number;
  country: string;
  timezone: string;
  lastLoginTime: number;
  simPhoneNumber: string;
  groupViewer: number[];
  groupMember: number[];
}

export interface GroupEntry {
  gid: number;
  name: string;
  groupMembers: number[];
  groupViewers: number[];
}

export interface ShareEntry {
  sid: string;
  /** Integer row number, returned as `id` by the create reply (the interface says ids are integers). */
  n: number;
  uid: number;
  did?: number;
  gid?: number;
  name: string;
  timestamp: number;
  expiration: number | 'never';
}

export interface RefreshTokenEntry {
  uid: number;
  clientId: string;
  exp: number;
}

export interface SessionEntry {
  uid: number;
  exp: number;
}

export interface SandboxState {
  version: 1;
  seed: number;
  /** Unix seconds when the state was created; the demo history runs for a week before it. */
  epoch: number;
  aid: number;
  /** HMAC secret for access tokens (hex); kept so tokens survive a restart. */
  secret: string;
  /** Next did/uid (units and users share one id space so membership ids are unambiguous). */
  nextId: number;
  nextGid: number;
  /** Counter feeding seed-deterministic share ids. */
  sidCounter: number;
  units: Record<string, UnitEntry>;
  users: Record<string, UserEntry>;
  groups: Record<string, GroupEntry>;
  shares: Record<string, ShareEntry>;
  /** Passwords of the accounts that can sign in (by uid). */
  passwords: Record<string, string>;
  refreshTokens: Record<string, RefreshTokenEntry>;
  sessions: Record<string, SessionEntry>;
}

export interface Principal {
  aid: number;
  uid: number;
  via: 'bearer' | 'cookie';
}
