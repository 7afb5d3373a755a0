/** `alias list`: name and expansion, by name. */
import { renderList, type Column } from '../../io/formats/output.js';
import type { Run } from '../action.js';

const COLUMNS: Column[] = [
  { key: 'name', priority: 2 },
  { key: 'expansion', shrink: true, priority: 1 },
];

export const run: Run<Record<string, never>> = async (_args, _opts, ctx) => {
  const out = await ctx.output({ fields: COLUMNS.map((c) => c.key) });
  const aliases = (await ctx.config()).aliases();
  const records = Object.keys(aliases)
    .sort()
    .map((name) => ({ name, expansion: aliases[name] }));
  await renderList(records, COLUMNS, out);
};
