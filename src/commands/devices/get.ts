import { UsageError } from '../../errors.js';
import { getUnit, type UnitKind, type UnitLookup } from '../../api/units.js';
import { renderRaw, renderRecord } from '../../io/formats/output.js';
import { parseId, parseKey } from '../../validate.js';
import { unitColumns } from './columns.js';
import { shownRecord } from '../units/columns.js';
import type { Run } from '../action.js';
import { UNIT_FIELDS } from '../../api/types.js';

interface GetOptions {
  uniqueId?: string;
  trackerId?: string;
}

export function lookupOf(did: string | undefined, opts: GetOptions): { by: UnitLookup; value: string | number } {
  const given = [did !== undefined, opts.uniqueId !== undefined, opts.trackerId !== undefined].filter(Boolean).length;
  if (given !== 1) throw new UsageError('give exactly one of <did>, --unique-id or --tracker-id');
  if (did !== undefined) return { by: 'did', value: parseId(did, 'id') };
  if (opts.uniqueId !== undefined) return { by: 'uniqueID', value: parseKey(opts.uniqueId, '--unique-id') };
  return { by: 'trackerID', value: parseKey(opts.trackerId, '--tracker-id') };
}

export function runFor(kind: UnitKind): { run: Run<GetOptions> } {
  return {
    run: async (args, opts, ctx) => {
      const { by, value } = lookupOf(args[0], opts);
      const out = await ctx.output({ fields: UNIT_FIELDS });
      const { record, raw } = await getUnit(await ctx.api(), kind, by, value);
      if (ctx.globals.raw) return renderRaw(raw, out);
      await renderRecord(shownRecord(record), unitColumns(kind, ctx.clock.now()), out);
    },
  };
}
