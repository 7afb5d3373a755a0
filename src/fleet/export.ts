/**
 * The live state as a fleet file: every entry by natural key, sorted by it, lists
 * inside sorted too, no server-generated fields (ids, positions, timestamps).
 * Applying the result to the same account plans no change. Group memberships are
 * written on the members (devices/sensors/users `groups`), viewers on the groups.
 */
import type { Unit } from '../api/types.js';
import { formatRfc3339 } from '../io/format-time.js';
import { API_VERSION, FLEET_KIND, compareText, uniqueSorted, type UnitKind } from './format.js';
import { LiveIndex, liveExpiry, liveTarget } from './live.js';

export type FleetDocument = Record<string, unknown>;

export interface Exported {
  doc: FleetDocument;
  /** What could not be written (no natural key, a duplicate key): said on stderr. */
  warnings: string[];
}

export function exportFleet(index: LiveIndex): Exported {
  const warnings: string[] = [];
  const groupNames = (gids: number[] | undefined): string[] =>
    uniqueSorted((gids ?? []).map((gid) => index.groupName.get(gid)).filter((n): n is string => n !== undefined));

  const groups = [...index.groupsByName.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .map(([name, list]) => {
      if (list.length > 1) warnings.push(`${list.length} groups are named "${name}" (gids ${list.map((g) => g.gid).join(', ')}); only gid ${list[0]?.gid} is written`);
      const viewers = uniqueSorted(
        (list[0]?.groupViewers ?? []).flatMap((uid) => {
          const who = index.memberById.get(uid);
          const user = who?.kind === 'user' ? index.usersByEmail.get(who.key) : undefined;
          return user ? [user.email] : [];
        }),
      );
      return { name, viewers };
    });

  const units = (kind: UnitKind, list: Unit[]): Array<Record<string, unknown>> => {
    const field = kind === 'device' ? 'trackerID' : 'uniqueID';
    const skipped = list.filter((u) => !index.units[kind].has(u[field] ?? '') || index.units[kind].get(u[field] ?? '') !== u);
    for (const u of skipped) warnings.push(`${kind} ${u.did} (${u.name}) has ${u[field] ? `a duplicate ${field}` : `no ${field}`} and is not written`);
    return [...index.units[kind].entries()]
      .sort(([a], [b]) => compareText(a, b))
      .map(([key, u]) => ({ [field]: key, name: u.name, type: u.deviceType, active: u.isActive === 1, groups: groupNames(u.groupMember) }));
  };

  const users = [...index.usersByEmail.values()]
    .sort((a, b) => compareText(a.email.toLowerCase(), b.email.toLowerCase()))
    .map((u) => {
      const rec: Record<string, unknown> = { email: u.email, name: u.name, type: u.userType };
      if (u.simPhoneNumber) rec.simPhone = u.simPhoneNumber;
      rec.active = u.isActive === 1;
      rec.groups = groupNames(u.groupMember);
      return rec;
    });

  const shares: Array<Record<string, unknown>> = [];
  for (const [name, list] of [...index.sharesByName.entries()].sort(([a], [b]) => compareText(a, b))) {
    if (list.length > 1) warnings.push(`${list.length} shares are named "${name}" (sids ${list.map((s) => s.sid).join(', ')}); only ${list[0]?.sid} is written`);
    const share = list[0];
    if (!share) continue;
    const target = liveTarget(index, share);
    if (!target) {
      warnings.push(`share "${name}" (${share.sid}) points at something the file cannot name; not written`);
      continue;
    }
    const expiry = liveExpiry(share);
    // The file names a tracked user by the address as the service spells it.
    const key = target.kind === 'user' ? (index.usersByEmail.get(target.key)?.email ?? target.key) : target.key;
    shares.push({ name, [target.kind]: key, expires: expiry === 'never' ? 'never' : formatRfc3339(expiry) });
  }

  return {
    doc: {
      apiVersion: API_VERSION,
      kind: FLEET_KIND,
      groups,
      devices: units('device', index.live.devices),
      sensors: units('sensor', index.live.sensors),
      users,
      shares,
    },
    warnings,
  };
}
