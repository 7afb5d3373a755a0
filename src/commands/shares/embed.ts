/** An inline frame that embeds a share's live map in a web page. No request is sent. */
import { shareLink } from '../../api/shares.js';
import { renderRecord, type Column } from '../../io/formats/output.js';
import { parseSid } from './validate.js';
import type { Run } from '../action.js';

interface EmbedOptions {
  width: number;
  height: number;
}

const COLUMNS: Column[] = [
  { key: 'sid', header: 'SID' },
  { key: 'url', header: 'URL' },
  { key: 'width', header: 'WIDTH', kind: 'number' },
  { key: 'height', header: 'HEIGHT', kind: 'number' },
  { key: 'html', header: 'HTML' },
];

function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function iframe(url: string, width: number, height: number): string {
  return `<iframe src="${attribute(url)}" width="${width}" height="${height}" style="border:0" frameborder="0" allowfullscreen></iframe>`;
}

export const run: Run<EmbedOptions> = async (args, opts, ctx) => {
  const sid = parseSid(args[0]);
  const { width, height } = opts;
  const out = await ctx.output();
  const url = shareLink((await ctx.api()).shareUrl, sid);
  const html = iframe(url, width, height);
  if (out.format === 'table') return out.io.out(`${html}\n`);
  await renderRecord({ sid, url, width, height, html }, COLUMNS, out);
};
