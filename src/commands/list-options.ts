/**
 * What every list takes beside the output options (as kubectl and gh do): -o wide and -o name,
 * --sort-by FIELD (descending: --sort-by=-FIELD) and --limit N, declared in shared-options.ts,
 * read here.
 */
import type { Command } from 'commander';
import { toOption } from './declare.js';
import { listing } from './shared-options.js';
import { UsageError } from '../errors.js';
import type { ListArrangement } from '../io/render/types.js';

export interface ListOptions {
  sortBy?: string;
  limit?: string;
}

/** Adds --sort-by and --limit (declared in shared-options.ts) to a list command not yet declared whole. */
export function listOptions(cmd: Command): Command {
  for (const o of listing()) cmd.addOption(toOption(o));
  return cmd;
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
