import { deleteUnit, type UnitKind } from '../../api/units.js';
import { confirmOrFail } from '../../io/terminal/prompt.js';
import { runBulk } from '../bulk.js';
import { parseId } from '../../validate.js';
import type { Run } from '../action.js';

export function runFor(kind: UnitKind): { run: Run<Record<string, never>> } {
  return {
    run: async (args, _opts, ctx) => {
      const one = kind === 'devices' ? 'device' : 'sensor';
      const ids = [...new Set(args.map((a) => parseId(a, `${one} id`)))];
      await confirmOrFail(ctx, `Delete ${ids.length === 1 ? `${one} ${ids[0]}` : `${ids.length} ${kind}`}?`);
      const api = await ctx.api();
      await runBulk(ctx, ids, (id) => `delete ${one} ${id}`, async (id) => {
        await deleteUnit(api, kind, id);
      });
    },
  };
}
