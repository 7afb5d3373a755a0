/**
 * `units -o html`: each unit's last position (GET /all-units/ records), coloured by state.
 * The records carry no speed, so the state is read from the age of the last report: a
 * tracker reports often while it moves and rarely when parked. moving: a report within
 * MOVING_WINDOW_S; stale: none for the --stale threshold (default 1d); stopped: between
 * (reports/unit-state.ts, which watch reads the same way). Sensors stand still: one that
 * reports is a sensor, never moving.
 */
import type { OutputOptions } from '../../formats/output.js';
import { MOVING_WINDOW_S, stateFromAge } from '../../../reports/unit-state.js';
import { writePage } from './target.js';
import { clockLabel } from './history.js';
import { emptyPage, renderPage, type LegendEntry, type PageData, type UnitData, type UnitState } from './page.js';


const STATE_COLOR: Record<UnitState, string> = { moving: '#2ca25f', stopped: '#3182bd', stale: '#969696', sensor: '#8856a7' };

/** What the page needs of a unit record (as GET /all-units/ sends it, plus its collection). */
export interface UnitRecord {
  category?: string;
  did?: unknown;
  uid?: unknown;
  name?: unknown;
  lastValidLatitude?: unknown;
  lastValidLongitude?: unknown;
  lastGPSTimestamp?: unknown;
  lastBatteryLevel?: unknown;
  lastKnownAddress?: unknown;
}

export interface UnitsPageOptions {
  nowMs: number;
  /** No report for longer than this (seconds): stale. */
  staleS: number;
  /** Shown under the title, e.g. the filters applied. */
  note?: string;
  /** The invocation's IANA zone: the page labels times in it. */
  zone: string;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** A sensor does not move: while it reports it is drawn as a sensor, never as moving. */
export function unitState(lastReport: number, nowMs: number, staleS: number, sensor = false): UnitState {
  const state = stateFromAge(lastReport, nowMs / 1000, staleS, sensor);
  return sensor && state !== 'stale' ? 'sensor' : state;
}

function durationLabel(seconds: number): string {
  return seconds % 86400 === 0 ? `${seconds / 86400} d` : seconds % 3600 === 0 ? `${seconds / 3600} h` : `${Math.round(seconds / 60)} min`;
}

export function unitsPageData(records: readonly UnitRecord[], opts: UnitsPageOptions): PageData {
  const units: UnitData[] = [];
  let withoutPosition = 0;
  for (const r of records) {
    const id = num(r.did) ?? num(r.uid);
    if (id === null || num(r.did) === null) continue; // users without a unit of their own have no position
    const lat = num(r.lastValidLatitude);
    const lng = num(r.lastValidLongitude);
    if (lat === null || lng === null || (lat === 0 && lng === 0)) {
      withoutPosition++;
      continue;
    }
    const time = num(r.lastGPSTimestamp) ?? 0;
    const state = unitState(time, opts.nowMs, opts.staleS, r.category === 'sensor');
    units.push({
      id,
      name: typeof r.name === 'string' && r.name !== '' ? r.name : `Unit ${id}`,
      category: r.category ?? 'unit',
      state,
      color: STATE_COLOR[state],
      lat,
      lng,
      time,
      // A unit that never reported has no battery level (the service sends 0).
      battery: time > 0 ? num(r.lastBatteryLevel) : null,
      address: typeof r.lastKnownAddress === 'string' && r.lastKnownAddress !== '' ? r.lastKnownAddress : null,
    });
  }
  const parts = [`as of ${clockLabel(opts.nowMs / 1000, opts.zone)} ${opts.zone}`, `${units.length} unit${units.length === 1 ? '' : 's'} on the map`];
  if (withoutPosition > 0) parts.push(`${withoutPosition} without a position`);
  if (opts.note) parts.push(opts.note);
  const data = emptyPage('units', 'Where the units are', parts.join(' · '), opts.zone);
  data.units = units;
  const count = (s: UnitState): number => units.filter((u) => u.state === s).length;
  const legend: LegendEntry[] = [
    { label: `moving: reported in the last ${durationLabel(MOVING_WINDOW_S)} (${count('moving')})`, color: STATE_COLOR.moving, shape: 'dot' },
    { label: `stopped: no report for ${durationLabel(MOVING_WINDOW_S)} (${count('stopped')})`, color: STATE_COLOR.stopped, shape: 'dot' },
    { label: `stale: no report for ${durationLabel(opts.staleS)} (${count('stale')})`, color: STATE_COLOR.stale, shape: 'dot' },
  ];
  if (count('sensor') > 0) legend.push({ label: `sensor: stationary, reporting (${count('sensor')})`, color: STATE_COLOR.sensor, shape: 'dot' });
  data.legend = legend;
  return data;
}

/** The units page, in pieces (see renderPage). */
export function buildUnitsPage(records: readonly UnitRecord[], opts: UnitsPageOptions): Generator<string, void, void> {
  return renderPage(unitsPageData(records, opts));
}

/** Writes the units page to stdout, or (on a terminal) to a new file. */
export async function writeUnitsPage(records: readonly UnitRecord[], out: OutputOptions, opts: UnitsPageOptions): Promise<void> {
  await writePage(buildUnitsPage(records, opts), out, 'units');
}
