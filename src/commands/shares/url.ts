/** The public link of a share. Like `gh browse --no-browser`, no request is sent: the sid is only checked for form. */
import { shareLink } from '../../api/shares.js';
import { renderRecord, type Column } from '../../io/formats/output.js';
import { parseSid } from './validate.js';
import type { Run } from '../action.js';

const COLUMNS: Column[] = [
  { key: 'sid', header: 'SID' },
  { key: 'url', header: 'URL' },
];

export const run: Run<Record<string, never>> = async (args, _opts, ctx) => {
  const sid = parseSid(args[0]);
  const out = await ctx.output();
  const url = shareLink((await ctx.api()).shareUrl, sid);
  // The default prints the bare link, ready for $(…); -o json/yaml/csv give a record.
  if (out.format === 'table') return out.io.out(`${url}\n`);
  await renderRecord({ sid, url }, COLUMNS, out);
};
