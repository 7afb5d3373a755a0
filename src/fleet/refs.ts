/**
 * References checked against the live state (after the reads, before any write):
 * a name the file uses but does not declare must exist live, exactly once, and
 * must not be something --prune is about to delete.
 */
import { emailKey, type Fleet, type Problem } from './format.js';
import type { LiveIndex } from './live.js';

export function checkReferences(fleet: Fleet, index: LiveIndex, prune: boolean): Problem[] {
  const problems: Problem[] = [];
  const add = (path: string, message: string): void => void problems.push({ path, message });
  const fileGroups = new Set((fleet.groups ?? []).map((g) => g.spec.name));
  const fileUsers = new Map((fleet.users ?? []).map((u) => [emailKey(u.spec.email), u.spec]));
  const fileUnits = { device: new Set((fleet.devices ?? []).map((d) => d.spec.key)), sensor: new Set((fleet.sensors ?? []).map((s) => s.spec.key)) };
  const pruning = (list: unknown): boolean => prune && list !== undefined;

  const group = (name: string, at: string): void => {
    if (fileGroups.has(name)) return;
    const live = index.groupsByName.get(name) ?? [];
    if (live.length === 0) add(at, `group "${name}" is neither in the file nor in the account`);
    else if (live.length > 1) add(at, `group "${name}" is ambiguous: ${live.length} groups have that name (gids ${live.map((g) => g.gid).join(', ')})`);
    else if (pruning(fleet.groups)) add(at, `group "${name}" is not in the file, so --prune would delete it; add it to groups`);
  };
  const user = (email: string, at: string): void => {
    const key = emailKey(email);
    if (fileUsers.has(key)) return;
    const live = index.usersByEmail.get(key);
    if (!live) add(at, `user ${email} is neither in the file nor in the account`);
    else if (pruning(fleet.users) && live.uid !== index.live.selfUid) add(at, `user ${email} is not in the file, so --prune would delete it; add it to users`);
  };

  for (const { spec, path } of fleet.groups ?? []) {
    const live = index.groupsByName.get(spec.name) ?? [];
    if (live.length > 1) add(`${path}.name`, `ambiguous: ${live.length} groups in the account have that name (gids ${live.map((g) => g.gid).join(', ')})`);
    if (live.length === 0 && spec.renamedFrom !== undefined && (index.groupsByName.get(spec.renamedFrom)?.length ?? 0) > 1) {
      add(`${path}.renamedFrom`, `ambiguous: several groups in the account are named "${spec.renamedFrom}"`);
    }
    (spec.viewers ?? []).forEach((email, i) => user(email, `${path}.viewers[${i}]`));
  }
  for (const list of ['devices', 'sensors'] as const) {
    for (const { spec, path } of fleet[list] ?? []) (spec.groups ?? []).forEach((g, i) => group(g, `${path}.groups[${i}]`));
  }
  for (const { spec, path } of fleet.users ?? []) {
    (spec.groups ?? []).forEach((g, i) => group(g, `${path}.groups[${i}]`));
    (spec.viewerGroups ?? []).forEach((g, i) => group(g, `${path}.viewerGroups[${i}]`));
  }
  for (const { spec, path } of fleet.shares ?? []) {
    const live = index.sharesByName.get(spec.name) ?? [];
    if (live.length > 1) add(`${path}.name`, `ambiguous: ${live.length} shares in the account have that name (sids ${live.map((s) => s.sid).join(', ')})`);
    const { kind, key } = spec.target;
    const at = `${path}.${kind}`;
    if (kind === 'group') group(key, at);
    else if (kind === 'user') {
      const declared = fileUsers.get(emailKey(key));
      const liveUser = index.usersByEmail.get(emailKey(key));
      user(key, at);
      const type = declared?.type ?? liveUser?.userType;
      if (type === 'dispatcher') add(at, `user ${key} is a dispatcher: only tracked users have a unit to share`);
    } else if (!fileUnits[kind].has(key)) {
      if (!index.units[kind].has(key)) add(at, `${kind} ${key} is neither in the file nor in the account`);
      else if (pruning(kind === 'device' ? fleet.devices : fleet.sensors)) add(at, `${kind} ${key} is not in the file, so --prune would delete it`);
    }
  }
  return problems;
}
