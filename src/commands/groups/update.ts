import { UsageError } from '../../errors.js';
import { changeGroupMembership, renameGroup, type GroupRole } from '../../api/groups.js';
import type { One } from '../../api/envelope.js';
import type { Group } from '../../api/types.js';
import { renderRaw, renderRecord } from '../../io/formats/output.js';
import { parseId, parseIdList, requireText } from '../../validate.js';
import { groupColumns, groupFields } from './columns.js';
import { namesForTable } from './names.js';
import { inTurn, type Run } from '../action.js';

interface UpdateOptions {
  name?: string;
  addMember?: string[];
  removeMember?: string[];
  addViewer?: string[];
  removeViewer?: string[];
}

interface Change {
  role: GroupRole;
  add: boolean;
  ids: number[];
}

function overlap(add: number[], remove: number[], addFlag: string, removeFlag: string): void {
  const both = add.filter((id) => remove.includes(id));
  if (both.length > 0) throw new UsageError(`id ${both.join(',')} is in both ${addFlag} and ${removeFlag}`);
}

export const run: Run<UpdateOptions> = async (args, opts, ctx) => {
  const gid = parseId(args[0] ?? '', 'group id');
  const name = opts.name === undefined ? undefined : requireText(opts.name, '--name', 'name');
  const addMember = parseIdList(opts.addMember, 'member id');
  const removeMember = parseIdList(opts.removeMember, 'member id');
  const addViewer = parseIdList(opts.addViewer, 'viewer user id');
  const removeViewer = parseIdList(opts.removeViewer, 'viewer user id');
  overlap(addMember, removeMember, '--add-member', '--remove-member');
  overlap(addViewer, removeViewer, '--add-viewer', '--remove-viewer');
  const changes: Change[] = [
    { role: 'members' as const, add: true, ids: addMember },
    { role: 'members' as const, add: false, ids: removeMember },
    { role: 'viewers' as const, add: true, ids: addViewer },
    { role: 'viewers' as const, add: false, ids: removeViewer },
  ].filter((c) => c.ids.length > 0);
  if (name === undefined && changes.length === 0) {
    throw new UsageError('nothing to change: give --name, --add-member, --remove-member, --add-viewer or --remove-viewer');
  }

  const out = await ctx.output({ fields: groupFields() });
  const api = await ctx.api();
  // Membership replies nest the group one level deeper; the API module unwraps it.
  const last = await inTurn<One<Group>>([
    ...(name !== undefined ? [{ what: 'the name', run: () => renameGroup(api, gid, name) }] : []),
    ...changes.map((c) => ({ what: `${c.role} ${c.add ? 'added' : 'removed'} (${c.ids.join(', ')})`, run: () => changeGroupMembership(api, gid, c.role, c.ids, c.add) })),
  ]);
  if (!last) return;
  if (ctx.globals.raw) return renderRaw(last.raw, out);
  await renderRecord(last.record, groupColumns(await namesForTable(ctx, out)), out);
};
