import { UsageError } from '../../errors.js';
import { getAllUnits, UNIT_CATEGORIES, type UnitCategory } from '../../api/all-units.js';
import { UNIT_FIELDS, USER_FIELDS } from '../../api/types.js';
import { fieldNames, LIST_FORMATS, renderList, renderRaw, type OutputOptions } from '../../io/formats/output.js';
import { allUnitColumns, isLowBattery, isStale, shownRecord, type CategorizedRecord } from './columns.js';
import { summaryLines } from './summary.js';
import { categoryOf, trackedUsers } from '../../runs/select.js';
import type { Context } from '../../context.js';
import type { Run } from '../action.js';
import { listArrangement, type ListOptions } from '../list-options.js';

interface UnitsOptions extends ListOptions {
  category?: string;
  /** Seconds. */
  stale?: number;
  lowBattery?: number;
}

const DEFAULT_STALE_S = 24 * 3600;
const DEFAULT_LOW_PCT = 20;
/** The shared formats, and html: a map of the units' last positions. */
const UNITS_FORMATS = [...LIST_FORMATS, 'html'] as const;
const LABEL: Record<UnitCategory, [string, string]> = {
  device: ['device', 'devices'],
  sensor: ['sensor', 'sensors'],
  trackedUser: ['tracked user', 'tracked users'],
  dispatcher: ['dispatcher', 'dispatchers'],
};

function parseCategory(value: string): UnitCategory {
  const wanted = value.trim().toLowerCase();
  const category = UNIT_CATEGORIES.find((c) => c.toLowerCase() === wanted);
  if (!category) throw new UsageError(`invalid --category "${value}": use one of ${UNIT_CATEGORIES.join(', ')}`);
  return category;
}

function plural(n: number, [one, many]: [string, string]): string {
  return `${n} ${n === 1 ? one : many}`;
}

function durationLabel(seconds: number): string {
  return seconds % 86400 === 0 ? `${seconds / 86400}d` : seconds % 3600 === 0 ? `${seconds / 3600}h` : `${Math.round(seconds / 60)}m`;
}

/** For people: counts per category, how many units are stale and how many are low on battery, fitted to the width. */
function summarize(ctx: Context, shown: CategorizedRecord[], staleS: number, lowPct: number): void {
  if (!ctx.io.stderrIsTTY || ctx.globals.quiet) return;
  const nowMs = ctx.clock.now();
  const counts = UNIT_CATEGORIES.map((c) => [c, shown.filter((r) => r.category === c).length] as const)
    .filter(([, n]) => n > 0)
    .map(([c, n]) => plural(n, LABEL[c]));
  if (counts.length === 0) counts.push('0 units');
  const stale = shown.filter((r) => isStale(r, nowMs, staleS)).length;
  const low = shown.filter((r) => isLowBattery(r, lowPct)).length;
  const lines = summaryLines({ counts, stale, staleLabel: durationLabel(staleS), low, lowPct }, ctx.io.columns());
  ctx.io.err(lines.join('\n'));
}

export const run: Run<UnitsOptions> = async (_args, opts, ctx) => {
  const category = opts.category === undefined ? undefined : parseCategory(opts.category);
  const staleS = opts.stale;
  const lowPct = opts.lowBattery;
  const list = listArrangement(opts);
  const fields = fieldNames([...UNIT_FIELDS, ...USER_FIELDS], allUnitColumns(0, 0, 0));
  const { format, out: options } = await ctx.outputAs(UNITS_FORMATS, { fields });
  const shape = format === 'wide' || format === 'name' ? format : undefined;
  const out: OutputOptions = { ...options, format: format === 'html' || format === 'wide' || format === 'name' ? 'table' : format, list: { ...list, shape } };
  const all = await getAllUnits(await ctx.api());
  if (ctx.globals.raw) return renderRaw(all.raw, out);

  // The category is the unit's deviceCategory (a tracked user's phone is listed among the devices, as
  // trackedUser: --category selects it as history and report do), else the collection a record came
  // from; the record is kept as sent (but a battery never reported).
  const records: CategorizedRecord[] = [
    ...all.devices.map((r) => ({ category: categoryOf(r.deviceCategory) ?? ('device' as const), ...r })),
    ...all.sensors.map((r) => ({ category: categoryOf(r.deviceCategory) ?? ('sensor' as const), ...r })),
    ...all.trackedUsers.map((r) => ({ category: 'trackedUser' as const, ...r })),
    ...all.dispatchers.map((r) => ({ category: 'dispatcher' as const, ...r })),
  ].map(shownRecord);
  const nowMs = ctx.clock.now();
  const shown = records.filter(
    (r) =>
      (category === undefined || r.category === category) &&
      (staleS === undefined || isStale(r, nowMs, staleS)) &&
      (lowPct === undefined || isLowBattery(r, lowPct)),
  );
  const staleThreshold = staleS ?? DEFAULT_STALE_S;
  const lowThreshold = lowPct ?? DEFAULT_LOW_PCT;
  if (format === 'html') {
    const { writeUnitsPage } = await import('../../io/pages/map/units.js');
    await writeUnitsPage(shown, out, { nowMs, staleS: staleThreshold, zone: out.timeZone });
    return;
  }
  // Tracked users' devices, for the UNIT column: GET /all-units/ leaves them out, GET /users/ has them.
  // JSON, NDJSON and YAML print the records as sent, so they need no second request.
  const columnar = out.format === 'table' || out.format === 'csv' || out.script?.kind === 'columns';
  const tracked = columnar && shown.some((r) => r.category === 'trackedUser') ? await trackedUsers(await ctx.api(), all) : [];
  const devices = new Map(tracked.map((u) => [Number(u.uid), Number(u.did)]));
  await renderList(shown, allUnitColumns(nowMs, staleThreshold, lowThreshold, (uid) => devices.get(uid)), out);
  if (shown.length === 0 && out.tty && !ctx.globals.quiet) ctx.io.err('No units match.');
  summarize(ctx, shown, staleThreshold, lowThreshold);
  // The summary counts every unit that matched; --limit printed fewer.
  if (list.limit !== undefined && list.limit < shown.length && ctx.io.stderrIsTTY && !ctx.globals.quiet) ctx.io.err(`${list.limit} of ${shown.length} shown (--limit).`);
};
