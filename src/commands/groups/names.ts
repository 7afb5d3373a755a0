/**
 * Names for member and viewer ids, for people only: on a terminal table one
 * GET /all-units/ (every unit and user of the account) labels the ids. Machine
 * output and piped tables keep the bare ids and cost no extra request.
 */
import { TrackctlError } from '../../errors.js';
import type { Context } from '../../context.js';
import type { OutputOptions } from '../../io/formats/output.js';
import { getAllUnits } from '../../api/all-units.js';
import type { NameIndex } from './columns.js';

export async function namesForTable(ctx: Context, out: OutputOptions): Promise<NameIndex | undefined> {
  if (out.format !== 'table' || !out.tty || ctx.globals.raw) return undefined;
  try {
    const all = await getAllUnits(await ctx.api());
    const names = new Map<number, string>();
    for (const u of [...all.devices, ...all.sensors]) names.set(u.did, u.name);
    for (const u of [...all.trackedUsers, ...all.dispatchers]) names.set(u.uid, u.name);
    return names;
  } catch (err) {
    // Labels are a nicety: without them (e.g. no session cookie) the ids still show.
    if (err instanceof TrackctlError) return undefined;
    throw err;
  }
}
