import { deleteGroup } from '../../api/groups.js';
import { confirmOrFail } from '../../io/terminal/prompt.js';
import { runBulk } from '../bulk.js';
import { parseId } from '../../validate.js';
import type { Run } from '../action.js';

export const run: Run<Record<string, never>> = async (args, _opts, ctx) => {
  const ids = [...new Set(args.map((a) => parseId(a, 'group id')))];
  await confirmOrFail(ctx, `Delete ${ids.length === 1 ? `group ${ids[0]}` : `${ids.length} groups`}?`);
  const api = await ctx.api();
  await runBulk(ctx, ids, (id) => `delete group ${id}`, async (id) => {
    await deleteGroup(api, id);
  });
};
