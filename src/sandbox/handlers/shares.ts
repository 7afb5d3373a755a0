/** /v2/location-shares/ */
import { json, ok, type RequestCtx } from '../http.js';
import type { Route } from '../http.js';
import { keyed, shareView } from '../service/views.js';
import { createShare, deleteShare, findShare, listShares, patchShare } from '../service/shares.js';

const one = (c: RequestCtx, sid: string): { result: Record<string, unknown>; resultCount: number } =>
  keyed([[sid, shareView(c.db, findShare(c.db, sid))]]);

export const shareRoutes: Route[] = [
  {
    method: 'GET', pattern: '/v2/location-shares', auth: 'v2',
    handler: (c) => ok('Location Shares have been successfully retrieved.', keyed(listShares(c.db).map((s) => [s.sid, shareView(c.db, s)]))),
  },
  {
    method: 'GET', pattern: '/v2/location-shares/:sid', auth: 'v2',
    handler: (c) => ok('Location Share has been successfully retrieved.', one(c, c.params.sid as string)),
  },
  {
    method: 'POST', pattern: '/v2/location-shares', auth: 'v2',
    handler: (c) => {
      const s = createShare(c.db, c.principal?.uid ?? 0, c.body);
      // The interface says every create carries an integer `id`; a share's key is its sid, so `id` is the
      // share's integer row number and clients must take the sid from the key of `result`.
      return json(200, { success: 'Location Share has been created successfully!', ...one(c, s.sid), id: s.n });
    },
  },
  {
    method: 'PATCH', pattern: '/v2/location-shares/:sid', auth: 'v2',
    handler: (c) => {
      const s = patchShare(c.db, c.params.sid as string, c.body);
      return ok('Location Share has been modified successfully!', one(c, s.sid));
    },
  },
  {
    method: 'DELETE', pattern: '/v2/location-shares/:sid', auth: 'v2',
    handler: (c) => {
      deleteShare(c.db, c.params.sid as string);
      return ok('Deleted Successfully!');
    },
  },
];
