/** `wait` flags → a plan; every check happens here, before anything is sent. */
import { UsageError } from '../../errors.js';
import { parseDuration } from '../../io/format-time.js';
import { parseSelection, type UnitSelection } from '../../runs/selection.js';
import { parseCondition, type ConditionSpec } from '../../reports/conditions.js';

export interface WaitOptions {
  for?: string;
  /** Seconds. */
  timeout?: number;
  /** Seconds. */
  interval?: number;
  all?: boolean;
  any?: boolean;
  group?: number;
  category?: string;
  allUnits?: boolean;
}

export interface WaitPlan {
  selection: UnitSelection;
  condition: ConditionSpec;
  /** undefined: no time limit. */
  timeoutMs: number | undefined;
  intervalMs: number;
  /** true: one unit meeting the condition ends the wait. */
  any: boolean;
}

export const DEFAULT_INTERVAL_S = 10;

export function parseWaitPlan(args: readonly string[], opts: WaitOptions): WaitPlan {
  const selection = parseSelection(args, opts);
  if (opts.all && opts.any) throw new UsageError('choose one of --all and --any');
  if (opts.for === undefined) throw new UsageError('give the condition to wait for with --for');
  const condition = parseCondition(opts.for, (v) => parseDuration(v));
  return {
    selection,
    condition,
    timeoutMs: opts.timeout === undefined ? undefined : opts.timeout * 1000,
    intervalMs: (opts.interval ?? DEFAULT_INTERVAL_S) * 1000,
    any: opts.any === true,
  };
}
