import { UsageError } from '../../errors.js';
import { createShare, shareLink, type NewShare } from '../../api/shares.js';
import { renderRaw, renderRecord } from '../../io/formats/output.js';
import { valueOrAsk } from '../../io/terminal/prompt.js';
import { exclusive, parseId, requireText } from '../../validate.js';
import { parseExpires, parseExpiresIn } from './validate.js';
import { shareColumns } from './columns.js';
import type { Run } from '../action.js';

interface CreateOptions {
  device?: string;
  group?: string;
  name?: string;
  expires?: string;
  expiresIn?: string;
}

export const run: Run<CreateOptions> = async (_args, opts, ctx) => {
  exclusive({ '--device': opts.device, '--group': opts.group });
  exclusive({ '--expires': opts.expires, '--expires-in': opts.expiresIn });
  if (opts.device === undefined && opts.group === undefined) {
    // The target is never asked for; without a terminal the name would not be either, so say both at once.
    const name = opts.name === undefined && !ctx.interactive() ? ' and --name' : '';
    throw new UsageError(`a share needs a target: give --device DID or --group GID${name}`);
  }
  const share: NewShare =
    opts.device !== undefined ? { did: parseId(opts.device, 'device id'), name: '' } : { gid: parseId(opts.group ?? '', 'group id'), name: '' };
  // Expiry: absolute unix seconds, relative days/hours/minutes, or no field at all (never expires).
  const nowMs = ctx.clock.now();
  if (opts.expires !== undefined) {
    const at = parseExpires(opts.expires, nowMs, await ctx.timeZone());
    if (at !== 'never') share.expiration = at;
  } else if (opts.expiresIn !== undefined && opts.expiresIn.trim().toLowerCase() !== 'never') {
    Object.assign(share, parseExpiresIn(opts.expiresIn));
  }
  share.name = requireText(await valueOrAsk(ctx, opts.name, '--name', 'Share name:'), '--name', 'name');

  const out = await ctx.output();
  const api = await ctx.api();
  const { record, raw } = await createShare(api, share);
  if (ctx.globals.raw) return renderRaw(raw, out);
  await renderRecord(record, shareColumns(ctx.clock.now()), out);
  if (!ctx.globals.quiet && ctx.io.stderrIsTTY) ctx.io.err(`Created share ${record.sid}: ${shareLink(api.shareUrl, record.sid)}`);
};
