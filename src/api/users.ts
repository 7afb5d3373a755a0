/** Users: unversioned GET /users/ (session cookie), POST /v2/users/, membership, and the singular DELETE /v2/user/<uid>. */
import type { Api } from './client.js';
import { idList, path } from './client.js';
import { decodeList, decodeOne, decodeSuccess, type Listed, type One } from './envelope.js';
import type { User } from './types.js';

export const USER_TYPES = ['trackedUser', 'dispatcher'] as const;
export type UserType = (typeof USER_TYPES)[number];

/** member: the groups the user belongs to; viewer: the groups the user may view. */
export type UserGroupRole = 'member' | 'viewer';

export interface NewUser {
  name: string;
  email: string;
  userType: UserType;
  simPhoneNumber?: string;
}

export async function listUsers(api: Api): Promise<Listed<User>> {
  return decodeList<User>(await api.call({ method: 'GET', path: '/users/' }), 'uid');
}

export async function getUser(api: Api, uid: number): Promise<One<User>> {
  return decodeOne<User>(await api.call({ method: 'GET', path: path`/users/${uid}` }), 'uid');
}

export async function createUser(api: Api, user: NewUser): Promise<One<User>> {
  return decodeOne<User>(await api.call({ method: 'POST', path: '/v2/users/', body: user }), 'uid');
}

export async function changeUserGroups(api: Api, uid: number, role: UserGroupRole, gids: number[], add: boolean): Promise<One<User>> {
  const segment = role === 'member' ? 'groupMember' : 'groupViewer';
  const res = await api.call({ method: add ? 'PUT' : 'DELETE', path: path`/v2/users/${uid}/${segment}/` + idList(gids) });
  // The interface does not show these replies nested, but other membership replies are: accept both.
  return decodeOne<User>(res, 'uid', { nested: true });
}

export async function deleteUser(api: Api, uid: number): Promise<string> {
  return decodeSuccess(await api.call({ method: 'DELETE', path: path`/v2/user/${uid}` }));
}
