/**
 * Membership diff. A member's `groups` list is authoritative for that member; a
 * viewer pair is managed from either side (group.viewers or user.viewerGroups).
 * Lists compare as sets, so order and repeats never cause a change. Changes are
 * batched per group for the group endpoints (/v2/groups/<gid>/groupMembers/<ids>).
 */
import type { GroupRole } from '../api/groups.js';
import type { Group, Unit } from '../api/types.js';
import { emailKey, unitListName, type Fleet } from './format.js';
import type { LiveIndex } from './live.js';
import { MEMBER_BATCH, describeMember, type Action, type MemberRef, type Step } from './steps.js';

type Batches = Map<string, MemberRef[]>;

interface Changes {
  addMembers: Batches;
  removeMembers: Batches;
  addViewers: Batches;
  removeViewers: Batches;
}

/** Which live object each file entry stands for, and what --prune removes. */
export interface Matching {
  /** File group name → live group (by name, or by renamedFrom). */
  groups: Map<string, Group>;
  /** gid → the name the file knows it by (a renamed group's new name). */
  groupLabel: (gid: number) => string | undefined;
  prunedGroups: Set<number>;
  prunedUnits: Unit[];
  prunedUsers: Set<number>;
}

export function planMemberships(fleet: Fleet, index: LiveIndex, m: Matching): Step[] {
  const c: Changes = { addMembers: new Map(), removeMembers: new Map(), addViewers: new Map(), removeViewers: new Map() };
  const isPrunedGroup = (name: string): boolean => {
    const live = m.groups.get(name) ?? index.group(name);
    return live !== undefined && m.prunedGroups.has(live.gid);
  };
  const labels = (gids: number[] | undefined): Set<string> =>
    new Set((gids ?? []).map((gid) => m.groupLabel(gid)).filter((n): n is string => n !== undefined));

  const diff = (ref: MemberRef, want: string[] | undefined, have: Set<string>, add: Batches, remove: Batches): void => {
    if (want === undefined) return;
    const wanted = new Set(want);
    for (const g of wanted) if (!have.has(g)) push(add, g, ref);
    // Leaving a group that --prune deletes anyway needs no request.
    for (const g of have) if (!wanted.has(g) && !isPrunedGroup(g)) push(remove, g, ref);
  };

  for (const kind of ['device', 'sensor'] as const) {
    for (const { spec } of fleet[unitListName(kind)] ?? []) {
      const live = index.units[kind].get(spec.key);
      diff({ kind, key: spec.key }, spec.groups, labels(live?.groupMember), c.addMembers, c.removeMembers);
    }
  }

  // Viewer pairs: group name + e-mail key → wanted. Conflicts between the two sides were refused in validation.
  const pairs = new Map<string, { group: string; email: string; want: boolean }>();
  const setPair = (group: string, email: string, want: boolean): void => {
    pairs.set(`${group}\u0000${email}`, { group, email, want });
  };
  for (const { spec } of fleet.users ?? []) {
    const key = emailKey(spec.email);
    const live = index.usersByEmail.get(key);
    diff({ kind: 'user', key }, spec.groups, labels(live?.groupMember), c.addMembers, c.removeMembers);
    if (spec.viewerGroups === undefined) continue;
    for (const g of labels(live?.groupViewer)) setPair(g, key, false);
    for (const g of spec.viewerGroups) setPair(g, key, true);
  }
  for (const { spec } of fleet.groups ?? []) {
    if (spec.viewers === undefined) continue;
    for (const uid of m.groups.get(spec.name)?.groupViewers ?? []) {
      const who = index.memberById.get(uid);
      if (who?.kind === 'user') setPair(spec.name, who.key, false);
    }
    for (const email of spec.viewers) setPair(spec.name, emailKey(email), true);
  }
  for (const { group, email, want } of pairs.values()) {
    const user = index.usersByEmail.get(email);
    const has = user !== undefined && labels(user.groupViewer).has(group);
    if (want && !has) push(c.addViewers, group, { kind: 'user', key: email });
    if (!want && has && !isPrunedGroup(group)) push(c.removeViewers, group, { kind: 'user', key: email });
  }

  // Objects that --prune deletes leave the groups that stay first.
  for (const unit of m.prunedUnits) {
    const member = index.memberById.get(unit.did);
    if (!member) continue;
    for (const g of labels(unit.groupMember)) if (!isPrunedGroup(g)) push(c.removeMembers, g, member);
  }
  for (const uid of m.prunedUsers) {
    const member = index.memberById.get(uid);
    const user = member && index.usersByEmail.get(member.key);
    if (!member || !user) continue;
    for (const g of labels(user.groupMember)) if (!isPrunedGroup(g)) push(c.removeMembers, g, member);
    for (const g of labels(user.groupViewer)) if (!isPrunedGroup(g)) push(c.removeViewers, g, member);
  }

  return [
    ...batchSteps(c.addMembers, 'members', true, 'add-members'),
    ...batchSteps(c.removeMembers, 'members', false, 'remove-members'),
    ...batchSteps(c.addViewers, 'viewers', true, 'add-viewers'),
    ...batchSteps(c.removeViewers, 'viewers', false, 'remove-viewers'),
  ];
}

function push(batches: Batches, group: string, ref: MemberRef): void {
  const list = batches.get(group) ?? [];
  if (!list.some((r) => r.kind === ref.kind && r.key === ref.key)) list.push(ref);
  batches.set(group, list);
}

function batchSteps(batches: Batches, role: GroupRole, add: boolean, action: Action): Step[] {
  const steps: Step[] = [];
  for (const [group, refs] of batches) {
    const sorted = [...refs].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (let i = 0; i < sorted.length; i += MEMBER_BATCH) {
      const members = sorted.slice(i, i + MEMBER_BATCH);
      steps.push({
        phase: 'memberships',
        action,
        kind: 'group',
        key: group,
        details: members.map(describeMember).join(', '),
        op: { op: 'membership', group, role, add, members },
      });
    }
  }
  return steps;
}
