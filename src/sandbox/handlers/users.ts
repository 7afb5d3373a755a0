/** Users: POST /v2/users/, unversioned GET /users/ and /users/<uid>, singular DELETE /v2/user/<uid>, membership. */
import { json, ok, type RequestCtx, type TextReply } from '../http.js';
import type { Route } from '../http.js';
import { pathId, pathIdList } from '../validate.js';
import { createUser, deleteUser, findUser, listUsers, setUserGroups } from '../service/users.js';
import { keyed, userView } from '../service/views.js';

const uidOf = (c: RequestCtx): number => pathId(c.params.uid as string, 'uid');

function groups(kind: 'member' | 'viewer', on: boolean) {
  return (c: RequestCtx): TextReply => {
    const user = setUserGroups(c.db, uidOf(c), pathIdList(c.params.gids as string, 'gid'), kind, on);
    const success = kind === 'member'
      ? 'User group membership has been modified successfully!'
      : 'User group viewing rights have been modified successfully!';
    return ok(success, keyed([[user.uid, userView(c.db, user, true)]]));
  };
}

export const userRoutes: Route[] = [
  {
    method: 'POST', pattern: '/v2/users', auth: 'v2',
    handler: (c) => {
      const u = createUser(c.db, c.body);
      return json(200, { success: 'User has been created successfully!', ...keyed([[u.uid, userView(c.db, u, true)]]), id: u.uid });
    },
  },
  {
    method: 'GET', pattern: '/users', auth: 'session',
    handler: (c) => ok('Users have been successfully retrieved.', keyed(listUsers(c.db).map((u) => [u.uid, userView(c.db, u, true)]))),
  },
  {
    method: 'GET', pattern: '/users/:uid', auth: 'session',
    handler: (c) => {
      const u = findUser(c.db, uidOf(c));
      return ok('User has been successfully retrieved.', keyed([[u.uid, userView(c.db, u, true)]]));
    },
  },
  {
    method: 'DELETE', pattern: '/v2/user/:uid', auth: 'v2',
    handler: (c) => {
      deleteUser(c.db, uidOf(c));
      return ok('User has been deleted successfully!');
    },
  },
  { method: 'PUT', pattern: '/v2/users/:uid/groupMember/:gids', auth: 'v2', handler: groups('member', true) },
  { method: 'DELETE', pattern: '/v2/users/:uid/groupMember/:gids', auth: 'v2', handler: groups('member', false) },
  { method: 'PUT', pattern: '/v2/users/:uid/groupViewer/:gids', auth: 'v2', handler: groups('viewer', true) },
  { method: 'DELETE', pattern: '/v2/users/:uid/groupViewer/:gids', auth: 'v2', handler: groups('viewer', false) },
];
