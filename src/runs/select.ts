/**
 * Which units a fleet run works on: the selection (parsed from flags by the command,
 * runs/selection.ts) resolved against the service. Lower layers and other runs (the lake's
 * shards) take the resolved list: SelectedUnit[] in did order.
 */
import { getAllUnits, type AllUnits } from '../api/all-units.js';
import type { Api } from '../api/client.js';
import { getGroup } from '../api/groups.js';
import { listUsers } from '../api/users.js';
import type { Listed } from '../api/envelope.js';
import type { User } from '../api/types.js';
import type { SelectCategory, UnitSelection } from './selection.js';
import type { UnitSnapshot } from '../reports/watch-events.js';

/** A unit to work on: its did and, when the selection looked it up, its name and category. */
export interface SelectedUnit {
  did: number;
  name?: string;
  category?: SelectCategory;
  /** Its last report's date (lastGPSTimestamp) when the selection looked it up: the service's clock had reached it. */
  lastReport?: number;
}

/** Describes a selection for titles and messages. */
export function describeSelection(s: UnitSelection): string {
  switch (s.kind) {
    case 'ids':
      return s.ids.length === 1 ? `unit ${s.ids[0]}` : `units ${s.ids.join(', ')}`;
    case 'group':
      return `group ${s.gid}`;
    case 'category':
      return `every ${s.category}`;
    case 'all':
      return 'every unit';
  }
}

/**
 * The units of a selection, in did order. Ids are taken as given (a unit that does not
 * exist fails on its own later, like any other unit); a group that does not exist is a
 * NotFoundError (exit 4). Tracked users are units through their own did, which
 * GET /all-units/ may leave out (the interface's reply does): then GET /users/ supplies it.
 * The group, the units and the users are asked for at once, not one after another: each is a
 * round trip before the first unit's request (a poll of a few hundred small replies feels
 * them); the users' reply goes unused when /all-units/ carried every did.
 */
export async function resolveUnits(api: Api, s: UnitSelection): Promise<SelectedUnit[]> {
  if (s.kind === 'ids') return s.ids.map((did) => ({ did }));
  const wanted = (c: SelectCategory): boolean => s.kind !== 'category' || s.category === c;
  const groupReply = s.kind === 'group' ? handled(getGroup(api, s.gid)) : undefined;
  const allReply = handled(getAllUnits(api));
  const usersReply = wanted('trackedUser') ? handled(listUsers(api)) : undefined;
  // In the order they were asked for one by one: a group that does not exist is the error, whatever else failed.
  const group = groupReply === undefined ? undefined : (await groupReply).record;
  const all = await allReply;
  const units: SelectedUnit[] = [];
  const add = (did: unknown, name: unknown, category: SelectCategory, last?: unknown): void => {
    const id = typeof did === 'string' && /^\d+$/.test(did) ? Number(did) : did;
    if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) return;
    const unit: SelectedUnit = { did: id, name: typeof name === 'string' ? name : String(name ?? ''), category };
    if (typeof last === 'number' && Number.isFinite(last) && last > 0) unit.lastReport = last;
    units.push(unit);
  };
  // A unit is of the category its record says (a tracked user's phone is listed among the devices
  // with deviceCategory trackedUser), else of the collection it is listed in.
  for (const [listed, list] of [['device', all.devices], ['sensor', all.sensors]] as const) {
    for (const u of list) {
      const category = categoryOf(u.deviceCategory) ?? listed;
      if (wanted(category)) add(u.did, u.name, category, u.lastGPSTimestamp);
    }
  }
  const users = usersReply === undefined ? [] : await trackedUsers(api, all, usersReply);
  for (const u of users) add(u.did, u.name, 'trackedUser');

  let chosen = units;
  if (group) {
    const members = new Set(group.groupMembers.map(Number));
    const userUnits = new Map(users.map((u) => [Number(u.did), Number(u.uid)]));
    chosen = units.filter((u) => members.has(u.did) || members.has(userUnits.get(u.did) ?? -1));
  }
  const seen = new Set<number>();
  return chosen.filter((u) => !seen.has(u.did) && seen.add(u.did)).sort((a, b) => a.did - b.did);
}

/** A unit record's deviceCategory as a category, when it is one. */
export function categoryOf(c: unknown): SelectCategory | undefined {
  return c === 'device' || c === 'sensor' || c === 'trackedUser' ? c : undefined;
}

/** A request asked for ahead: its failure is the caller's once awaited, and no unhandled rejection when it is not (an error before it, or not needed). */
function handled<T>(reply: Promise<T>): Promise<T> {
  reply.catch(() => undefined);
  return reply;
}

/**
 * Tracked users with their unit's did: from GET /all-units/ when it carries them, else from
 * GET /users/ (`listed`: that reply, when it was asked for already).
 */
export async function trackedUsers(api: Api, all: AllUnits, listed?: Promise<Listed<User>>): Promise<User[]> {
  if (all.trackedUsers.every((u) => u.did !== undefined && u.did !== null)) return all.trackedUsers;
  const { records } = await (listed ?? listUsers(api));
  return records.filter((u) => u.userType === 'trackedUser' && u.did !== undefined && u.did !== null);
}

/** What GET /all-units/ says of each unit, by did (tracked users through their device record); sensors do not move. */
export function unitSnapshots(all: AllUnits): Map<number, UnitSnapshot> {
  const map = new Map<number, UnitSnapshot>();
  const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const add = (rec: Record<string, unknown>, name: unknown, stationary = false): void => {
    const did = Number(rec.did);
    if (!Number.isInteger(did) || did <= 0 || map.has(did)) return;
    const last = num(rec.lastGPSTimestamp);
    map.set(did, {
      did,
      name: typeof name === 'string' ? name : '',
      lastReport: last !== null && last > 0 ? last : null,
      battery: num(rec.lastBatteryLevel),
      lat: num(rec.lastValidLatitude),
      lng: num(rec.lastValidLongitude),
      address: typeof rec.lastKnownAddress === 'string' && rec.lastKnownAddress !== '' ? rec.lastKnownAddress : null,
      stationary,
    });
  };
  for (const u of all.devices) add(u as Record<string, unknown>, u.name);
  for (const u of all.sensors) add(u as Record<string, unknown>, u.name, true);
  for (const u of all.trackedUsers) {
    if (u.did === undefined || u.did === null) continue;
    add({ ...(u.device ?? {}), ...u, did: u.did } as Record<string, unknown>, u.name);
  }
  return map;
}
