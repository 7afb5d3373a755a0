import { listUsers } from '../../api/users.js';
import { renderList, renderRaw } from '../../io/formats/output.js';
import { parseUserType } from '../../validate.js';
import { userColumns, userFields } from './columns.js';
import { sayNoneFound, type Run } from '../action.js';
import { listArrangement, type ListOptions } from '../list-options.js';

interface UsersOptions extends ListOptions {
  type?: string;
}

export const run: Run<UsersOptions> = async (_args, opts, ctx) => {
  const type = opts.type === undefined ? undefined : parseUserType(opts.type);
  const out = await ctx.output({ fields: userFields(), list: listArrangement(opts) });
  // GET /users/ has no filter: the type is applied here. --raw prints the whole reply.
  const { records, raw } = await listUsers(await ctx.api());
  if (ctx.globals.raw) return renderRaw(raw, out);
  const shown = type === undefined ? records : records.filter((u) => u.userType === type);
  await renderList(shown, userColumns(), out);
  if (shown.length === 0) sayNoneFound(ctx, out, 'users');
};
