/**
 * The one table of what an argument or option value completes to: ids from
 * the service (by kind) or a fixed list. Values that commander already knows
 * (`.choices()`) need no entry; the engine reads those from the tree. Keep the
 * imports here to plain constants: completing a non-id word loads no HTTP code.
 */
import { REPORT_TYPES } from '../api/types.js';
import { CREDENTIAL_STORES, OUTPUT_FORMATS, PROFILE_KEYS } from '../config/schema.js';

/** What kind of record an id names; `unit` is any unit or user (GET /all-units/). */
export type IdKind = 'device' | 'sensor' | 'user' | 'group' | 'share' | 'unit';

export interface ValueSpec {
  /** Command path below `trackctl` ('devices get'), or '*' for any command. */
  path: string;
  /** Argument index (a variadic last argument covers every later word) … */
  arg?: number;
  /** … or the option's long flag. */
  option?: string;
  ids?: IdKind;
  /** Profile names, from the config file. */
  profiles?: boolean;
  values?: readonly string[];
  /** The value is a comma-separated list: complete the item after the last comma. */
  list?: boolean;
  /** Values depending on the arguments typed before (e.g. `config set <key> <value>`). */
  after?: (args: readonly string[]) => readonly string[];
}

const USER_TYPES = ['trackedUser', 'dispatcher'] as const;
const HISTORY_FORMATS = [...OUTPUT_FORMATS, 'geojson', 'gpx', 'kml', 'parquet', 'html'] as const;

function configValues(args: readonly string[]): readonly string[] {
  if (args[0] === 'credential-store') return CREDENTIAL_STORES;
  if (args[0] === 'output') return OUTPUT_FORMATS;
  return [];
}

export const VALUE_SPECS: readonly ValueSpec[] = [
  // Ids from the service.
  { path: 'devices get', arg: 0, ids: 'device' },
  { path: 'devices update', arg: 0, ids: 'device' },
  { path: 'devices delete', arg: 0, ids: 'device' },
  { path: 'sensors get', arg: 0, ids: 'sensor' },
  { path: 'sensors update', arg: 0, ids: 'sensor' },
  { path: 'sensors delete', arg: 0, ids: 'sensor' },
  { path: 'users get', arg: 0, ids: 'user' },
  { path: 'users update', arg: 0, ids: 'user' },
  { path: 'users delete', arg: 0, ids: 'user' },
  { path: 'groups get', arg: 0, ids: 'group' },
  { path: 'groups update', arg: 0, ids: 'group' },
  { path: 'groups delete', arg: 0, ids: 'group' },
  { path: 'shares get', arg: 0, ids: 'share' },
  { path: 'shares update', arg: 0, ids: 'share' },
  { path: 'shares delete', arg: 0, ids: 'share' },
  { path: 'shares url', arg: 0, ids: 'share' },
  { path: 'shares embed', arg: 0, ids: 'share' },
  { path: 'history', arg: 0, ids: 'unit' },
  { path: 'watch', arg: 0, ids: 'unit' },
  { path: 'shares create', option: '--device', ids: 'device' },
  { path: 'groups update', option: '--add-member', ids: 'unit' },
  { path: 'groups update', option: '--remove-member', ids: 'unit' },
  { path: 'groups update', option: '--add-viewer', ids: 'user' },
  { path: 'groups update', option: '--remove-viewer', ids: 'user' },
  { path: '*', option: '--group', ids: 'group' },
  { path: '*', option: '--add-group', ids: 'group' },
  { path: '*', option: '--remove-group', ids: 'group' },
  { path: '*', option: '--add-viewer-group', ids: 'group' },
  { path: '*', option: '--remove-viewer-group', ids: 'group' },
  { path: '*', option: '--profile', profiles: true },
  { path: 'config use', arg: 0, profiles: true },
  // Fixed values commander does not know as choices.
  { path: 'history', option: '--output', values: HISTORY_FORMATS },
  { path: 'history', option: '--types', values: REPORT_TYPES, list: true },
  { path: 'watch', option: '--output', values: ['table', 'ndjson', 'json'] },
  { path: 'units', option: '--output', values: [...OUTPUT_FORMATS, 'html'] },
  { path: 'map', arg: 0, values: ['history', 'units'] },
  { path: '*', option: '--output', values: OUTPUT_FORMATS },
  { path: 'users create', option: '--type', values: USER_TYPES },
  { path: 'config get', arg: 0, values: PROFILE_KEYS },
  { path: 'config set', arg: 0, values: PROFILE_KEYS },
  { path: 'config unset', arg: 0, values: PROFILE_KEYS },
  { path: 'config set', arg: 1, after: configValues },
];

/** The spec for an option of the command at `path`; a command's own entry wins over '*'. */
export function optionSpec(path: string, long: string): ValueSpec | undefined {
  return (
    VALUE_SPECS.find((s) => s.path === path && s.option === long) ??
    VALUE_SPECS.find((s) => s.path === '*' && s.option === long)
  );
}

/** The spec for argument `index`, given the command's argument count and whether its last is variadic. */
export function argSpec(path: string, index: number, argCount: number, lastVariadic: boolean): ValueSpec | undefined {
  const at = lastVariadic && index >= argCount - 1 ? argCount - 1 : index;
  return VALUE_SPECS.find((s) => s.path === path && s.arg === at);
}
