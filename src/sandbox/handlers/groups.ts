/** /v2/groups/ — membership and viewer replies wrap the group in an extra `result` level, as the interface shows. */
import { json, ok, type RequestCtx, type TextReply } from '../http.js';
import type { Route } from '../http.js';
import type { GroupEntry } from '../types.js';
import { pathId, pathIdList } from '../validate.js';
import { createGroup, deleteGroup, findGroup, listGroups, patchGroup, setGroupMembers, setGroupViewers } from '../service/groups.js';
import { groupView, keyed } from '../service/views.js';

const gidOf = (c: RequestCtx): number => pathId(c.params.gid as string, 'gid');
const single = (g: GroupEntry): { result: Record<string, unknown>; resultCount: number } => keyed([[g.gid, groupView(g)]]);

/** `{success, result: {result: {<gid>: group}}, resultCount}` */
const nested = (success: string, g: GroupEntry): TextReply =>
  json(200, { success, result: { result: { [g.gid]: groupView(g) } }, resultCount: 1 });

function membership(kind: 'members' | 'viewers', on: boolean) {
  return (c: RequestCtx): TextReply => {
    const gid = gidOf(c);
    const ids = pathIdList(c.params.ids as string, 'id');
    const g = kind === 'members' ? setGroupMembers(c.db, gid, ids, on) : setGroupViewers(c.db, gid, ids, on);
    return nested(kind === 'members' ? 'Group members have been modified successfully!' : 'Group viewers have been modified successfully!', g);
  };
}

export const groupRoutes: Route[] = [
  {
    method: 'GET', pattern: '/v2/groups', auth: 'v2',
    handler: (c) => ok('Groups have been successfully retrieved.', keyed(listGroups(c.db).map((g) => [g.gid, groupView(g)]))),
  },
  {
    method: 'POST', pattern: '/v2/groups', auth: 'v2',
    handler: (c) => {
      const g = createGroup(c.db, c.body);
      return json(200, { success: 'Group has been created successfully!', ...single(g), id: g.gid });
    },
  },
  {
    method: 'GET', pattern: '/v2/groups/:gid', auth: 'v2',
    handler: (c) => ok('Group has been successfully retrieved.', single(findGroup(c.db, gidOf(c)))),
  },
  {
    method: 'PATCH', pattern: '/v2/groups/:gid', auth: 'v2',
    handler: (c) => ok('Group has been modified successfully!', single(patchGroup(c.db, gidOf(c), c.body))),
  },
  {
    method: 'DELETE', pattern: '/v2/groups/:gid', auth: 'v2',
    handler: (c) => {
      deleteGroup(c.db, gidOf(c));
      return ok('Group has been deleted successfully!');
    },
  },
  { method: 'PUT', pattern: '/v2/groups/:gid/groupMembers/:ids', auth: 'v2', handler: membership('members', true) },
  { method: 'DELETE', pattern: '/v2/groups/:gid/groupMembers/:ids', auth: 'v2', handler: membership('members', false) },
  { method: 'PUT', pattern: '/v2/groups/:gid/groupViewers/:ids', auth: 'v2', handler: membership('viewers', true) },
  { method: 'DELETE', pattern: '/v2/groups/:gid/groupViewers/:ids', auth: 'v2', handler: membership('viewers', false) },
];
