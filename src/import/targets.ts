/**
 * The service operations an import needs, per kind, behind one interface:
 * list what exists, look one record up by its natural key, create, add groups.
 * Devices/sensors are looked up by trackerID/uniqueID; users by e-mail through
 * the list (the interface has no per-e-mail lookup).
 */
import { NotFoundError } from '../errors.js';
import type { Api } from '../api/client.js';
import { changeUnitGroups, createUnit, getUnit, listUnits, type NewUnit, type UnitKind } from '../api/units.js';
import { changeUserGroups, createUser, listUsers, type NewUser } from '../api/users.js';
import { listGroups } from '../api/groups.js';
import type { Unit, User } from '../api/types.js';

export interface Existing {
  id: number;
  groups: number[];
  viewerGroups: number[];
}

export type GroupRole = 'member' | 'viewer';

export interface ImportTarget<B> {
  /** Names the id in the report: did or uid. */
  readonly idName: 'did' | 'uid';
  listExisting(): Promise<Map<string, Existing>>;
  /** The record with this natural key (already normalised as ImportRow.match), or undefined. */
  lookup(match: string): Promise<Existing | undefined>;
  create(body: B): Promise<Existing>;
  addGroups(id: number, gids: number[], role: GroupRole): Promise<void>;
}

function numbers(v: unknown): number[] {
  return Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : [];
}

function fromUnit(u: Unit): Existing {
  return { id: u.did, groups: numbers(u.groupMember), viewerGroups: [] };
}

function fromUser(u: User): Existing {
  return { id: u.uid, groups: numbers(u.groupMember), viewerGroups: numbers(u.groupViewer) };
}

export function unitTarget(api: Api, kind: UnitKind): ImportTarget<NewUnit> {
  const keyOf = (u: Unit): string | null => (kind === 'devices' ? u.trackerID : u.uniqueID);
  return {
    idName: 'did',
    async listExisting() {
      const { records } = await listUnits(api, kind);
      const map = new Map<string, Existing>();
      for (const u of records) {
        const key = keyOf(u);
        if (typeof key === 'string') map.set(key, fromUnit(u));
      }
      return map;
    },
    async lookup(match) {
      try {
        const { record } = await getUnit(api, kind, kind === 'devices' ? 'trackerID' : 'uniqueID', match);
        return fromUnit(record);
      } catch (err) {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      }
    },
    async create(body) {
      return fromUnit((await createUnit(api, kind, body)).record);
    },
    async addGroups(id, gids) {
      await changeUnitGroups(api, kind, id, gids, true);
    },
  };
}

export function userTarget(api: Api): ImportTarget<NewUser> {
  const listExisting = async (): Promise<Map<string, Existing>> => {
    const { records } = await listUsers(api);
    const map = new Map<string, Existing>();
    for (const u of records) if (typeof u.email === 'string') map.set(u.email.toLowerCase(), fromUser(u));
    return map;
  };
  return {
    idName: 'uid',
    listExisting,
    async lookup(match) {
      return (await listExisting()).get(match);
    },
    async create(body) {
      return fromUser((await createUser(api, body)).record);
    },
    async addGroups(id, gids, role) {
      await changeUserGroups(api, id, role, gids, true);
    },
  };
}

/** Group ids named in the file that the account does not have. */
export async function unknownGroups(api: Api, wanted: Iterable<number>): Promise<Set<number>> {
  const { records } = await listGroups(api);
  const known = new Set(records.map((g) => g.gid));
  return new Set([...wanted].filter((gid) => !known.has(gid)));
}
