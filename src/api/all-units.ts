/** GET /all-units/ (unversioned: session cookie): every unit and user of the account in four collections. */
import { ApiError } from '../errors.js';
import type { Api } from './client.js';
import { excerpt, parseJsonObject } from './client.js';
import type { Unit, User } from './types.js';

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
  const collection = <T>(name: string, idKey: string): T[] => {
    const value = body[name];
    // A collection the service leaves out is empty; one of the wrong shape is an error.
    if (value === undefined || value === null) return [];
    const shapeError = (what: string): ApiError =>
      new ApiError(`the service sent JSON of an unexpected shape (status ${res.status}): ${what}: ${excerpt(res.text)}`, res.status);
    // An empty collection may come as [] from services that serialise empty maps as lists.
    if (Array.isArray(value) && value.length === 0) return [];
    if (!isObject(value)) throw shapeError(`"${name}" is not an object`);
    return Object.values(value).map((rec) => {
      if (!isObject(rec) || rec[idKey] === undefined) throw shapeError(`a record of "${name}" without "${idKey}"`);
      return rec as T;
    });
  };
  return {
    devices: collection<Unit>('devices', 'did'),
    sensors: collection<Unit>('sensors', 'did'),
    trackedUsers: collection<User>('trackedUsers', 'uid'),
    dispatchers: collection<User>('dispatchers', 'uid'),
    raw: res.text,
    serverTime: serverTime(res.headers.date),
  };
}

function serverTime(header: unknown): number | undefined {
  const ms = typeof header === 'string' ? Date.parse(header) : Number.NaN;
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}
