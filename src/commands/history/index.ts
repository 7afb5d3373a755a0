/** `history`: one top-level verb, its flags and help. */
import type { Command } from 'commander';
import { REPORT_TYPES } from '../../api/types.js';
import type { Context } from '../../context.js';
import { collect, examples, lazyAction } from '../action.js';

const FORMATS_HELP = `
Output (-o): table (default; DATE relative on a terminal, RFC 3339 when piped), csv (date as unix
seconds), json (an array of the features as the service sent them, GeoJSON Feature objects), ndjson
(one feature a line, like curl … | jq -c '.features[]'), yaml, geojson (a FeatureCollection),
gpx (GPX 1.1, one track), kml (KML 2.2, a placemark per report plus the track), parquet (to a
file: > FILE or --output-file, never a terminal; not with --follow). With --fields, json, ndjson
and yaml print flat records of the chosen properties. Output streams: reports are written as
they arrive and memory stays flat however long the history.

Parquet: one typed, nullable column per report property, named as the service names it (aid, did
int64; date timestamp in milliseconds, UTC; lat, lng, alt, speed, heading, battery, odometer,
precision, temperature double; satellites int32; the rest UTF-8 text), written in row groups of
50,000 reports. lat and lng are the geometry's coordinates. Numbers sent as text are read as
numbers; properties the interface does not name, and values that fit no column, go to "extra"
(a JSON object, null when empty). Readable by DuckDB, pyarrow, pandas and Spark.

--output-file FILE writes the output (any format) to a temporary file beside FILE and renames it
over FILE once whole: a run that fails or is interrupted leaves FILE as it was.

Times take unix seconds, ISO 8601 (2026-11-21, 2026-11-21T10:00:00Z), now, and relative forms
(15m, 2h ago, 3d). Without --from, --received-after or --all: the last 24 hours.

--follow prints what arrived so far, then polls for reports received since (late arrivals with
older dates included), printing each once; Ctrl-C stops after the request in flight and exits 0.
--checkpoint FILE (for cron) prints, on each run, the reports received since the previous run and
then saves the file atomically; the first run prints the window. A run that fails exits non-zero
and saves nothing: discard its output, the next run delivers those reports again. --from,
--received-after and --all only shape the first run. One file per unit and --types.

Report types: ${REPORT_TYPES.slice(0, 8).join(', ')},
  ${REPORT_TYPES.slice(8).join(', ')}.`;

export function registerHistory(program: Command, ctx: Context): void {
  program
    .command('history')
    .description('Print the position and event reports of a unit (GET /reports/history/<id>/), streamed')
    .argument('<id>', 'unit id (did of a device, sensor or tracked user)')
    .option('--from <time>', 'reports dated after this time (default: 24 hours ago)')
    .option('--to <time>', 'reports dated up to this time (needs --from)')
    .option('--received-after <time>', 'only reports the service received after this time, late arrivals included (lastQueryTime)')
    .option('--types <list>', 'only these report types, comma-separated or repeated', collect)
    .option('--all', 'the whole history: no time filter')
    .option('--follow', 'keep polling for newly received reports until Ctrl-C')
    .option('--interval <duration>', 'time between polls with --follow (default 30s)')
    .option('--checkpoint <file>', 'print only reports received since the run that last saved FILE, then save it')
    .option('--output-file <file>', 'write the output to FILE (put in place only once whole) instead of stdout')
    .addHelpText('after', FORMATS_HELP)
    .addHelpText(
      'after',
      examples(
        'trackctl history 2004',
        'trackctl history 2004 --from 2026-11-20 --to 2026-11-21 -o csv > day.csv',
        'trackctl history 2004 --from 3d --types sos,crash',
        'trackctl history 2004 --all -o ndjson | jq -c \'select(.properties.battery < 20)\'',
        'trackctl history 2004 --from 1d -o gpx > track.gpx',
        'trackctl history 2004 --from 7d -o parquet --output-file week.parquet',
        'trackctl history 2004 --follow --interval 1m',
        'trackctl history 2004 --checkpoint unit-2004.ckpt -o ndjson > batch.tmp && cat batch.tmp >> reports.ndjson',
      ),
    )
    .action(lazyAction(ctx, async () => import('./run.js')));
}
