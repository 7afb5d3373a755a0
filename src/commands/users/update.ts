import { UsageError } from '../../errors.js';
import { changeUserGroups, type UserGroupRole } from '../../api/users.js';
import type { One } from '../../api/envelope.js';
import type { User } from '../../api/types.js';
import { renderRaw, renderRecord } from '../../io/formats/output.js';
import { parseId, parseIdList } from '../../validate.js';
import { userColumns, userFields } from './columns.js';
import type { Run } from '../action.js';

interface UpdateOptions {
  addGroup?: string[];
  removeGroup?: string[];
  addViewerGroup?: string[];
  removeViewerGroup?: string[];
}

interface Change {
  role: UserGroupRole;
  add: boolean;
  gids: number[];
}

function overlap(add: number[], remove: number[], addFlag: string, removeFlag: string): void {
  const both = add.filter((g) => remove.includes(g));
  if (both.length > 0) throw new UsageError(`group ${both.join(',')} is in both ${addFlag} and ${removeFlag}`);
}

export const run: Run<UpdateOptions> = async (args, opts, ctx) => {
  const uid = parseId(args[0] ?? '', 'user id');
  const addMember = parseIdList(opts.addGroup, 'group id');
  const removeMember = parseIdList(opts.removeGroup, 'group id');
  const addViewer = parseIdList(opts.addViewerGroup, 'group id');
  const removeViewer = parseIdList(opts.removeViewerGroup, 'group id');
  overlap(addMember, removeMember, '--add-group', '--remove-group');
  overlap(addViewer, removeViewer, '--add-viewer-group', '--remove-viewer-group');
  const changes: Change[] = [
    { role: 'member' as const, add: true, gids: addMember },
    { role: 'member' as const, add: false, gids: removeMember },
    { role: 'viewer' as const, add: true, gids: addViewer },
    { role: 'viewer' as const, add: false, gids: removeViewer },
  ].filter((c) => c.gids.length > 0);
  if (changes.length === 0) {
    throw new UsageError('nothing to change: give --add-group, --remove-group, --add-viewer-group or --remove-viewer-group');
  }

  const out = await ctx.output({ fields: userFields() });
  const api = await ctx.api();
  let last: One<User> | undefined;
  for (const change of changes) last = await changeUserGroups(api, uid, change.role, change.gids, change.add);
  if (!last) return;
  if (ctx.globals.raw) return renderRaw(last.raw, out);
  await renderRecord(last.record, userColumns(), out);
};
