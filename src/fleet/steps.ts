/**
 * A plan is a list of steps in phases, plus notes for differences that no
 * request can fix (the interface cannot change them). Steps name objects by
 * natural key; objects created in an earlier phase get their ids at run time.
 */
import type { GroupRole } from '../api/groups.js';
import type { ShareChanges } from '../api/shares.js';
import type { NewUnit } from '../api/units.js';
import type { NewUser } from '../api/users.js';
import type { ObjectKind, TargetRef, UnitKind } from './format.js';

/** Run in this order; the steps within one phase run concurrently. */
export const PHASES = ['groups', 'objects', 'memberships', 'shares', 'delete-shares', 'delete-objects', 'delete-groups'] as const;
export type Phase = (typeof PHASES)[number];

export type Action =
  | 'create' | 'update' | 'rename'
  | 'add-members' | 'remove-members' | 'add-viewers' | 'remove-viewers'
  | 'delete';

/** A member of a group by natural key: trackerID, uniqueID or e-mail (lower case). */
export interface MemberRef {
  kind: UnitKind | 'user';
  key: string;
}

export type StepOp =
  | { op: 'create-group'; name: string }
  | { op: 'rename-group'; gid: number; name: string }
  | { op: 'create-unit'; kind: UnitKind; body: NewUnit; inactive: boolean }
  | { op: 'update-unit'; kind: UnitKind; did: number; changes: { name?: string; isActive?: 0 | 1 } }
  | { op: 'create-user'; body: NewUser }
  | { op: 'membership'; group: string; role: GroupRole; add: boolean; members: MemberRef[] }
  | { op: 'create-share'; name: string; target: TargetRef; expiration?: number }
  | { op: 'update-share'; sid: string; changes: ShareChanges }
  | { op: 'delete-share'; sid: string }
  | { op: 'delete-unit'; kind: UnitKind; did: number }
  | { op: 'delete-user'; uid: number }
  | { op: 'delete-group'; gid: number };

export interface Step {
  phase: Phase;
  action: Action;
  kind: ObjectKind;
  key: string;
  details: string;
  op: StepOp;
}

/** cannot-change: differs, but the interface has no way to change it (recreate needed); skip/keep: deliberately left alone. */
export interface Note {
  action: 'cannot-change' | 'skip' | 'keep';
  kind: ObjectKind;
  key: string;
  details: string;
}

export interface Plan {
  steps: Step[];
  notes: Note[];
}

export type Outcome = 'planned' | 'ok' | 'failed' | 'skipped' | 'unchanged';

export interface StepResult {
  step: Step;
  outcome: Outcome;
  error?: string;
  /** A step that ran in part: what it left out. */
  note?: string;
}

/** Largest id list per membership request (keeps paths short). */
export const MEMBER_BATCH = 50;

const KIND_ORDER: ObjectKind[] = ['group', 'device', 'sensor', 'user', 'share'];
const ACTION_ORDER: Action[] = ['create', 'rename', 'update', 'add-members', 'remove-members', 'add-viewers', 'remove-viewers', 'delete'];

/** Phase, then kind, then key, then action: the same plan prints the same way every time. */
export function sortSteps(steps: Step[]): Step[] {
  return [...steps].sort(
    (a, b) =>
      PHASES.indexOf(a.phase) - PHASES.indexOf(b.phase) ||
      KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) ||
      ACTION_ORDER.indexOf(a.action) - ACTION_ORDER.indexOf(b.action),
  );
}

export function describeMember(m: MemberRef): string {
  return `${m.kind} ${m.key}`;
}
