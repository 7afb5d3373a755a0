/** /v2/devices/ and /v2/sensors/ (same shape; each only sees its own deviceCategory) and GET /all-units/. */
import { json, ok, rawJson, type RequestCtx, type TextReply } from '../http.js';
import type { Route } from '../http.js';
import type { UnitEntry } from '../types.js';
import { pathId, pathIdList } from '../validate.js';
import type { Db } from '../service/db.js';
import { type Category, createUnit, deleteUnit, findUnit, type LookupKey, listUnits, patchUnit, setUnitGroups } from '../service/units.js';
import { allUnitsUserView, keyed, unitPiece, unitView } from '../service/views.js';

const TITLE: Record<Category, [string, string]> = { device: ['Device', 'Devices'], sensor: ['Sensor', 'Sensors'] };

/** `{<head>"<did>":{...},...<tail>}` for many units, from per-unit pieces (see unitPiece). */
function renderUnits(db: Db, units: UnitEntry[], head: string, tail: string): Buffer {
  const now = db.now();
  const parts = new Array<Buffer>(units.length + 2);
  for (let i = 0; i < units.length; i++) {
    const piece = unitPiece(db, units[i] as UnitEntry, now);
    parts[i + 1] = i === 0 ? piece.subarray(1) : piece; // the first piece loses its leading comma
  }
  parts[0] = Buffer.from(head);
  parts[units.length + 1] = Buffer.from(tail);
  return Buffer.concat(parts);
}

function one(c: RequestCtx, u: UnitEntry, success: string): TextReply {
  return ok(success, keyed([[u.did, unitView(c.db, u)]]));
}

function routesFor(category: Category): Route[] {
  const [one1, many] = TITLE[category];
  const base = `/v2/${category}s`;
  const didOf = (c: RequestCtx): number => pathId(c.params.did as string, 'did');
  const lookup = (key: LookupKey): Route => ({
    method: 'GET', pattern: `${base}/${key}/:value`, auth: 'v2',
    handler: (c) => {
      const raw = c.params.value as string;
      const value = key === 'did' ? pathId(raw, 'did') : raw;
      return one(c, findUnit(c.db, category, key, value), `${one1} has been successfully retrieved.`);
    },
  });
  const membership = (on: boolean): Route => ({
    method: on ? 'PUT' : 'DELETE', pattern: `${base}/did/:did/groupMember/:gids`, auth: 'v2',
    handler: (c) => {
      const u = setUnitGroups(c.db, category, didOf(c), pathIdList(c.params.gids as string, 'gid'), on);
      return one(c, u, `${one1} group membership has been modified successfully!`);
    },
  });
  return [
    {
      method: 'GET', pattern: base, auth: 'v2',
      handler: (c) => {
        const text = c.db.cached(`list:${category}`, () => {
          const units = listUnits(c.db, category);
          return renderUnits(c.db, units, `{"success":"${many} have been successfully retrieved.","result":{`, `},"resultCount":${units.length}}`);
        }, true);
        return rawJson(200, text);
      },
    },
    {
      method: 'POST', pattern: base, auth: 'v2',
      handler: (c) => {
        const u = createUnit(c.db, category, c.body);
        return json(200, { success: `${one1} has been created successfully!`, ...keyed([[u.did, unitView(c.db, u)]]), id: u.did });
      },
    },
    lookup('did'),
    lookup('uniqueID'),
    lookup('trackerID'),
    {
      method: 'PATCH', pattern: `${base}/did/:did`, auth: 'v2',
      handler: (c) => one(c, patchUnit(c.db, category, didOf(c), c.body), `${one1} has been modified successfully!`),
    },
    {
      method: 'DELETE', pattern: `${base}/did/:did`, auth: 'v2',
      handler: (c) => {
        deleteUnit(c.db, category, didOf(c));
        return ok(`${one1} has been deleted successfully!`);
      },
    },
    membership(true),
    membership(false),
  ];
}

function allUnits(c: RequestCtx): TextReply {
  const text = c.db.cached('all-units', () => {
    const units = Object.values(c.db.state.units);
    const sensors = units.filter((u) => u.deviceCategory === 'sensor');
    // tracked users' own units are devices too: every unit of the account is in one of the collections
    const devices = units.filter((u) => u.deviceCategory !== 'sensor');
    const users = Object.values(c.db.state.users);
    const usersOf = (type: string): string =>
      JSON.stringify(Object.fromEntries(users.filter((u) => u.userType === type).map((u) => [u.uid, allUnitsUserView(u)])));
    return Buffer.concat([
      renderUnits(c.db, sensors, '{"success":"Units have been successfully retrieved.","sensors":{', '},'),
      renderUnits(c.db, devices, '"devices":{', '},'),
      Buffer.from(`"dispatchers":${usersOf('dispatcher')},"trackedUsers":${usersOf('trackedUser')}}`),
    ]);
  });
  return rawJson(200, text);
}

export const unitRoutes: Route[] = [
  ...routesFor('device'),
  ...routesFor('sensor'),
  { method: 'GET', pattern: '/all-units', auth: 'session', handler: allUnits },
];
