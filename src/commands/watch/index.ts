/** `watch`: one top-level verb, declared: its flags, help and examples. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { defineCommand, duration, number, registerCommand, text } from '../declare.js';
import { allUnits, checkpoint, group, shard, strictCategory, zone } from '../shared-options.js';
import { amount, percent, seconds } from '../values.js';

const HELP = `
On a terminal: a live view of the units, redrawn in place, what needs attention on top (a recent
SOS or crash, stale, low battery, then moving, stopped). Elsewhere (or with -o ndjson; -o json is
the same, as a stream has no end to close an array): one JSON event a line, flushed each round:

  {"event":"report","did":2004,"name":"Van 4","time":1764000000,"lat":…,"lng":…,"speed":…,
   "battery":…,"address":…,"reportType":"report"}

Events: report (every report received), moving, stopped, stale, battery_low, sos, crash,
geofence_enter, geofence_exit (with "fence"), overspeed (with --speed-limit). time is unix seconds: the report's date, or for
stale the moment the unit became stale (last report + --stale; "lastReport" says when that was).
The first screen comes from GET /all-units/ (last position, battery, last report) and each unit's
reports of the 3 minutes up to its last one (its speed, and whether it stands or drives: a van
parked at the depot whose tracker still reports is stopped, however recent); then each
unit's history is polled with lastQueryTime (late reports included, placed by their date), one
round every --interval (longer for large fleets and after 429s). A unit already low on battery
gives one battery_low at the start; a unit silent for --stale gives one stale.

Motion follows motion_state reports once a unit sends them; before that, a speed above 5 (as the
service reports it, km/h) is moving, and 2 minutes at or below it is stopped. battery_low fires once
per crossing below --low-battery and is armed again at 5 points above it. A late report (dated
before the unit's newest) gives report and sos/crash events but changes no state.

--checkpoint FILE keeps every unit's cursor and state (its starting point fixed when the file is
made), saved atomically after each round's events were accepted by stdout (and locked while a
watch uses it): stopped with Ctrl-C and started again, every event is written once. After a kill
(SIGKILL) the events of the last round may repeat. On a pipe a round is saved only once more
output than the pipe can hold (1 MiB; a socket: its buffers) was accepted after it; a reader that
went away (| head) ends the watch quietly (exit 141) at the next write and nothing it may not have read is saved
(the next run may repeat that much). Every unit given up alike: that exit code (4: not found);
some: 7.
--geofence FILE: a GeoJSON FeatureCollection of Polygons/MultiPolygons, each with a "name".
--speed-limit KMH: one overspeed event per episode above the limit ("limit", "fence", "start",
"maxSpeed"), found as report overspeed finds them (30 s or longer), told once it has lasted 30 s.
Ctrl-C stops after the round in flight, flushes, saves and exits 0; a second Ctrl-C exits 130.
SIGTERM stops the same way but exits 143 ("terminated").

--exit-on EVENT[,EVENT...] (any of the events above): the watch ends with exit 0 once a round has
printed one of them (with the rest of that round's events, and the checkpoint saved), for
\`trackctl watch --all-units --exit-on sos && page-someone\` (units that failed meanwhile are named
on stderr; the event still ends it with 0). An unknown event name is exit 2; Ctrl-C before the
event exits 130.`;

export const watch = defineCommand({
  name: 'watch',
  summary: 'Watch units live: a fleet view on a terminal, an NDJSON event stream elsewhere',
  args: [{ spec: '[ids...]', help: 'unit ids, or choose with --group, --category or --all-units (default: every unit)' }],
  options: [
    group(),
    strictCategory(['device', 'sensor', 'trackedUser'], 'every unit of this category'),
    allUnits('every unit of the account (the default)'),
    duration('--interval <duration>', 'time between rounds of polls', seconds(1), { default: '30s' }),
    duration('--stale <duration>', 'a unit without reports for this long is stale', seconds(1), { default: '1d' }),
    number('--low-battery <pct>', 'battery percentage below which a unit is low', percent, { default: '20' }),
    text('--geofence <file>', 'GeoJSON file of named polygons: geofence_enter / geofence_exit events'),
    number('--speed-limit <kmh>', 'overspeed events above this speed (km/h); inside a --geofence feature with a "speedLimit", the lower of the two', amount('positive', 'km/h')),
    checkpoint('resume from FILE and save cursors and states to it after each round'),
    shard(),
    text('--exit-on <events>', 'exit 0 after the round that printed one of these events, e.g. sos,crash'),
    zone(),
  ],
  notes: `${HELP}\n`,
  examples: [
    'trackctl watch',
    'trackctl watch --group 101 --stale 2h --low-battery 25',
    'trackctl watch 2004 2005 -o ndjson | jq -c \'select(.event != "report")\'',
    'trackctl watch --category device --geofence depots.geojson -o ndjson >> events.ndjson',
    'trackctl watch --all-units --checkpoint watch.ckpt -o ndjson | ./alert.sh',
    'trackctl watch --all-units --exit-on sos,crash -o ndjson > alert.ndjson && ./page.sh alert.ndjson',
  ],
  load: () => import('./run.js'),
});

export function registerWatch(program: Command, ctx: Context): void {
  registerCommand(program, watch, ctx);
}
