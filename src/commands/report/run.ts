/**
 * `report trips|stops|summary|overspeed|geofence`: select units, stream each unit's history
 * through its processor (src/reports/, constant memory per unit) as a fleet run (runs/fleet.ts:
 * one pass), render the records as they complete. The run ends by the one exit rule.
 * With --explain, the reasons the processors give are rendered too (src/io/formats/report-explain.ts).
 */
import type { Api } from '../../api/client.js';
import { openHistoryPoints, type PointItem } from '../../api/history.js';
import { PointReader } from '../../api/report-point.js';
import { UsageError } from '../../errors.js';
import { fieldNames, openStream, type Column, type Rec } from '../../io/formats/output.js';
import { EXPLAIN_COLUMNS, formatExplanation } from '../../io/formats/report-explain.js';
import { openGeoStream, type GeoRecord } from '../../io/pages/report-geo.js';
import { acknowledge } from '../../io/delivery/streams.js';
import {
  loadFences,
  NONE,
  overspeedProcessor,
  stopProcessor,
  summaryProcessor,
  tripProcessor,
  visitProcessor,
  type Explanation,
  type Fence,
  type OverspeedWithPath,
  type Stop,
  type TripWithPath,
  type UnitProcessor,
} from '../../reports/index.js';
import { InUnitOrder } from '../../runs/in-order.js';
import { runFleet } from '../../runs/fleet.js';
import type { SelectedUnit } from '../../runs/select.js';
import { sayNoneFound, type Run } from '../action.js';
import { parseReportPlan, type ReportOptions, type ReportPlan } from './options.js';

type Kind = 'trips' | 'stops' | 'summary' | 'overspeed' | 'geofence';

const TABLE_FORMATS = ['table', 'json', 'ndjson', 'csv', 'yaml'] as const;
const FORMATS: Record<Kind, readonly string[]> = {
  trips: [...TABLE_FORMATS, 'geojson', 'gpx', 'html'],
  stops: [...TABLE_FORMATS, 'geojson', 'html'],
  summary: TABLE_FORMATS,
  overspeed: [...TABLE_FORMATS, 'geojson', 'html'],
  geofence: TABLE_FORMATS,
};
const partialCol: Column = { key: 'partial', header: 'PARTIAL', kind: 'bool', priority: 0 };

const unitCol: Column = { key: 'did', header: 'UNIT', kind: 'number', priority: 3 };
const nameCol: Column = { key: 'name', header: 'NAME', shrink: true, priority: 2 };
const COLUMNS: Record<Kind, Column[]> = {
  trips: [
    unitCol, nameCol,
    { key: 'start', header: 'START', kind: 'time', priority: 3 },
    { key: 'end', header: 'END', kind: 'time', priority: 2 },
    { key: 'duration', header: 'DURATION', kind: 'duration', priority: 1 },
    { key: 'distanceKm', header: 'KM', kind: 'number', priority: 3 },
    { key: 'maxSpeed', header: 'MAX SPEED', kind: 'number', priority: 1 },
    { key: 'avgSpeed', header: 'AVG SPEED', kind: 'number', priority: 0 },
    { key: 'startLat', header: 'START LAT', kind: 'number', priority: -1 },
    { key: 'startLng', header: 'START LNG', kind: 'number', priority: -1 },
    { key: 'startAddress', header: 'FROM', shrink: true },
    { key: 'endLat', header: 'END LAT', kind: 'number', priority: -1 },
    { key: 'endLng', header: 'END LNG', kind: 'number', priority: -1 },
    { key: 'endAddress', header: 'TO', shrink: true },
    { key: 'drivingTime', header: 'DRIVING', kind: 'duration', priority: -1 },
    partialCol,
    { key: 'inferred', header: 'INFERRED', kind: 'bool', priority: 0 },
  ],
  stops: [
    unitCol, nameCol,
    { key: 'arrival', header: 'ARRIVAL', kind: 'time', priority: 3 },
    { key: 'departure', header: 'DEPARTURE', kind: 'time', priority: 2 },
    { key: 'duration', header: 'DURATION', kind: 'duration', priority: 2 },
    { key: 'lat', header: 'LAT', kind: 'number', priority: 0 },
    { key: 'lng', header: 'LNG', kind: 'number', priority: 0 },
    { key: 'address', header: 'ADDRESS', shrink: true },
    { key: 'open', header: 'OPEN', kind: 'bool', priority: -1 },
    partialCol,
  ],
  summary: [
    unitCol, nameCol,
    { key: 'day', header: 'DAY', priority: 3 },
    { key: 'distanceKm', header: 'KM', kind: 'number', priority: 3 },
    { key: 'odometerKm', header: 'ODO KM', kind: 'number', priority: 1 },
    { key: 'drivingTime', header: 'DRIVING', kind: 'duration', priority: 2 },
    { key: 'stoppedTime', header: 'STOPPED', kind: 'duration', priority: 1 },
    { key: 'maxSpeed', header: 'MAX SPEED', kind: 'number', priority: 1 },
    { key: 'trips', header: 'TRIPS', kind: 'number', priority: 2 },
    { key: 'firstReport', header: 'FIRST', kind: 'time', priority: 0 },
    { key: 'lastReport', header: 'LAST', kind: 'time', priority: 0 },
    { key: 'startOdometer', header: 'ODO START', kind: 'number', priority: -1 },
    { key: 'endOdometer', header: 'ODO END', kind: 'number', priority: -1 },
    partialCol,
  ],
  overspeed: [
    unitCol, nameCol,
    { key: 'start', header: 'START', kind: 'time', priority: 3 },
    { key: 'end', header: 'END', kind: 'time', priority: 1 },
    { key: 'duration', header: 'DURATION', kind: 'duration', priority: 2 },
    { key: 'maxSpeed', header: 'MAX SPEED', kind: 'number', priority: 3 },
    { key: 'avgSpeed', header: 'AVG SPEED', kind: 'number', priority: 1 },
    { key: 'limit', header: 'LIMIT', kind: 'number', priority: 3 },
    { key: 'distanceKm', header: 'KM', kind: 'number', priority: 0 },
    { key: 'lat', header: 'LAT', kind: 'number', priority: -1 },
    { key: 'lng', header: 'LNG', kind: 'number', priority: -1 },
    { key: 'fence', header: 'FENCE', shrink: true, priority: 1 },
    partialCol,
  ],
  geofence: [
    unitCol, nameCol,
    { key: 'fence', header: 'FENCE', shrink: true, priority: 3 },
    { key: 'enter', header: 'ENTER', kind: 'time', priority: 3 },
    { key: 'exit', header: 'EXIT', kind: 'time', priority: 2 },
    { key: 'duration', header: 'DURATION', kind: 'duration', priority: 2 },
    { key: 'open', header: 'OPEN', kind: 'bool', priority: 1 },
  ],
};

/** What a report without a row found nothing of, in its words: "No … found." */
const NOTHING: Record<Kind, string> = { trips: 'trips', stops: 'stops', summary: 'reports', overspeed: 'overspeed episodes', geofence: 'geofence visits' };

/** What a record becomes in a map format; a trip's path is dropped from the record itself. */
function geoRecord(kind: Kind, rec: Rec): GeoRecord {
  if (kind === 'trips' || kind === 'overspeed') {
    const { path, ...record } = rec as unknown as (TripWithPath | OverspeedWithPath) & Rec;
    return { record, coordinates: path, kind: 'line' };
  }
  const s = rec as unknown as Stop;
  return { record: rec, coordinates: [[s.lng, s.lat]], kind: 'point' };
}

export function runFor(kind: Kind): Run<ReportOptions> {
  return async (args, opts, ctx) => {
    const plan = parseReportPlan(args, opts, ctx.clock.now(), kind === 'geofence', await ctx.timeZone(), ctx.env);
    const { format, out } = await ctx.outputAs(FORMATS[kind], { fields: fieldNames([], [...COLUMNS[kind], ...EXPLAIN_COLUMNS]) });
    const fences = plan.geofence === undefined ? [] : await loadFences(plan.geofence);
    if (kind === 'overspeed' && plan.limit === undefined && !fences.some((f) => f.speedLimit !== undefined)) {
      throw new UsageError('missing --limit KMH (or a --geofence file whose features have a numeric "speedLimit")');
    }
    const geo = format === 'geojson' || format === 'gpx' || format === 'html';
    // --explain with -o json|ndjson: the explanations are the records; otherwise text on stderr beside the report.
    const explainRecords = plan.explain && (format === 'json' || format === 'ndjson');
    let explain: ((e: Explanation) => void) | undefined;
    // Records: each unit's explanations wait for it, to be written in the units' order as its rows would be.
    const explained = new Map<number, Explanation[]>();
    const explainedOf = (did: number): Explanation[] => explained.get(did) ?? (explained.set(did, []).get(did) as Explanation[]);
    if (plan.explain) explain = explainRecords ? (e) => void explainedOf(e.did).push(e) : (e) => ctx.io.err(formatExplanation(e, plan.tz));
    let processor = (): UnitProcessor<Rec> => makeProcessor(kind, plan, fences, geo, explain) as UnitProcessor<Rec>;
    let write: (rec: Rec) => Promise<void>;
    let end: () => Promise<void>;
    if (explainRecords) {
      // The report's own records are left out: each one has its explanation record (a trip, a stop) among them.
      const stream = openStream(EXPLAIN_COLUMNS, { ...out, format: format as 'json' | 'ndjson' });
      write = (rec) => stream.write(rec);
      end = () => stream.end();
    } else if (format === 'html') {
      // A map needs every record before it is drawn: trips (with their paths) and the stops between them.
      const trips: TripWithPath[] = [];
      const stops: Stop[] = [];
      const episodes: OverspeedWithPath[] = [];
      if (kind === 'trips') processor = () => both(tripProcessor(plan.params, { path: true, explain }), stopProcessor(plan.params));
      write = async (rec) => {
        if (kind === 'overspeed') episodes.push(rec as unknown as OverspeedWithPath);
        else if ('arrival' in rec) stops.push(rec as unknown as Stop);
        else trips.push(rec as unknown as TripWithPath);
      };
      end = async () => {
        if (kind === 'overspeed') {
          const { writeOverspeedPage } = await import('../../io/pages/map/overspeed.js');
          await writeOverspeedPage(episodes, out);
          return;
        }
        const { writeTripsPage } = await import('../../io/pages/map/trips.js');
        await writeTripsPage(trips, stops, out);
      };
    } else if (geo) {
      const stream = openGeoStream(format as 'geojson' | 'gpx', out);
      write = (rec) => stream.write(geoRecord(kind, rec));
      end = () => stream.end();
    } else {
      const stream = openStream(COLUMNS[kind], { ...out, format: format as (typeof TABLE_FORMATS)[number] });
      let rows = 0;
      write = (rec) => (rows++, stream.write(rec));
      end = async () => {
        await stream.end();
        // A table with no row on a terminal says so, as the lists and history do (a script reads the empty output).
        if (rows === 0) sayNoneFound(ctx, out, NOTHING[kind]);
      };
    }
    // Rows by unit, then as each unit's report orders them (a summary's days), not as units finish.
    const ordered = new InUnitOrder(write);
    const place = new Map<number, number>();
    let api: Api;
    await runFleet(
      {
        selection: plan.selection,
        shard: plan.shard,
        concurrency: plan.concurrency,
        empty: 'say',
        progress: { label: `report ${kind}:`, count: 'units', quiet: out.tty },
        api: () => ctx.api(), io: ctx.io, env: ctx.env, now: () => ctx.clock.now(), quiet: ctx.globals.quiet,
      },
      {
        unit: (u) => {
          place.set(u.did, place.size);
          return u;
        },
        start: async (_, run) => void (api = run.api),
        turn: async (unit) => {
          const index = place.get(unit.did) ?? 0;
          // With explanations as the records, a report record only says that the unit's explanations so far can go.
          const explanations = async (): Promise<void> => {
            for (const e of explainedOf(unit.did).splice(0)) await ordered.push(index, e as unknown as Rec);
          };
          try {
            await reportUnit(api, unit, plan, processor(), explainRecords ? explanations : (rec) => ordered.push(index, rec));
            if (explainRecords) await explanations();
          } finally {
            explained.delete(unit.did);
            await ordered.finish(index);
          }
        },
        end: async () => {
          await end();
          await acknowledge(out.io.stdout);
        },
      },
    );
  };
}

function makeProcessor(kind: Kind, plan: ReportPlan, fences: readonly Fence[], geo: boolean, explain: ((e: Explanation) => void) | undefined): UnitProcessor<unknown> {
  switch (kind) {
    case 'trips':
      return geo ? tripProcessor(plan.params, { path: true, explain }) : tripProcessor(plan.params, { explain });
    case 'stops':
      return stopProcessor(plan.params, { explain });
    case 'summary':
      return summaryProcessor(plan.tz, plan.params, { explain, window: plan.window });
    case 'overspeed':
      return overspeedProcessor(
        { limit: plan.limit, fences, minDurationS: plan.minDurationS, maxGapS: plan.params.maxGapS },
        { windowS: plan.params.reorderWindowS },
        geo,
      );
    case 'geofence':
      if (fences.length === 0) throw new UsageError('the geofence file holds no fence');
      return visitProcessor(fences, plan.params);
  }
}

/** Two processors fed the same reports, their records together. */
function both(a: UnitProcessor<unknown>, b: UnitProcessor<unknown>): UnitProcessor<Rec> {
  return {
    push: (r) => [...a.push(r), ...b.push(r)] as Rec[],
    finish: () => [...a.finish(), ...b.finish()] as Rec[],
  };
}

/** One unit's window through its processor; records are written as they complete. */
async function reportUnit(api: Api, unit: SelectedUnit, plan: ReportPlan, processor: UnitProcessor<Rec>, write: (rec: Rec) => Promise<void>): Promise<void> {
  const reply = await openHistoryPoints(api, unit.did, plan.window, new PointReader());
  for await (const batch of reply.batches) {
    for (const rec of pushAll(processor, batch)) await write(rec);
  }
  for (const rec of processor.finish()) await write(rec);
}

/**
 * The records a batch of reports completed, in order (most batches complete none). A plain
 * function, not the async one's loop: V8 optimises it early and inlines the processor into it.
 */
function pushAll(processor: UnitProcessor<Rec>, batch: readonly PointItem[]): readonly Rec[] {
  let out: Rec[] | undefined;
  for (let k = 0; k < batch.length; k++) {
    const recs = processor.push((batch[k] as PointItem).point);
    for (let i = 0; i < recs.length; i++) (out ??= []).push(recs[i] as Rec);
  }
  return out ?? NONE;
}
