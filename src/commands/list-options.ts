/**
 * What every list takes beside the output options (as kubectl and gh do): -o wide and -o name,
 * --sort-by FIELD (descending: --sort-by=-FIELD) and --limit N: declared in shared-options.ts
 * (listing), read here.
 */
import { UsageError } from '../errors.js';
import type { ListArrangement } from '../io/formats/render/types.js';

export interface ListOptions {
  sortBy?: string;
  limit?: number;
}

/** The flags as the output layer takes them; a bad --limit is exit 2 before any request. */
export function listArrangement(opts: ListOptions): ListArrangement {
  const arrangement: ListArrangement = {};
  if (opts.limit !== undefined) arrangement.limit = opts.limit;
  if (opts.sortBy !== undefined) {
    const field = opts.sortBy.trim().replace(/^(-?)\./, '$1');
    if (field === '' || field === '-') throw new UsageError('--sort-by needs a field name, e.g. --sort-by name');
    arrangement.sortBy = field;
  }
  return arrangement;
}
