/** Devices and sensors: the same endpoints under /v2/devices/ and /v2/sensors/. */
import type { Api } from './client.js';
import { idList, path } from './client.js';
import { decodeList, decodeOne, decodeSuccess, type Listed, type One } from './envelope.js';
import type { Unit } from './types.js';

export type UnitKind = 'devices' | 'sensors';
export type UnitLookup = 'did' | 'uniqueID' | 'trackerID';

export interface NewUnit {
  name: string;
  deviceType: string;
  trackerID?: string;
  uniqueID?: string;
  simPhoneNumber?: string;
}

export async function listUnits(api: Api, kind: UnitKind): Promise<Listed<Unit>> {
  return decodeList<Unit>(await api.call({ method: 'GET', path: `/v2/${kind}/` }), 'did');
}

export async function getUnit(api: Api, kind: UnitKind, by: UnitLookup, value: string | number): Promise<One<Unit>> {
  return decodeOne<Unit>(await api.call({ method: 'GET', path: path`/v2/${kind}/${by}/${value}` }), 'did');
}

export async function createUnit(api: Api, kind: UnitKind, unit: NewUnit): Promise<One<Unit>> {
  return decodeOne<Unit>(await api.call({ method: 'POST', path: `/v2/${kind}/`, body: unit }), 'did');
}

export async function updateUnit(api: Api, kind: UnitKind, did: number, changes: { name?: string; isActive?: 0 | 1 }): Promise<One<Unit>> {
  return decodeOne<Unit>(await api.call({ method: 'PATCH', path: path`/v2/${kind}/did/${did}`, body: changes }), 'did');
}

export async function changeUnitGroups(api: Api, kind: UnitKind, did: number, gids: number[], add: boolean): Promise<One<Unit>> {
  const res = await api.call({ method: add ? 'PUT' : 'DELETE', path: path`/v2/${kind}/did/${did}/groupMember/` + idList(gids) });
  return decodeOne<Unit>(res, 'did', { nested: true });
}

export async function deleteUnit(api: Api, kind: UnitKind, did: number): Promise<string> {
  return decodeSuccess(await api.call({ method: 'DELETE', path: path`/v2/${kind}/did/${did}` }));
}
