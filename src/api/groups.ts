/** Groups: /v2/groups/ with member and viewer lists; membership replies nest the group in an extra `result`. */
import type { Api } from './client.js';
import { idList, path } from './client.js';
import { decodeList, decodeOne, decodeSuccess, type Listed, type One } from './envelope.js';
import type { Group } from './types.js';

/** members: units and users in the group; viewers: users who may view it. */
export type GroupRole = 'members' | 'viewers';

export async function listGroups(api: Api): Promise<Listed<Group>> {
  return decodeList<Group>(await api.call({ method: 'GET', path: '/v2/groups/' }), 'gid');
}

export async function getGroup(api: Api, gid: number): Promise<One<Group>> {
  return decodeOne<Group>(await api.call({ method: 'GET', path: path`/v2/groups/${gid}` }), 'gid');
}

export async function createGroup(api: Api, name: string): Promise<One<Group>> {
  return decodeOne<Group>(await api.call({ method: 'POST', path: '/v2/groups/', body: { name } }), 'gid');
}

export async function renameGroup(api: Api, gid: number, name: string): Promise<One<Group>> {
  return decodeOne<Group>(await api.call({ method: 'PATCH', path: path`/v2/groups/${gid}`, body: { name } }), 'gid');
}

export async function changeGroupMembership(api: Api, gid: number, role: GroupRole, ids: number[], add: boolean): Promise<One<Group>> {
  const segment = role === 'members' ? 'groupMembers' : 'groupViewers';
  const res = await api.call({ method: add ? 'PUT' : 'DELETE', path: path`/v2/groups/${gid}/${segment}/` + idList(ids) });
  return decodeOne<Group>(res, 'gid', { nested: true });
}

export async function deleteGroup(api: Api, gid: number): Promise<string> {
  return decodeSuccess(await api.call({ method: 'DELETE', path: path`/v2/groups/${gid}` }));
}
