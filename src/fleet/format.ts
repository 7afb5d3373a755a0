/**
 * The fleet file (apiVersion trackctl/v1, kind Fleet): the declared state of an
 * account keyed by natural keys — group name, trackerID, uniqueID, e-mail, share
 * name — never by service ids. See docs/fleet-file.md.
 *
 * A field left out is not managed (its live value is kept); a top-level list left
 * out is not managed either, so --prune only deletes kinds whose list is present.
 */
import type { UserType } from '../api/users.js';

export const API_VERSION = 'trackctl/v1';
export const FLEET_KIND = 'Fleet';

/** Unix seconds, or never. */
export type Expiry = number | 'never';

export type UnitKind = 'device' | 'sensor';
export type ObjectKind = 'group' | UnitKind | 'user' | 'share';

export interface GroupSpec {
  name: string;
  /** The group's previous name: a live group of that name is renamed (PATCH) rather than a new one created. */
  renamedFrom?: string;
  /** Users (by e-mail) who may view the group. */
  viewers?: string[];
}

export interface UnitSpec {
  /** trackerID of a device, uniqueID of a sensor. */
  key: string;
  name: string;
  type: string;
  /** Sent on creation only: the service does not return a unit's SIM number. */
  simPhone?: string;
  active?: boolean;
  /** Groups (by name) the unit is a member of. */
  groups?: string[];
}

export interface UserSpec {
  email: string;
  name: string;
  type: UserType;
  simPhone?: string;
  active?: boolean;
  groups?: string[];
  viewerGroups?: string[];
}

/** What a share points at: a device (trackerID), sensor (uniqueID), tracked user (e-mail) or group (name). */
export interface TargetRef {
  kind: 'device' | 'sensor' | 'user' | 'group';
  key: string;
}

export interface ShareSpec {
  name: string;
  renamedFrom?: string;
  target: TargetRef;
  /** Left out: not managed (a new share never expires). */
  expires?: Expiry;
}

/** Where each entry sits in the file, for messages: "devices[3]". */
export interface Located<T> {
  spec: T;
  path: string;
}

export interface Fleet {
  groups?: Array<Located<GroupSpec>>;
  devices?: Array<Located<UnitSpec>>;
  sensors?: Array<Located<UnitSpec>>;
  users?: Array<Located<UserSpec>>;
  shares?: Array<Located<ShareSpec>>;
}

export interface Problem {
  path: string;
  message: string;
}

/** E-mail addresses compare case-insensitively, as the service does. */
export function emailKey(email: string): string {
  return email.toLowerCase();
}

/** Lists in the file compare as sets: order and repeats never make a difference. */
export function uniqueSorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareText);
}

/** Code-point order: the same on every machine and locale (export is deterministic). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function unitListName(kind: UnitKind): 'devices' | 'sensors' {
  return kind === 'device' ? 'devices' : 'sensors';
}

export function unitKeyField(kind: UnitKind): 'trackerID' | 'uniqueID' {
  return kind === 'device' ? 'trackerID' : 'uniqueID';
}
