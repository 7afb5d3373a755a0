/**
 * The diff: file vs live state → steps and notes. Pure (no I/O), so the unit
 * tests drive it with hand-made live states. Memberships are in plan-members.ts.
 */
import type { Group, Unit } from '../api/types.js';
import type { NewUnit } from '../api/units.js';
import type { NewUser } from '../api/users.js';
import { emailKey, unitKeyField, unitListName, type Fleet, type ShareSpec, type UnitKind, type UnitSpec } from './format.js';
import { LiveIndex, liveExpiry, liveTarget } from './live.js';
import { planMemberships, type Matching } from './plan-members.js';
import { sortSteps, type Note, type Plan, type Step } from './steps.js';
import { formatRfc3339 } from '../io/format-time.js';

export interface PlanOptions {
  prune: boolean;
  /** Unix seconds: expiries at or before it are in the past. */
  nowS: number;
}

export function buildPlan(fleet: Fleet, index: LiveIndex, opts: PlanOptions): Plan {
  const steps: Step[] = [];
  const notes: Note[] = [];
  const m = match(fleet, index, opts.prune);

  for (const { spec } of fleet.groups ?? []) {
    const live = m.groups.get(spec.name);
    if (!live) steps.push({ phase: 'groups', action: 'create', kind: 'group', key: spec.name, details: '', op: { op: 'create-group', name: spec.name } });
    else if (live.name !== spec.name) {
      steps.push({ phase: 'groups', action: 'rename', kind: 'group', key: spec.name, details: `from "${live.name}"`, op: { op: 'rename-group', gid: live.gid, name: spec.name } });
    }
  }
  for (const kind of ['device', 'sensor'] as const) {
    for (const { spec } of fleet[unitListName(kind)] ?? []) planUnit(kind, spec, index.units[kind].get(spec.key), steps, notes);
  }
  for (const { spec } of fleet.users ?? []) {
    const live = index.usersByEmail.get(emailKey(spec.email));
    if (!live) {
      const body: NewUser = { name: spec.name, email: spec.email, userType: spec.type };
      if (spec.simPhone !== undefined) body.simPhoneNumber = spec.simPhone;
      steps.push({ phase: 'objects', action: 'create', kind: 'user', key: spec.email, details: `name=${spec.name}, type=${spec.type}`, op: { op: 'create-user', body } });
      if (spec.active === false) notes.push({ action: 'cannot-change', kind: 'user', key: spec.email, details: 'active: new users are active; the interface cannot deactivate a user' });
      continue;
    }
    const fixed: string[] = [];
    if (live.name !== spec.name) fixed.push(`name: "${live.name}" → "${spec.name}"`);
    if (live.userType !== spec.type) fixed.push(`type: ${live.userType} → ${spec.type}`);
    if (spec.active !== undefined && (live.isActive === 1) !== spec.active) fixed.push(`active: ${live.isActive === 1} → ${spec.active}`);
    if (spec.simPhone !== undefined && (live.simPhoneNumber ?? '') !== spec.simPhone) fixed.push(`simPhone: "${live.simPhoneNumber ?? ''}" → "${spec.simPhone}"`);
    if (fixed.length > 0) notes.push({ action: 'cannot-change', kind: 'user', key: spec.email, details: `${fixed.join('; ')}: recreate needed` });
  }
  for (const { spec } of fleet.shares ?? []) planShare(spec, index, opts.nowS, steps, notes);

  steps.push(...planMemberships(fleet, index, m));
  if (opts.prune) planPrune(fleet, index, m, steps, notes);
  return { steps: sortSteps(steps), notes };
}

function planUnit(kind: UnitKind, spec: UnitSpec, live: Unit | undefined, steps: Step[], notes: Note[]): void {
  if (!live) {
    const body: NewUnit = { name: spec.name, deviceType: spec.type, [unitKeyField(kind)]: spec.key };
    if (spec.simPhone !== undefined) body.simPhoneNumber = spec.simPhone;
    const inactive = spec.active === false;
    const details = `name=${spec.name}, type=${spec.type}${inactive ? ', inactive' : ''}`;
    steps.push({ phase: 'objects', action: 'create', kind, key: spec.key, details, op: { op: 'create-unit', kind, body, inactive } });
    return;
  }
  const changes: { name?: string; isActive?: 0 | 1 } = {};
  const shown: string[] = [];
  if (live.name !== spec.name) {
    changes.name = spec.name;
    shown.push(`name: "${live.name}" → "${spec.name}"`);
  }
  if (spec.active !== undefined && (live.isActive === 1) !== spec.active) {
    changes.isActive = spec.active ? 1 : 0;
    shown.push(`active: ${!spec.active} → ${spec.active}`);
  }
  if (shown.length > 0) steps.push({ phase: 'objects', action: 'update', kind, key: spec.key, details: shown.join('; '), op: { op: 'update-unit', kind, did: live.did, changes } });
  if (live.deviceType !== spec.type) {
    notes.push({ action: 'cannot-change', kind, key: spec.key, details: `type: ${live.deviceType} → ${spec.type}: recreate needed` });
  }
}

function showExpiry(e: number | 'never'): string {
  return e === 'never' ? 'never' : formatRfc3339(e);
}

function planShare(spec: ShareSpec, index: LiveIndex, nowS: number, steps: Step[], notes: Note[]): void {
  const target = spec.target.kind === 'user' ? { ...spec.target, key: emailKey(spec.target.key) } : spec.target;
  const live = index.share(spec.name) ?? (spec.renamedFrom === undefined ? undefined : index.share(spec.renamedFrom));
  const want = spec.expires;
  if (!live) {
    if (typeof want === 'number' && want <= nowS) {
      notes.push({ action: 'skip', kind: 'share', key: spec.name, details: `expired ${showExpiry(want)}: not created (the service only takes future expiries)` });
      return;
    }
    const details = `${target.kind} ${target.key}, expires ${showExpiry(want ?? 'never')}`;
    const op: Step['op'] = { op: 'create-share', name: spec.name, target };
    if (typeof want === 'number') op.expiration = want;
    steps.push({ phase: 'shares', action: 'create', kind: 'share', key: spec.name, details, op });
    return;
  }
  const have = liveTarget(index, live);
  if (!have || have.kind !== target.kind || have.key !== target.key) {
    const from = have ? `${have.kind} ${have.key}` : `unit ${live.did ?? live.gid ?? '?'}`;
    notes.push({ action: 'cannot-change', kind: 'share', key: spec.name, details: `target: ${from} → ${target.kind} ${target.key}: recreate needed` });
  }
  const changes: { name?: string; expiration?: number } = {};
  const shown: string[] = [];
  if (live.name !== spec.name) {
    changes.name = spec.name;
    shown.push(`name: "${live.name}" → "${spec.name}"`);
  }
  const current = liveExpiry(live);
  if (want !== undefined && want !== current) {
    const bothPast = typeof want === 'number' && typeof current === 'number' && want <= nowS && current <= nowS;
    if (want === 'never') {
      notes.push({ action: 'cannot-change', kind: 'share', key: spec.name, details: `expires: ${showExpiry(current)} → never: the interface cannot remove an expiry; recreate needed` });
    } else if (want <= nowS) {
      if (!bothPast) notes.push({ action: 'cannot-change', kind: 'share', key: spec.name, details: `expires: ${showExpiry(current)} → ${showExpiry(want)}: the service only takes future expiries` });
    } else {
      changes.expiration = want;
      shown.push(`expires: ${showExpiry(current)} → ${showExpiry(want)}`);
    }
  }
  if (shown.length > 0) {
    steps.push({ phase: 'shares', action: changes.name !== undefined && changes.expiration === undefined ? 'rename' : 'update', kind: 'share', key: spec.name, details: shown.join('; '), op: { op: 'update-share', sid: live.sid, changes } });
  }
}

export function match(fleet: Fleet, index: LiveIndex, prune: boolean): Matching {
  const groups = new Map<string, Group>();
  const labels = new Map<number, string>();
  for (const { spec } of fleet.groups ?? []) {
    const live = index.group(spec.name) ?? (spec.renamedFrom === undefined ? undefined : index.group(spec.renamedFrom));
    if (live) {
      groups.set(spec.name, live);
      labels.set(live.gid, spec.name);
    }
  }
  const prunedGroups = new Set<number>();
  const prunedUnits: Unit[] = [];
  const prunedUsers = new Set<number>();
  if (prune) {
    if (fleet.groups) for (const g of index.live.groups) if (!labels.has(g.gid)) prunedGroups.add(g.gid);
    for (const kind of ['device', 'sensor'] as const) {
      const list = fleet[unitListName(kind)];
      if (!list) continue;
      const keep = new Set(list.map((e) => e.spec.key));
      for (const [key, unit] of index.units[kind]) if (!keep.has(key)) prunedUnits.push(unit);
    }
    // Without knowing who is signed in, no user is pruned (it could be that one).
    if (fleet.users && index.live.selfUid !== undefined) {
      const keep = new Set(fleet.users.map((e) => emailKey(e.spec.email)));
      for (const [key, user] of index.usersByEmail) if (!keep.has(key) && user.uid !== index.live.selfUid) prunedUsers.add(user.uid);
    }
  }
  return { groups, groupLabel: (gid) => labels.get(gid) ?? index.groupName.get(gid), prunedGroups, prunedUnits, prunedUsers };
}

function planPrune(fleet: Fleet, index: LiveIndex, m: Matching, steps: Step[], notes: Note[]): void {
  if (fleet.shares) {
    const keep = new Set<string>();
    for (const { spec } of fleet.shares) {
      const live = index.share(spec.name) ?? (spec.renamedFrom === undefined ? undefined : index.share(spec.renamedFrom));
      if (live) keep.add(live.sid);
    }
    for (const s of index.live.shares) {
      if (keep.has(s.sid)) continue;
      steps.push({ phase: 'delete-shares', action: 'delete', kind: 'share', key: s.name, details: `sid ${s.sid}`, op: { op: 'delete-share', sid: s.sid } });
    }
  }
  for (const u of m.prunedUnits) {
    const kind: UnitKind = u.deviceCategory === 'sensor' ? 'sensor' : 'device';
    const key = (kind === 'device' ? u.trackerID : u.uniqueID) ?? String(u.did);
    steps.push({ phase: 'delete-objects', action: 'delete', kind, key, details: `name=${u.name}`, op: { op: 'delete-unit', kind, did: u.did } });
  }
  if (fleet.users && index.live.selfUid === undefined) {
    notes.push({ action: 'skip', kind: 'user', key: '*', details: 'users not pruned: the signed-in account could not be identified' });
  } else if (fleet.users) {
    for (const [key, user] of index.usersByEmail) {
      if (m.prunedUsers.has(user.uid)) {
        steps.push({ phase: 'delete-objects', action: 'delete', kind: 'user', key: user.email, details: `name=${user.name}`, op: { op: 'delete-user', uid: user.uid } });
      } else if (user.uid === index.live.selfUid && !fleet.users.some((e) => emailKey(e.spec.email) === key)) {
        notes.push({ action: 'keep', kind: 'user', key: user.email, details: 'the signed-in account is never pruned' });
      }
    }
  }
  for (const g of index.live.groups) {
    if (!m.prunedGroups.has(g.gid)) continue;
    steps.push({ phase: 'delete-groups', action: 'delete', kind: 'group', key: g.name, details: `gid ${g.gid}`, op: { op: 'delete-group', gid: g.gid } });
  }
}
