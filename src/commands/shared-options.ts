/**
 * Option groups several commands share, declared once and spread into their declarations
 * (wrangler's `...selectionArgs`): the unit selection, the fleet's concurrency, the time
 * window and zone, list arrangement, the checkpoint and the lake. A command that words one
 * differently passes its own help; the flag, its kind and its key stay the same.
 */
import { choice, flag, int, size, strictChoice, text, time } from './declare.js';
import { bytes, concurrencyValue, id, positiveInt } from './values.js';

/** The units of a group: `--group <gid>` (its help says what the command does with them). */
export const group = (help = 'the units of group GID') => int('--group <gid>', help, id('group id'));

export const category = (help = 'every unit of this category: device, sensor or trackedUser') => choice('--category <category>', ['device', 'sensor', 'trackedUser'], help);

/** --category checked by commander before the command runs (help lists the choices). */
export const strictCategory = <const C extends readonly string[]>(values: C, help: string) => strictChoice('--category <category>', values, help);

export const allUnits = (help = 'every unit of the account') => flag('--all-units', help);

/** The units a fleet command reads beside the ids it is given: --group, --category, --all-units. */
export const selection = (help: { allUnits?: string } = {}) => [group(), category(), allUnits(help.allUnits)] as const;

export const concurrency = () => int('--concurrency <n>', 'units fetched at once, 1-64', concurrencyValue, { default: '8' });

/** --tz: the zone times are read and shown in (ctx.timeZone() applies the rule). */
export const zone = () => text('--tz <zone>', "IANA time zone of the times typed and shown, e.g. Europe/Berlin (default: TZ, the profile's tz, this machine's)");

/** --from, --to and --tz: a window of time read in the invocation's zone. */
export const window = (help: { from: string; to: string }) => [time('--from <time>', help.from), time('--to <time>', help.to), zone()] as const;

/** What every list takes beside the output options: --sort-by FIELD (-FIELD: descending) and --limit N. */
export const listing = () =>
  [text('--sort-by <field>', 'order by this field (a column or record field; --sort-by=-FIELD: descending)'), int('--limit <n>', 'print at most N records (after sorting)', positiveInt)] as const;

/** --checkpoint FILE: what the command keeps in it differs, the file is the same kind. */
export const checkpoint = (help: string) => text('--checkpoint <file>', help);

export const shard = () => text('--shard <K/N>', 'only the units of shard K of N, by did (also TRACKCTL_SHARD)');

/** Where and how fleet-wide files are written: --out-dir, its layout, partitions, codec, part size, shard. */
export const lake = () =>
  [
    text('--out-dir <dir>', 'write one file per unit (or per unit and day) into DIR instead of stdout'),
    choice('--partition <by>', ['unit', 'day'], 'with --out-dir: unit (default) or day; with --layout hive: day (default) or unit'),
    choice('--layout <layout>', ['files', 'hive'], 'with --out-dir: files (default: per unit) or hive (fleet-wide files in day=YYYY-MM-DD/ folders)'),
    size('--max-file-size <size>', 'with --layout hive: start a new part past this size', bytes, { default: '128MB' }),
    choice('--compression <codec>', ['zstd', 'snappy', 'gzip', 'none'], 'Parquet codec: zstd (default), snappy, gzip or none'),
    shard(),
  ] as const;
