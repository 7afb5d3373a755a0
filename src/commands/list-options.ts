/**
 * What every list takes beside the output options, declared once (as kubectl and gh do):
 * -o wide and -o name, --sort-by FIELD (descending: --sort-by=-FIELD) and --limit N.
 */
import { Option, type Command } from 'commander';
import { UsageError } from '../errors.js';
import type { ListArrangement } from '../io/render/types.js';

export interface ListOptions {
  sortBy?: string;
  limit?: string;
}

/** Adds --sort-by and --limit to a list command. */
export function listOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--sort-by <field>', 'order by this field (a column or record field; --sort-by=-FIELD: descending)'))
    .addOption(new Option('--limit <n>', 'print at most N records (after sorting)'));
}

/** The flags as the output layer takes them; a bad --limit is exit 2 before any request. */
export function listArrangement(opts: ListOptions): ListArrangement {
  const arrangement: ListArrangement = {};
  if (opts.limit !== undefined) {
    const v = opts.limit.trim();
    if (!/^[1-9]\d{0,8}$/.test(v)) throw new UsageError(`invalid --limit "${opts.limit}": expected a positive integer`);
    arrangement.limit = Number(v);
  }
  if (opts.sortBy !== undefined) {
    const field = opts.sortBy.trim().replace(/^(-?)\./, '$1');
    if (field === '' || field === '-') throw new UsageError('--sort-by needs a field name, e.g. --sort-by name');
    arrangement.sortBy = field;
  }
  return arrangement;
}
