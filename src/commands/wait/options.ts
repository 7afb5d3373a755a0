/** `wait` flags → a plan; every check happens here, before anything is sent. */
import { UsageError } from '../../errors.js';
import { parseDuration } from '../../io/format-time.js';
import { parseSelection, type UnitSelection } from '../../runs/selection.js';
import { parseCondition, type ConditionSpec } from '../../reports/conditions.js';

export interface WaitOptions {
  for?: string;
  timeout?: string;
  interval?: string;
  all?: boolean;
  any?: boolean;
  group?: string;
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

export const DEFAULT_INTERVAL = '10s';

function duration(value: string, flag: string): number {
  let s: number;
  try {
    s = parseDuration(value);
  } catch (err) {
    throw new UsageError(`invalid ${flag}: ${(err as Error).message}`);
  }
  if (!(s > 0)) throw new UsageError(`invalid ${flag} "${value}": must be more than zero`);
  return s;
}

export function parseWaitPlan(args: readonly string[], opts: WaitOptions): WaitPlan {
  const selection = parseSelection(args, opts);
  if (opts.all && opts.any) throw new UsageError('choose one of --all and --any');
  if (opts.for === undefined) throw new UsageError('give the condition to wait for with --for');
  const condition = parseCondition(opts.for, (v) => parseDuration(v));
  return {
    selection,
    condition,
    timeoutMs: opts.timeout === undefined ? undefined : duration(opts.timeout, '--timeout') * 1000,
    intervalMs: duration(opts.interval ?? DEFAULT_INTERVAL, '--interval') * 1000,
    any: opts.any === true,
  };
}
