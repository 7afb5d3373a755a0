/** `extension list`: name and path of every extension on PATH. */
import { renderList, type Column } from '../../io/formats/output.js';
import type { Run } from '../action.js';
import { COMMAND_NAMES } from '../names.js';
import { listExtensions } from './path.js';

const COLUMNS: Column[] = [
  { key: 'name', priority: 2 },
  { key: 'path', shrink: true, priority: 1 },
];

export const run: Run<Record<string, never>> = async (_args, _opts, ctx) => {
  const out = await ctx.output({ fields: COLUMNS.map((c) => c.key) });
  await renderList(
    listExtensions(ctx.env.PATH, COMMAND_NAMES).map((e) => ({ ...e })),
    COLUMNS,
    out,
  );
};
