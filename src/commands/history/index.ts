/** `history`: one top-level verb, declared: its flags, help and examples. */
import type { Command } from 'commander';
import { REPORT_TYPES } from '../../api/types.js';
import type { Context } from '../../context.js';
import { defineCommand, duration, flag, list, registerCommand, text, time } from '../declare.js';
import { checkpoint, concurrency, lake, selection, window } from '../shared-options.js';
import { seconds } from '../values.js';
import { ZONE_HELP } from '../time-options.js';

const FORMATS_HELP = `
Output (-o): table (default; DATE a clock time in the zone on a terminal, RFC 3339 UTC when piped),
csv (date as unix seconds), json (an array of the features as the service sent them, GeoJSON Feature objects), ndjson
(one feature a line, like curl … | jq -c '.features[]'), yaml, geojson (a FeatureCollection),
gpx (GPX 1.1, one track), kml (KML 2.2, a placemark per report plus the track), html (a map page
that opens offline; on a terminal it is written to a file; trackctl map history … opens it), parquet
(to a file: > FILE, --output-file or --out-dir, never a terminal; not with --follow). With --fields, json, ndjson
and yaml print flat records of the chosen properties. Output streams: reports are written as
they arrive and memory stays flat however long the history.

Parquet: one typed, nullable column per report property, named as the service names it (aid, did
int64; date timestamp in milliseconds, UTC; lat, lng, alt, speed, heading, battery, odometer,
precision, temperature double; satellites int32; the rest UTF-8 text), written in row groups of
50,000 reports. lat and lng are the geometry's coordinates. Numbers sent as text are read as
numbers; properties the interface does not name, and values that fit no column, go to "extra"
(a JSON object, null when empty). Readable by DuckDB, pyarrow, pandas and Spark.

--output-file FILE (one unit, any format) writes the output to a temporary file beside FILE and
renames it over FILE once whole: a run that fails or is interrupted leaves FILE as it was. A
symbolic link is followed (the file it names is replaced; the link stays); a device, FIFO or
socket (/dev/null, a named pipe) is written through; /dev/stdout is stdout.

Times take unix seconds, ISO 8601 (2026-11-21, 2026-11-21T10:00, 2026-11-21T10:00:00Z), today,
yesterday, weekday names, now, and relative forms (15m, 2h ago, 3d). Without --from,
--received-after or --all: the last 24 hours.
${ZONE_HELP}

--follow prints what arrived so far, then polls for reports received since (late arrivals with
older dates included), printing each once; Ctrl-C stops after the request in flight and exits 0.
--checkpoint FILE (for cron) prints, on each run, the reports received since the previous run and
then saves the file atomically; the first run prints the window. --from, --received-after and
--all only shape the first run. One file per selection and --types. A unit is saved only after its
output was accepted by its target: with --out-dir once its files are in place, so the units that
finished stay saved; a stream (stdout, --output-file) only when the whole run exits 0, after the
output was flushed (and synced, on a file). A stream run that exits non-zero (a unit failed: 7; the
disk is full: 1; the reader went away: 141, quietly) moves no unit's checkpoint: discard its output,
the next run delivers all of it again. A pipe holds accepted bytes until read: a reader that leaves
(| head) is seen at the next write, but not after the last one. With --follow, each round is saved once more
output than a pipe can hold (1 MiB; a socket: its buffers) was accepted after it (the next run may
repeat that much).

Many units (several ids, --group GID, --category device|sensor|trackedUser, --all-units) are
fetched --concurrency at a time (default 8) over one connection pool; a 429 pauses them all. The
output is one merged stream in which every record carries its did: each unit's reports in the
service's order, the units' batches interleaved as they arrive; gpx holds one track and kml one
folder per unit, units in the order they complete. A unit that fails is named on stderr once and the
others go on; every unit failed alike: that failure's exit code (4: not found), some: 7. One
--checkpoint FILE holds every unit's progress; killed at any point and run again, nothing is lost,
and a stream kept repeats what was written after the last save (de-duplicate on did, date,
reportType, reportValue, lat, lng, message). Units that join the selection later start at the first
run's window; units that leave it keep their entry. A single-unit checkpoint file is taken over as
that unit's entry.

--out-dir DIR writes one complete file per unit, DIR/<did>.<ext>, or with --partition day one per
unit and day (in the zone: --tz, TZ, the profile's tz), DIR/<did>/<YYYY-MM-DD>.<ext>; each is written under a temporary name and renamed
when the unit's reply was read whole (a unit that fails leaves nothing). A second run into the same
DIR without --checkpoint replaces the files; with --checkpoint it adds the new reports as a new part,
<did>.part<N>.<ext> (or <did>/<day>.part<N>.<ext>), N counting that unit's parts, and every report
lands in exactly one file, even after a kill (safe for cron). Units without new reports get no file.
-o table writes tab-separated .tsv files.

--layout hive (with --out-dir; for DuckDB, Spark, Trino, Athena, pyarrow) writes fleet-wide files
instead: DIR/day=YYYY-MM-DD/part-<run>-<n>.<ext> (UTC days), or with --partition unit
DIR/did=<did>/part-<run>-<n>.<ext>, each holding every unit of the run for that partition, sorted by
did then date, a new part past --max-file-size (default 128MB). Parts appear only when whole, after
every unit is in. With --checkpoint, a run's parts are recorded in FILE before they are published
and the units move after; a killed run's parts are removed by the next run, so every report lands
in exactly one file. --out-dir s3://bucket/prefix writes the same layout to S3, with credentials as
the AWS tools find them (environment keys; AWS_PROFILE and ~/.aws files with role_arn,
credential_process and SSO; web identity (IRSA); the container endpoint; EC2 IMDSv2), renewed before
they expire; AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL for S3-compatible stores, path-style; large
parts go up as multipart uploads.
--compression zstd|snappy|gzip|none sets the Parquet codec (default zstd); each Parquet file's
metadata names its schema version, the unit of speed, the window and the trackctl that wrote it.

--shard K/N (or TRACKCTL_SHARD=K/N; K from 0) keeps the units of shard K of N, by did, so N workers
split a fleet with no unit twice and none missing; --shard N takes K from JOB_COMPLETION_INDEX (a
Kubernetes Indexed Job). Give each shard its own --checkpoint.

Report types: ${REPORT_TYPES.join(', ')}.`;

export const history = defineCommand({
  name: 'history',
  summary: 'Print the position and event reports of units (GET /reports/history/<id>/), streamed',
  args: [{ spec: '[ids...]', help: 'unit ids (did of a device, sensor or tracked user), or choose with --group, --category or --all-units' }],
  options: [
    ...selection({ allUnits: 'every unit of the account (GET /all-units/)' }),
    concurrency(),
    ...lake(),
    ...window({ from: 'reports dated after this time (default: 24 hours ago)', to: 'reports dated up to this time (needs --from)' }),
    time('--received-after <time>', 'only reports the service received after this time, late arrivals included (lastQueryTime)'),
    list('--types <list>', 'only these report types, comma-separated or repeated'),
    flag('--all', 'the whole history: no time filter'),
    flag('--follow', 'keep polling for newly received reports until Ctrl-C'),
    duration('--interval <duration>', 'time between polls with --follow', seconds(1), { default: '30s' }),
    checkpoint('print only reports received since the run that last saved FILE, then save it'),
    text('--output-file <file>', 'write the output to FILE (put in place only once whole) instead of stdout'),
  ],
  notes: `${FORMATS_HELP}\n`,
  examples: [
    'trackctl history 2004',
    'trackctl history 2004 --from 2026-11-20 --to 2026-11-21 -o csv > day.csv',
    'trackctl history 2004 --from 3d --types sos,crash',
    'trackctl history 2004 --all -o ndjson | jq -c \'select(.properties.battery < 20)\'',
    'trackctl history 2004 --from 1d -o gpx > track.gpx',
    'trackctl history 2004 --from 7d -o parquet --output-file week.parquet',
    'trackctl history 2004 --follow --interval 1m',
    'trackctl history 2004 --checkpoint unit-2004.ckpt -o ndjson > batch.tmp && cat batch.tmp >> reports.ndjson',
    'trackctl history 2004 2005 2016 --from 1d -o csv > three.csv',
    'trackctl history --group 101 --from 2026-11-24 --to 2026-11-25 -o gpx > depot.gpx',
    'trackctl history --all-units --checkpoint fleet.ckpt --out-dir export --partition day -o ndjson',
    'trackctl history --category device --follow -o ndjson',
    'trackctl history --all-units --checkpoint lake.ckpt --out-dir s3://fleet-lake/history --layout hive -o parquet',
    'TRACKCTL_SHARD=2/4 trackctl history --all-units --checkpoint shard2.ckpt --out-dir lake --layout hive -o parquet',
  ],
  load: () => import('./run.js'),
});

export function registerHistory(program: Command, ctx: Context): void {
  registerCommand(program, history, ctx);
}
