import { UsageError } from '../../errors.js';
import { createShare, shareLink, type NewShare } from '../../api/shares.js';
import { renderRaw, renderRecord } from '../../io/formats/output.js';
import { valueOrAsk } from '../../io/terminal/prompt.js';
import { exclusive, requireText } from '../../validate.js';
import { parseExpires, type RelativeExpiry } from './validate.js';
import { shareColumns, shareFields } from './columns.js';
import type { Run } from '../action.js';

interface CreateOptions {
  device?: number;
  group?: number;
  name?: string;
  expires?: string;
  expiresIn?: RelativeExpiry | 'never';
}

export const run: Run<CreateOptions> = async (_args, opts, ctx) => {
  exclusive({ '--device': opts.device, '--group': opts.group });
  exclusive({ '--expires': opts.expires, '--expires-in': opts.expiresIn });
  const share: NewShare | undefined =
    opts.device !== undefined ? { did: opts.device, name: '' } : opts.group !== undefined ? { gid: opts.group, name: '' } : undefined;
  if (share === undefined) {
    // The target is never asked for; without a terminal the name would not be either, so say both at once.
    const name = opts.name === undefined && !ctx.interactive() ? ' and --name' : '';
    throw new UsageError(`a share needs a target: give --device DID or --group GID${name}`);
  }
  // Expiry: absolute unix seconds, relative days/hours/minutes, or no field at all (never expires).
  const nowMs = ctx.clock.now();
  if (opts.expires !== undefined) {
    const at = parseExpires(opts.expires, nowMs, await ctx.timeZone());
    if (at !== 'never') share.expiration = at;
  } else if (opts.expiresIn !== undefined && opts.expiresIn !== 'never') {
    Object.assign(share, opts.expiresIn);
  }
  share.name = requireText(await valueOrAsk(ctx, opts.name, '--name', 'Share name:'), '--name', 'name');

  const out = await ctx.output({ fields: shareFields() });
  const api = await ctx.api();
  const { record, raw } = await createShare(api, share);
  if (ctx.globals.raw) return renderRaw(raw, out);
  await renderRecord(record, shareColumns(ctx.clock.now()), out);
  if (!ctx.globals.quiet && ctx.io.stderrIsTTY) ctx.io.err(`Created share ${record.sid}: ${shareLink(api.shareUrl, record.sid)}`);
};
