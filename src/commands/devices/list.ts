import type { Context } from '../../context.js';
import { listUnits, type UnitKind } from '../../api/units.js';
import { renderList, renderRaw } from '../../io/formats/output.js';
import { unitColumns } from './columns.js';
import { shownRecord } from '../units/columns.js';
import { sayNoneFound, type Run } from '../action.js';
import { listArrangement, type ListOptions as ArrangeOptions } from '../list-options.js';
import { UNIT_FIELDS } from '../../api/types.js';

interface ListOptions extends ArrangeOptions {
  group?: number;
  active?: boolean;
  inactive?: boolean;
}

export function runFor(kind: UnitKind): { run: Run<ListOptions> } {
  return {
    run: async (_args, opts, ctx: Context) => {
      const group = opts.group;
      const out = await ctx.output({ fields: UNIT_FIELDS, list: listArrangement(opts) });
      const api = await ctx.api();
      const { records, raw } = await listUnits(api, kind);
      if (ctx.globals.raw) return renderRaw(raw, out);
      const shown = records.filter(
        (u) =>
          (group === undefined || (Array.isArray(u.groupMember) && u.groupMember.includes(group))) &&
          (!opts.active || u.isActive === 1) &&
          (!opts.inactive || u.isActive !== 1),
      );
      await renderList(shown.map(shownRecord), unitColumns(kind, ctx.clock.now()), out);
      if (shown.length === 0) sayNoneFound(ctx, out, kind);
    },
  };
}
