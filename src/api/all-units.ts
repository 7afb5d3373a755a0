/** GET /all-units/ (unversioned: session cookie): every unit and user of the account in four collections. */
import { ApiError } from '../errors.js';
import type { Api } from './client.js';
import { excerpt, parseJsonObject } from './reply.js';
import type { Unit, User } from './types.js';
import { collectionValues, tolerantUnit, tolerantUser } from './tolerant.js';

export const UNIT_CATEGORIES = ['device', 'sensor', 'trackedUser', 'dispatcher'] as const;
export type UnitCategory = (typeof UNIT_CATEGORIES)[number];

export interface AllUnits {
  devices: Unit[];
  sensors: Unit[];
  trackedUsers: User[];
  dispatchers: User[];
  raw: string;
  /** The service's clock when it answered (Date header), unix seconds. */
  serverTime?: number;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export async function getAllUnits(api: Api): Promise<AllUnits> {
  const res = await api.call({ method: 'GET', path: '/all-units/' });
  const body = parseJsonObject(res);
  // JSON with neither `success` nor a collection is not the service's (a proxy's page): never an empty fleet.
  if (!('success' in body) && !['devices', 'sensors', 'trackedUsers', 'dispatchers'].some((name) => name in body)) {
    throw new ApiError(`the service sent JSON of an unexpected shape (status ${res.status}): neither "success", the unit collections nor "error": ${excerpt(res.text)}`, res.status);
  }
  const collection = <T>(name: string, idKey: string, normalise: (rec: unknown) => unknown): T[] => {
    // A collection in any JSON form (keyed object, array, null or left out); see collectionValues.
    const records = collectionValues(body[name]);
    const shapeError = (what: string): ApiError =>
      new ApiError(`the service sent JSON of an unexpected shape (status ${res.status}): ${what}: ${excerpt(res.text)}`, res.status);
    if (records === undefined) throw shapeError(`"${name}" is not a collection`);
    return records.map((rec) => {
      if (!isObject(rec) || rec[idKey] === undefined || rec[idKey] === null) throw shapeError(`a record of "${name}" without "${idKey}"`);
      return normalise(rec) as T;
    });
  };
  return {
    devices: collection<Unit>('devices', 'did', tolerantUnit),
    sensors: collection<Unit>('sensors', 'did', tolerantUnit),
    trackedUsers: collection<User>('trackedUsers', 'uid', tolerantUser),
    dispatchers: collection<User>('dispatchers', 'uid', tolerantUser),
    raw: res.text,
    serverTime: serverTime(res.headers.date),
  };
}

function serverTime(header: unknown): number | undefined {
  const ms = typeof header === 'string' ? Date.parse(header) : Number.NaN;
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}
