import { deleteUser } from '../../api/users.js';
import { confirmOrFail } from '../../io/terminal/prompt.js';
import { runBulk } from '../bulk.js';
import { parseId } from '../../validate.js';
import type { Run } from '../action.js';

export const run: Run<Record<string, never>> = async (args, _opts, ctx) => {
  const ids = [...new Set(args.map((a) => parseId(a, 'user id')))];
  await confirmOrFail(ctx, `Delete ${ids.length === 1 ? `user ${ids[0]}` : `${ids.length} users`}?`);
  const api = await ctx.api();
  await runBulk(ctx, ids, (id) => `delete user ${id}`, async (id) => {
    await deleteUser(api, id);
  });
};
