/**
 * Unit selection flags for fleet-wide commands (history, report, watch): ids, --group GID,
 * --category C or --all-units. Parsing is pure and happens before anything is sent;
 * runs/select.ts resolves a selection against the service.
 */
import { UsageError } from '../errors.js';
import { parseIdList } from '../validate.js';

export const SELECT_CATEGORIES = ['device', 'sensor', 'trackedUser'] as const;
export type SelectCategory = (typeof SELECT_CATEGORIES)[number];

export type UnitSelection =
  | { kind: 'ids'; ids: number[] }
  | { kind: 'group'; gid: number }
  | { kind: 'category'; category: SelectCategory }
  | { kind: 'all' };

export interface SelectionFlags {
  /** --group's id, read as the option was (commands/values.ts). */
  group?: number;
  category?: string;
  allUnits?: boolean;
}

/** Operands and flags → one selection; exactly one way of choosing units. */
export function parseSelection(args: readonly string[], flags: SelectionFlags, what = 'unit id'): UnitSelection {
  const ways = [args.length > 0 && 'unit ids', flags.group !== undefined && '--group', flags.category !== undefined && '--category', flags.allUnits === true && '--all-units'].filter(
    (w): w is string => typeof w === 'string',
  );
  if (ways.length === 0) throw new UsageError('no units selected: give unit ids, --group GID, --category C or --all-units');
  if (ways.length > 1) throw new UsageError(`choose units one way: ${ways.join(' and ')} cannot be combined`);
  if (flags.group !== undefined) return { kind: 'group', gid: flags.group };
  if (flags.category !== undefined) {
    const c = flags.category.trim();
    const category = SELECT_CATEGORIES.find((k) => k.toLowerCase() === c.toLowerCase());
    if (category === undefined) throw new UsageError(`invalid --category "${flags.category}": use one of ${SELECT_CATEGORIES.join(', ')}`);
    return { kind: 'category', category };
  }
  if (flags.allUnits) return { kind: 'all' };
  return { kind: 'ids', ids: parseIdList([...args], what) };
}

