import { deleteShare } from '../../api/shares.js';
import { confirmOrFail } from '../../io/terminal/prompt.js';
import { runBulk } from '../bulk.js';
import { parseSid } from './validate.js';
import type { Run } from '../action.js';

export const run: Run<Record<string, never>> = async (args, _opts, ctx) => {
  const sids = [...new Set(args.map((a) => parseSid(a)))];
  await confirmOrFail(ctx, `Delete ${sids.length === 1 ? `location share ${sids[0]}` : `${sids.length} location shares`}?`);
  const api = await ctx.api();
  await runBulk(ctx, sids, (sid) => `delete share ${sid}`, async (sid) => {
    await deleteShare(api, sid);
  });
};
