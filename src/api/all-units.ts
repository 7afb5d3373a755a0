/** GET /all-units/ (unversioned: session cookie): every unit and user of the account in four collections. */
import type { Api } from './client.js';
import { checkEnvelope, shapeError } from './envelope.js';
import { parseJsonObject } from './reply.js';
import type { Unit, User } from './types.js';
import { collectionValues, tolerantUnit, tolerantUser } from './tolerant.js';

export const UNIT_CATEGORIES = ['device', 'sensor', 'trackedUser', 'dispatcher'] as const;
export type UnitCategory = (typeof UNIT_CATEGORIES)[number];
/** The reply's collections, one at least present. */
const COLLECTIONS = ['devices', 'sensors', 'trackedUsers', 'dispatchers'] as const;

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
  // A reply without the unit collections (a proxy's page, `{"success":true}`) is never an empty fleet.
  checkEnvelope(res, body, COLLECTIONS);
  const collection = <T>(name: (typeof COLLECTIONS)[number], idKey: string, normalise: (rec: unknown) => unknown): T[] => {
    // A collection in any JSON form (keyed object, array, null or left out beside the others); see collectionValues.
    const records = collectionValues(body[name]);
    if (records === undefined) throw shapeError(res, `"${name}" is not a collection`);
    return records.map((rec) => {
      if (!isObject(rec) || rec[idKey] === undefined || rec[idKey] === null) throw shapeError(res, `a record of "${name}" without "${idKey}"`);
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
