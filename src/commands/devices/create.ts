import { createUnit, type NewUnit, type UnitKind } from '../../api/units.js';
import { renderRaw, renderRecord } from '../../io/formats/output.js';
import { requireFlags, valueOrAsk } from '../../io/terminal/prompt.js';
import { parseKey, parsePhone, requireText } from '../../validate.js';
import { unitColumns } from './columns.js';
import { shownRecord } from '../units/columns.js';
import type { Run } from '../action.js';
import { UNIT_FIELDS } from '../../api/types.js';

interface CreateOptions {
  name?: string;
  trackerId?: string;
  uniqueId?: string;
  type?: string;
  simPhone?: string;
}

export function runFor(kind: UnitKind): { run: Run<CreateOptions> } {
  return {
    run: async (_args, opts, ctx) => {
      const one = kind === 'devices' ? 'Device' : 'Sensor';
      // Given flags are checked before anything is asked, so a bad one fails fast.
      if (opts.trackerId !== undefined) parseKey(opts.trackerId, '--tracker-id');
      if (opts.uniqueId !== undefined) parseKey(opts.uniqueId, '--unique-id');
      const phone = parsePhone(opts.simPhone);
      const key = kind === 'devices' ? ([opts.trackerId, '--tracker-id'] as const) : ([opts.uniqueId, '--unique-id'] as const);
      requireFlags(ctx, [[opts.name, '--name'], key, [opts.type, '--type']]);
      const out = await ctx.output({ fields: UNIT_FIELDS });
      const name = requireText(await valueOrAsk(ctx, opts.name, '--name', `${one} name:`), '--name', 'name');
      const unit: NewUnit = { name, deviceType: '' };
      if (kind === 'devices') {
        unit.trackerID = parseKey(await valueOrAsk(ctx, opts.trackerId, '--tracker-id', 'Tracker ID (IMEI/MEID):'), '--tracker-id');
      } else {
        unit.uniqueID = parseKey(await valueOrAsk(ctx, opts.uniqueId, '--unique-id', 'Unique ID (serial number):'), '--unique-id');
      }
      unit.deviceType = requireText(await valueOrAsk(ctx, opts.type, '--type', 'Model (deviceType):'), '--type', 'type');
      if (phone !== undefined) unit.simPhoneNumber = phone;

      const { record, raw } = await createUnit(await ctx.api(), kind, unit);
      if (ctx.globals.raw) return renderRaw(raw, out);
      await renderRecord(shownRecord(record), unitColumns(kind, ctx.clock.now()), out);
      if (!ctx.globals.quiet && out.tty) ctx.io.err(`Created ${one.toLowerCase()} ${record.did}.`);
    },
  };
}
