/**
 * Runs a plan phase by phase, with a bounded pool within each phase. A failed
 * step is recorded and the run goes on; steps that depend on an object whose
 * creation failed are skipped (or run without it, for membership batches).
 * Re-running the same file converges: the next plan holds only what is left.
 */
import type { Api } from '../api/client.js';
import { changeGroupMembership, createGroup, deleteGroup, renameGroup } from '../api/groups.js';
import { createShare, deleteShare, updateShare, type NewShare } from '../api/shares.js';
import { createUnit, deleteUnit, updateUnit } from '../api/units.js';
import { createUser, deleteUser } from '../api/users.js';
import { TrackctlError } from '../errors.js';
import { emailKey, unitListName, type TargetRef } from './format.js';
import type { LiveIndex } from './live.js';
import { runPool } from '../pool.js';
import { PHASES, describeMember, type MemberRef, type Step, type StepResult } from './steps.js';

/** Natural key → service id: the live ones, plus what this run creates. */
export class IdMap {
  private readonly ids = new Map<string, number>();

  constructor(index: LiveIndex, steps: Step[]) {
    for (const [name, groups] of index.groupsByName) if (groups[0]) this.ids.set(`group:${name}`, groups[0].gid);
    for (const kind of ['device', 'sensor'] as const) for (const [key, u] of index.units[kind]) this.ids.set(`${kind}:${key}`, u.did);
    for (const [key, u] of index.usersByEmail) {
      this.ids.set(`user:${key}`, u.uid);
      if (typeof u.did === 'number') this.ids.set(`unit-of:${key}`, u.did);
    }
    // A renamed group is known by its new name from the start: it exists either way.
    for (const s of steps) if (s.op.op === 'rename-group') this.ids.set(`group:${s.op.name}`, s.op.gid);
  }

  set(kind: string, key: string, id: number): void {
    this.ids.set(`${kind}:${key}`, id);
  }

  get(kind: string, key: string): number | undefined {
    return this.ids.get(`${kind}:${key}`);
  }
}

class Skip extends Error {}

export interface ExecuteOptions {
  concurrency: number;
  /** Called as each step ends, in completion order. */
  onResult?: (result: StepResult) => void;
}

export async function executePlan(api: Api, steps: Step[], index: LiveIndex, opts: ExecuteOptions): Promise<StepResult[]> {
  const ids = new IdMap(index, steps);
  const results: StepResult[] = [];
  for (const phase of PHASES) {
    const batch = steps.filter((s) => s.phase === phase);
    await runPool(batch, opts.concurrency, async (step) => {
      const result = await runStep(api, step, ids);
      results.push(result);
      opts.onResult?.(result);
    });
  }
  // Report in plan order, whatever order the pool finished in.
  return steps.map((s) => results.find((r) => r.step === s) ?? { step: s, outcome: 'skipped', error: 'not run' });
}

async function runStep(api: Api, step: Step, ids: IdMap): Promise<StepResult> {
  try {
    const note = await perform(api, step, ids);
    return note ? { step, outcome: 'ok', note } : { step, outcome: 'ok' };
  } catch (err) {
    if (err instanceof Skip) return { step, outcome: 'skipped', error: err.message };
    if (err instanceof TrackctlError) return { step, outcome: 'failed', error: err.message };
    throw err;
  }
}

/** Does the step; returns a remark when it ran only in part (e.g. a member that was never created). */
async function perform(api: Api, step: Step, ids: IdMap): Promise<string | undefined> {
  const op = step.op;
  switch (op.op) {
    case 'create-group': {
      const { record } = await createGroup(api, op.name);
      ids.set('group', op.name, record.gid);
      return undefined;
    }
    case 'rename-group':
      await renameGroup(api, op.gid, op.name);
      return undefined;
    case 'create-unit': {
      const { record } = await createUnit(api, unitListName(op.kind), op.body);
      ids.set(op.kind, step.key, record.did);
      if (op.inactive) await updateUnit(api, unitListName(op.kind), record.did, { isActive: 0 });
      return undefined;
    }
    case 'update-unit':
      await updateUnit(api, unitListName(op.kind), op.did, op.changes);
      return undefined;
    case 'create-user': {
      const { record } = await createUser(api, op.body);
      const key = emailKey(op.body.email);
      ids.set('user', key, record.uid);
      if (typeof record.did === 'number') ids.set('unit-of', key, record.did);
      return undefined;
    }
    case 'membership': {
      const gid = ids.get('group', op.group);
      if (gid === undefined) throw new Skip(`group "${op.group}" does not exist (its creation failed)`);
      const missing: MemberRef[] = [];
      const memberIds: number[] = [];
      for (const m of op.members) {
        const id = ids.get(m.kind, m.key);
        if (id === undefined) missing.push(m);
        else memberIds.push(id);
      }
      const without = missing.length > 0 ? `not created, left out: ${missing.map(describeMember).join(', ')}` : undefined;
      if (memberIds.length === 0) throw new Skip(without ?? 'nothing to do');
      await changeGroupMembership(api, gid, op.role, memberIds, op.add);
      return without;
    }
    case 'create-share': {
      const body: NewShare = { name: op.name, ...target(op.target, ids) };
      if (op.expiration !== undefined) body.expiration = op.expiration;
      await createShare(api, body);
      return undefined;
    }
    case 'update-share':
      await updateShare(api, op.sid, op.changes);
      return undefined;
    case 'delete-share':
      await deleteShare(api, op.sid);
      return undefined;
    case 'delete-unit':
      await deleteUnit(api, unitListName(op.kind), op.did);
      return undefined;
    case 'delete-user':
      await deleteUser(api, op.uid);
      return undefined;
    case 'delete-group':
      await deleteGroup(api, op.gid);
      return undefined;
  }
}

function target(ref: TargetRef, ids: IdMap): { did: number } | { gid: number } {
  const id = ref.kind === 'user' ? ids.get('unit-of', emailKey(ref.key)) : ids.get(ref.kind, ref.key);
  if (id === undefined) throw new Skip(`${ref.kind} ${ref.key} does not exist (its creation failed)`);
  return ref.kind === 'group' ? { gid: id } : { did: id };
}
