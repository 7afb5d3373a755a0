/** `report trips|stops|summary|overspeed|geofence`: fleet reports computed from the streamed history. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, duration, flag, number, registerCommand, text } from '../declare.js';
import { concurrency, selection, shard, window } from '../shared-options.js';
import { amount, anySeconds, seconds } from '../values.js';
import { ZONE_HELP } from '../time-options.js';

// Kept here as text so that help loads none of the algorithms; a test checks it against their defaults.
export const REPORT_HELP = `
Stops are found by where the unit was, not by its speed alone (parked trackers read 5-30 km/h from
position noise, fall silent, report every second or every few minutes). A unit that stays within
--stop-radius metres (default 100) for at least --min-stop (default 5m) is stopped, silences included:
a logger that sleeps while parked and wakes at the same place was stopped all along, from its last
report before the silence. A stop is placed at the median of its fixes and ends when a fix falls
outside the radius, however short the move that follows. A move between two stops is a trip when it
covers --min-trip-distance km (default 0.5) or lasts --min-trip-duration (default 5m), as Traccar
decides; shorter ones are short moves: not trips, but their distance counts in the summary. A move
that comes back to the stop it left within 3 stop radii, or with a single fix beyond it, is jitter.
Every silence after which the unit is elsewhere is explained, whatever its length: at rest before
and not driving after it, a trip from the last report before it to the first after it; at rest
before and driving after it, a stop until the way to that first fix began (at the speed it drives)
when the way leaves --min-stop of the silence (a tracker whose first fix comes minutes after it
drove off), else the trip from the last report; driving before and at rest after it with --min-stop of it left,
a stop from when the way at the last report's speed ends; else the move goes on across it. The distance across is the
odometer's or the straight line. A trip that crossed a silence longer than --max-gap (default 1h) in
which the unit moved is marked inferred: true (no report shows that part; the reports around the
silence bound its start and end). A fix implying more than --outlier-speed km/h (default 300) from
both neighbours, or lying farther from a neighbour than the odometer counts, is left out. A report
is moving when its speed is above --speed-threshold (default 5), or, once the unit has sent a
motion_state report, when the latest one says moving (--no-motion-state ignores them); that places
departures and arrivals within the radius and counts driving time. A motion_state moving report
after a silence of --min-stop or more says the unit stood where it sets off: the move before ended
there (a stop when it rested or was seen there); a stopped report followed by a silence after which
the unit is elsewhere ends the move at that report. Distance comes from the odometer where it increases
plausibly, otherwise from great-circle distances. Late reports up to --reorder-window (default 1h)
older than the newest are placed by their date. A day's trips and stops are the same in any window
that holds the day; what the window's edge cuts or leaves undecided is marked partial: true, a stop
at the window's edge shorter than --min-stop is no stop, and a last fix farther from the one before
than their odometers count is left out. --explain says why each stretch became a trip, short move,
stop, gap or outlier, and the story chosen for each silence (on stderr; with -o json or ndjson, as
the records).

Overspeed: an episode runs from the first report above the limit to the first back at or under it
and counts when it lasts --min-duration (default 30s). The limit is --limit, or inside a --geofence
Feature with a numeric "speedLimit" property that limit (the lowest that applies wins).

Days (summary) are calendar days in the zone (--tz, TZ, the profile's tz or this machine's), of 23
or 25 hours where clocks change; a day the window cuts is partial: true. A move across midnight is
split between the days. JSON fields: trips did, name, start, end, duration, distanceKm,
maxSpeed, avgSpeed, startLat, startLng, startAddress, endLat, endLng, endAddress, drivingTime,
partial, inferred; stops did, name, arrival, departure, duration, lat, lng, address, open, partial; summary
did, name, day, distanceKm, odometerKm (the odometer's own count), drivingTime, stoppedTime,
maxSpeed, trips, firstReport, lastReport, startOdometer, endOdometer, partial; overspeed did, name, start,
end, duration, maxSpeed, avgSpeed, limit, distanceKm, lat, lng (where the maximum was), fence (null
for --limit), partial; geofence did, name, fence, enter, exit, duration, open (a visit still open at
--to: exit null, open true). Times are unix seconds (clock times in the zone in terminal tables,
RFC 3339 UTC in piped ones), durations seconds (1h 12m in terminal tables), distances km, speeds
as the service reports them (a trip's maxSpeed and avgSpeed null when none of its reports carries one). Records come as each unit's history is read
(units side by side, in order within a unit).

${ZONE_HELP}

Units: ids, --group GID, --category device|sensor|trackedUser or --all-units, fetched --concurrency at
a time. A unit whose history fails is named on stderr and the others go on: every unit failed
alike, that failure's exit code (4: none found); some, 7.`;

type Kind = 'trips' | 'stops' | 'summary' | 'overspeed' | 'geofence';

const DESCRIPTIONS: Record<Kind, string> = {
  trips: 'Trips of units: start and end, place and address, distance, duration, driving time, speeds',
  stops: 'Stops of units: place, address, arrival, departure, duration',
  summary: 'Per unit and day: distance (GPS and odometer), driving and stopped time, max speed, trips, first and last report',
  overspeed: 'Episodes of units driving above a speed limit (--limit, or a geofence\'s speedLimit)',
  geofence: 'Visits of units to the polygons of a GeoJSON file: enter, exit, duration',
};

const FORMATS: Record<Kind, string> = {
  trips: 'table, json, ndjson, csv, yaml, geojson (LineStrings), gpx (a track per trip), html (a map of the trips and the stops between them)',
  stops: 'table, json, ndjson, csv, yaml, geojson (Points), html (a map of the stops)',
  summary: 'table, json, ndjson, csv, yaml',
  overspeed: 'table, json, ndjson, csv, yaml, geojson (LineStrings), html (a map of the episodes)',
  geofence: 'table, json, ndjson, csv, yaml',
};

const EXAMPLES: Record<Kind, string[]> = {
  trips: [
    'trackctl report trips 2004 --from 2026-11-24 --to 2026-11-25',
    'trackctl report trips --group 101 --from 1d -o geojson > trips.geojson',
    'trackctl report trips --all-units --from 7d --min-trip-distance 1 -o csv > trips.csv',
    'trackctl report trips 2004 --from 1d --explain',
  ],
  stops: ['trackctl report stops 2004 --from 1d', 'trackctl report stops --category device --from 1d --min-stop 15m -o json'],
  summary: ['trackctl report summary --all-units --from 7d --tz Europe/Berlin', 'trackctl report summary 2004 2005 --from 2026-11-01 --to 2026-11-30 -o csv'],
  overspeed: [
    'trackctl report overspeed --all-units --from 1d --limit 90',
    'trackctl report overspeed --group 101 --from 7d --limit 110 --geofence zones.geojson --min-duration 1m -o csv',
  ],
  geofence: ['trackctl report geofence --geofence depots.geojson --all-units --from 1d', 'trackctl report geofence --geofence yard.geojson 2004 --from 7d -o json'],
};

const MOTION_OPTIONS = [
  number('--min-trip-distance <km>', 'a move this long is a trip', amount('non-negative', 'km'), { default: '0.5' }),
  duration('--min-trip-duration <duration>', 'a move lasting this long is a trip', anySeconds, { default: '5m' }),
  duration('--min-stop <duration>', 'staying within --stop-radius this long is a stop', anySeconds, { default: '5m' }),
  number('--stop-radius <metres>', 'farther than this from where it stood, the unit left', amount('positive', 'metres'), { default: '100' }),
  number('--outlier-speed <kmh>', 'a fix implying more from both neighbours is left out', amount('positive', 'km/h'), { default: '300' }),
  number('--speed-threshold <speed>', "moving above this speed, in the service's unit", amount('non-negative'), { default: '5' }),
] as const;

const MAX_GAP = duration('--max-gap <duration>', 'a trip across a longer silence in which the unit moved is marked inferred', seconds(), { default: '1h' });
const REORDER = duration('--reorder-window <duration>', 'late reports up to this much older than the newest are placed by date', anySeconds, { default: '1h' });

const MOTION_FLAGS = [
  flag('--no-motion-state', 'ignore motion_state reports; decide by speed alone'),
  flag('--explain', 'say why each stretch became a trip, short move, stop, gap or outlier (stderr; the records with -o json|ndjson)'),
] as const;

/** The options only some reports take, in help order. */
const OWN_OPTIONS = {
  trips: [...MOTION_OPTIONS, MAX_GAP, REORDER, ...MOTION_FLAGS],
  stops: [...MOTION_OPTIONS, MAX_GAP, REORDER, ...MOTION_FLAGS],
  summary: [...MOTION_OPTIONS, MAX_GAP, REORDER, ...MOTION_FLAGS],
  overspeed: [
    number('--limit <kmh>', "the speed limit, in the service's unit (km/h); needed unless a --geofence fence has a speedLimit (then only inside such fences is speed judged)", amount('positive', 'km/h')),
    duration('--min-duration <duration>', 'shorter episodes do not count', anySeconds, { default: '30s' }),
    text('--geofence <file>', 'GeoJSON fences; a Feature\'s numeric "speedLimit" property is the limit inside it (the lowest wins)'),
    MAX_GAP,
    REORDER,
  ],
  geofence: [text('--geofence <file>', 'GeoJSON FeatureCollection of Polygons/MultiPolygons, each named by a "name" property'), REORDER],
} as const;

/** One report's declaration: the shared unit selection, window and sharding, then its own options. */
function reportCommand<K extends Kind>(kind: K) {
  return defineCommand({
    name: kind,
    summary: DESCRIPTIONS[kind],
    args: [{ spec: '[ids...]', help: 'unit ids, or choose with --group, --category or --all-units' }],
    options: [
      ...selection(),
      ...window({ from: 'reports dated after this time (default: 24 hours ago)', to: 'reports dated up to this time (default: now)' }),
      concurrency(),
      shard(),
      ...OWN_OPTIONS[kind],
    ],
    notes: `\nOutput (-o): ${FORMATS[kind]}.\nParameters and fields: trackctl report --help.`,
    examples: EXAMPLES[kind],
    load: async () => ({ run: (await import('./run.js')).runFor(kind) }),
  });
}

export const REPORTS = (['trips', 'stops', 'summary', 'overspeed', 'geofence'] as const).map(reportCommand);

export function registerReport(program: Command, ctx: Context): void {
  const noun = program.command('report').description('Fleet reports computed from the history: trips, stops, daily summary, overspeed, geofence visits');
  noun.addHelpText('after', REPORT_HELP);
  for (const decl of REPORTS) registerCommand(noun, decl, ctx);
}
