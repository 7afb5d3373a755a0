import { UsageError } from '../../errors.js';
import { updateShare, type ShareChanges } from '../../api/shares.js';
import { renderRaw, renderRecord } from '../../io/formats/output.js';
import { requireText } from '../../validate.js';
import { parseExpires, parseSid } from './validate.js';
import { shareColumns, shareFields } from './columns.js';
import type { Run } from '../action.js';

interface UpdateOptions {
  name?: string;
  expires?: string;
}

export const run: Run<UpdateOptions> = async (args, opts, ctx) => {
  const sid = parseSid(args[0]);
  const changes: ShareChanges = {};
  if (opts.name !== undefined) changes.name = requireText(opts.name, '--name', 'name');
  if (opts.expires !== undefined) {
    const at = parseExpires(opts.expires, ctx.clock.now(), await ctx.timeZone());
    // PATCH takes only a unix time: an expiry can be moved but not removed.
    if (at === 'never') throw new UsageError('invalid --expires "never": an existing share\'s expiry can be changed to a time, not removed');
    changes.expiration = at;
  }
  if (Object.keys(changes).length === 0) throw new UsageError('nothing to change: give --name or --expires');

  const out = await ctx.output({ fields: shareFields() });
  const { record, raw } = await updateShare(await ctx.api(), sid, changes);
  if (ctx.globals.raw) return renderRaw(raw, out);
  await renderRecord(record, shareColumns(ctx.clock.now()), out);
};
