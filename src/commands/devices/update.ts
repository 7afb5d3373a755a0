import { UsageError } from '../../errors.js';
import { changeUnitGroups, updateUnit, type UnitKind } from '../../api/units.js';
import type { One } from '../../api/envelope.js';
import type { Unit } from '../../api/types.js';
import { renderRaw, renderRecord } from '../../io/formats/output.js';
import { parseId, parseIdList, requireText } from '../../validate.js';
import { unitColumns } from './columns.js';
import { shownRecord } from '../units/columns.js';
import { inTurn, type Run } from '../action.js';
import { UNIT_FIELDS } from '../../api/types.js';

interface UpdateOptions {
  name?: string;
  active?: boolean;
  inactive?: boolean;
  addGroup?: string[];
  removeGroup?: string[];
}

export function runFor(kind: UnitKind): { run: Run<UpdateOptions> } {
  return {
    run: async (args, opts, ctx) => {
      const did = parseId(args[0] ?? '', 'id');
      const changes: { name?: string; isActive?: 0 | 1 } = {};
      if (opts.name !== undefined) changes.name = requireText(opts.name, '--name', 'name');
      if (opts.active) changes.isActive = 1;
      if (opts.inactive) changes.isActive = 0;
      const add = parseIdList(opts.addGroup, 'group id');
      const remove = parseIdList(opts.removeGroup, 'group id');
      const both = add.filter((g) => remove.includes(g));
      if (both.length > 0) throw new UsageError(`group ${both.join(',')} is in both --add-group and --remove-group`);
      if (Object.keys(changes).length === 0 && add.length === 0 && remove.length === 0) {
        throw new UsageError('nothing to change: give --name, --active/--inactive, --add-group or --remove-group');
      }

      const out = await ctx.output({ fields: UNIT_FIELDS });
      const api = await ctx.api();
      const last = await inTurn<One<Unit>>([
        ...(Object.keys(changes).length > 0 ? [{ what: Object.keys(changes).map((k) => (k === 'isActive' ? 'the active state' : 'the name')).join(' and '), run: () => updateUnit(api, kind, did, changes) }] : []),
        ...(add.length > 0 ? [{ what: `added to group ${add.join(', ')}`, run: () => changeUnitGroups(api, kind, did, add, true) }] : []),
        ...(remove.length > 0 ? [{ what: `removed from group ${remove.join(', ')}`, run: () => changeUnitGroups(api, kind, did, remove, false) }] : []),
      ]);
      if (!last) return;
      if (ctx.globals.raw) return renderRaw(last.raw, out);
      await renderRecord(shownRecord(last.record), unitColumns(kind, ctx.clock.now()), out);
    },
  };
}
