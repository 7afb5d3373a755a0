/** `report trips|stops|summary|geofence`: fleet reports computed from the streamed history. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, lazyAction } from '../action.js';

// Kept here as text so that help loads none of the algorithms; a test checks it against their defaults.
export const REPORT_HELP = `
Trips and stops are found the way established fleet platforms (Traccar) find them. A report is moving
when its speed is above --speed-threshold (default 5, in the speed unit the service reports), or, once
the unit has sent a motion_state report, when the latest one says moving (--no-motion-state ignores
them). A run of movement is a trip only if it lasts at least --min-trip-duration (default 5m) and
covers at least --min-trip-distance km (default 0.5), so GPS jitter while parked makes none. Standing
still for --min-stop (default 5m) ends a trip and starts a stop; a shorter halt, at a light, does not.
Reports more than --max-gap apart (default 1h) end a trip at the last report before the gap. Distance
comes from the odometer where it increases plausibly, otherwise from great-circle distances. Late
reports up to --reorder-window (default 1h) older than the newest are placed by their date.

Days (summary) are calendar days in --tz (an IANA zone; default this machine's zone); a trip across
midnight is split between the days. JSON fields: trips did, name, start, end, duration, distanceKm,
maxSpeed, avgSpeed, startLat, startLng, startAddress, endLat, endLng, endAddress, drivingTime; stops
did, name, arrival, departure, duration, lat, lng, address; summary did, name, day, distanceKm,
drivingTime, stoppedTime, maxSpeed, trips, firstReport, lastReport, startOdometer, endOdometer;
geofence did, name, fence, enter, exit, duration, open (a visit still open at --to: exit null, open
true). Times are unix seconds (RFC 3339 in tables), durations seconds, distances km, speeds as the
service reports them. Records come as each unit's history is read (units side by side, in order
within a unit).

Units: ids, --group GID, --category device|sensor|trackedUser or --all-units, fetched --concurrency at
a time. A unit whose history fails is named on stderr and the exit code is 7.`;

type Kind = 'trips' | 'stops' | 'summary' | 'geofence';

const DESCRIPTIONS: Record<Kind, string> = {
  trips: 'Trips of units: start and end, place and address, distance, duration, driving time, speeds',
  stops: 'Stops of units: place, address, arrival, departure, duration',
  summary: 'Per unit and day: distance, driving and stopped time, max speed, trips, first and last report, odometer',
  geofence: 'Visits of units to the polygons of a GeoJSON file: enter, exit, duration',
};

const FORMATS: Record<Kind, string> = {
  trips: 'table, json, ndjson, csv, yaml, geojson (LineStrings), gpx (a track per trip), html (a map of the trips and the stops between them)',
  stops: 'table, json, ndjson, csv, yaml, geojson (Points), html (a map of the stops)',
  summary: 'table, json, ndjson, csv, yaml',
  geofence: 'table, json, ndjson, csv, yaml',
};

const EXAMPLES: Record<Kind, string[]> = {
  trips: [
    'trackctl report trips 2004 --from 2026-11-24 --to 2026-11-25',
    'trackctl report trips --group 101 --from 1d -o geojson > trips.geojson',
    'trackctl report trips --all-units --from 7d --min-trip-distance 1 -o csv > trips.csv',
    'trackctl map report trips --group 101 --from 1d',
  ],
  stops: ['trackctl report stops 2004 --from 1d', 'trackctl report stops --category device --from 1d --min-stop 15m -o json'],
  summary: ['trackctl report summary --all-units --from 7d --tz Europe/Berlin', 'trackctl report summary 2004 2005 --from 2026-11-01 --to 2026-11-30 -o csv'],
  geofence: ['trackctl report geofence --geofence depots.geojson --all-units --from 1d', 'trackctl report geofence --geofence yard.geojson 2004 --from 7d -o json'],
};

export function registerReport(program: Command, ctx: Context): void {
  const noun = program.command('report').description('Fleet reports computed from the history: trips, stops, daily summary, geofence visits');
  noun.addHelpText('after', REPORT_HELP);
  for (const kind of ['trips', 'stops', 'summary', 'geofence'] as const) {
    const cmd = noun
      .command(kind)
      .description(DESCRIPTIONS[kind])
      .argument('[ids...]', 'unit ids, or choose with --group, --category or --all-units')
      .option('--group <gid>', 'the units of group GID')
      .option('--category <category>', 'every unit of this category: device, sensor or trackedUser')
      .option('--all-units', 'every unit of the account')
      .option('--from <time>', 'reports dated after this time (default: 24 hours ago)')
      .option('--to <time>', 'reports dated up to this time (default: now)')
      .option('--concurrency <n>', 'units fetched at once, 1-64 (default 8)')
      .option('--shard <K/N>', 'only the units of shard K of N, by did (also TRACKCTL_SHARD)');
    if (kind === 'geofence') cmd.option('--geofence <file>', 'GeoJSON FeatureCollection of Polygons/MultiPolygons, each named by a "name" property');
    cmd.option('--tz <zone>', 'IANA time zone of the days of summary (default: this machine\'s)');
    cmd
      .option('--min-trip-distance <km>', 'shorter movements are not trips (default 0.5)')
      .option('--min-trip-duration <duration>', 'shorter movements are not trips (default 5m)')
      .option('--min-stop <duration>', 'a halt at least this long is a stop (default 5m)')
      .option('--max-gap <duration>', 'reports further apart end a trip (default 1h)')
      .option('--speed-threshold <speed>', 'moving above this speed, in the service\'s unit (default 5)')
      .option('--reorder-window <duration>', 'late reports up to this much older than the newest are placed by date (default 1h)')
      .option('--no-motion-state', 'ignore motion_state reports; decide by speed alone')
      .addHelpText('after', `\nOutput (-o): ${FORMATS[kind]}.\nParameters and fields: trackctl report --help.${examples(...EXAMPLES[kind])}`)
      .action(lazyAction(ctx, async () => ({ run: (await import('./run.js')).runFor(kind) })));
  }
}
