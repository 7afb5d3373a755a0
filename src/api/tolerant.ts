/**
 * Being liberal in what we accept from the service, where the interface leaves room.
 * The interface gives types but shows samples only, and a real service of this kind
 * sends numbers as numeric strings ("2004", "61.5"), null where a value is missing,
 * empty collections as [] or null, and now and then a 200 reply whose body is an
 * error. Records are brought to the interface's types here, once, so every command
 * after this point (filters, sorting, times, tables, reports) sees one shape:
 *
 * - a numeric field holding a numeric string becomes that number ("" becomes null);
 * - a list of ids that is null or missing becomes []; ids in it that are strings become numbers;
 * - every other field, known or not, is passed through unchanged.
 *
 * --raw still prints the body exactly as the service sent it.
 */
import { ApiError } from '../errors.js';

type Rec = Record<string, unknown>;

const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** A number, or a string holding one, as a number; "" as null; anything else unchanged. */
export function toNumber(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return null;
  if (!NUMERIC.test(value)) return value;
  const n = Number(value);
  return Number.isFinite(n) ? n : value;
}

function isObject(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function numbers(rec: Rec, fields: readonly string[]): void {
  for (const field of fields) if (typeof rec[field] === 'string') rec[field] = toNumber(rec[field]);
}

function idLists(rec: Rec, fields: readonly string[]): void {
  for (const field of fields) {
    const value = rec[field];
    if (value === null || value === undefined || (isObject(value) && Object.keys(value).length === 0)) rec[field] = [];
    else if (Array.isArray(value)) rec[field] = value.map(toNumber);
  }
}

const UNIT_NUMBERS = [
  'did', 'isActive', 'humidity', 'airPressure', 'temperature', 'lastBatteryLevel', 'lastGPSTimestamp',
  'lastValidLatitude', 'lastValidLongitude', 'odometerKM',
] as const;
const USER_NUMBERS = ['uid', 'did', 'isActive', 'lastLoginTime'] as const;
const SHARE_NUMBERS = ['uid', 'did', 'gid', 'timestamp'] as const;
const FEATURE_NUMBERS = [
  'aid', 'did', 'lat', 'lng', 'alt', 'speed', 'heading', 'date', 'battery', 'odometer', 'precision', 'satellites', 'temperature',
] as const;

export function tolerantUnit<T>(rec: T): T {
  if (!isObject(rec)) return rec;
  numbers(rec, UNIT_NUMBERS);
  idLists(rec, ['groupMember']);
  return rec;
}

export function tolerantUser<T>(rec: T): T {
  if (!isObject(rec)) return rec;
  numbers(rec, USER_NUMBERS);
  idLists(rec, ['groupMember', 'groupViewer']);
  if (isObject(rec.device)) tolerantUnit(rec.device);
  return rec;
}

export function tolerantGroup<T>(rec: T): T {
  if (!isObject(rec)) return rec;
  numbers(rec, ['gid']);
  idLists(rec, ['groupMembers', 'groupViewers']);
  return rec;
}

export function tolerantShare<T>(rec: T): T {
  if (!isObject(rec)) return rec;
  numbers(rec, SHARE_NUMBERS);
  // A timestamp or the string "never".
  const share: Rec = rec;
  if (typeof share.expiration === 'string' && share.expiration !== 'never') share.expiration = toNumber(share.expiration);
  if (isObject(share.device)) tolerantUnit(share.device);
  if (isObject(share.group)) for (const group of Object.values(share.group)) tolerantGroup(group);
  return rec;
}

/** A report feature's properties and coordinates. */
export function tolerantFeature<T>(feature: T): T {
  if (!isObject(feature)) return feature;
  if (isObject(feature.properties)) numbers(feature.properties, FEATURE_NUMBERS);
  const geometry = feature.geometry;
  if (isObject(geometry) && Array.isArray(geometry.coordinates)) geometry.coordinates = geometry.coordinates.map(toNumber);
  return feature;
}

/** The normaliser for records keyed by this id field. */
export function tolerantRecord(idKey: string): (rec: unknown) => unknown {
  switch (idKey) {
    case 'did':
      return tolerantUnit;
    case 'uid':
      return tolerantUser;
    case 'gid':
      return tolerantGroup;
    case 'sid':
      return tolerantShare;
    default:
      return (rec) => rec;
  }
}

/**
 * The records of a collection in any JSON form a service uses: an object keyed by id,
 * an array (empty maps serialised as [] by some languages), or null / absent for none.
 * Undefined when the value is none of these.
 */
export function collectionValues(value: unknown): unknown[] | undefined {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  if (isObject(value)) return Object.values(value);
  return undefined;
}

const FALSE_TEXT = /^\s*(false|0|)\s*$/i;

/**
 * The service's own error text when a 2xx body is an error in disguise: no `success`
 * message, and an `error` (OAuth style, with `error_description`), `errors`, or
 * `success: false` with a `message`; or a `success` whose text means false ("false", "0",
 * ""), told by its `message` or else the body itself. Undefined for a real success.
 */
export function errorInSuccess(body: Rec): string | undefined {
  const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
  const described = text(body.error_description) ?? text(body.message) ?? text(body.detail);
  if (typeof body.success === 'string') {
    // A false written as text (false, 0, or PHP's empty string) is no success message.
    return FALSE_TEXT.test(body.success) ? (described ?? JSON.stringify(body)) : undefined;
  }
  const error = body.error;
  if (error !== undefined && error !== null && error !== false && error !== '') {
    if (isObject(error)) return text(error.message) ?? described ?? JSON.stringify(error);
    return described ?? text(error) ?? JSON.stringify(error);
  }
  const errors = body.errors;
  if (Array.isArray(errors) && errors.length > 0) {
    return errors.map((e) => (isObject(e) ? (text(e.message) ?? JSON.stringify(e)) : String(e))).join('; ');
  }
  if (isObject(errors) && Object.keys(errors).length > 0) return described ?? JSON.stringify(errors);
  if (body.success === false || body.status === 'error') return described ?? 'the service reported a failure without a message';
  return undefined;
}

export function errorReplyError(status: number, message: string, sanitize: (s: string) => string): ApiError {
  return new ApiError(`the service answered ${status} but reported an error: ${sanitize(message)}`, status);
}
