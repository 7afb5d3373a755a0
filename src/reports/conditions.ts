/**
 * `trackctl wait`: whether a unit meets a condition, from its reports and the clock. Pure:
 * no I/O, no clock of its own. The unit's state is the watch's (watch-events.ts), so
 * `moving`, `stopped`, staleness and positions mean here what they mean in `watch`.
 *
 * A `UnitWait` is fed, in this order: the reports the unit had sent before the wait
 * (`seed`, date order), then each round's newly received reports (`observe`, date order)
 * and the service's clock (`tick`). Each call returns what met the condition, if it holds:
 * - reporting: a report received after the wait began (the first one fed to `observe`,
 *   late ones included: the unit is reporting again);
 * - moving / stopped: the unit's motion after a report (speed or motion_state, as in watch);
 * - stale=D: no report for D (a unit that never reported is stale at once), met at
 *   the moment it became stale (last report + D);
 * - inside=FILE / outside=FILE: the unit's newest position is inside one of the polygons /
 *   outside all of them (a unit with no known position is neither);
 * - battery_low=PCT: the newest known battery level is below PCT.
 * Names are watch's event names (battery_low, not battery-below, which is still read, as is
 * `report` for `reporting`), so a script says one word for one thing in both commands.
 * A late report (dated before the newest) changes no state, so only `reporting` can be met by one.
 */
import { UsageError } from '../errors.js';
import { inFence, type Fence } from './fences.js';
import { observe, type UnitSnapshot, type WatchReport } from './watch-events.js';
import { initialState } from './watch-start.js';
import { DEFAULT_WATCH_PARAMS, type UnitWatchState, type WatchParams } from './watch-state.js';

export const CONDITION_NAMES = ['reporting', 'moving', 'stopped', 'stale=D', 'inside=FILE', 'outside=FILE', 'battery_low=PCT'] as const;

/** Earlier or watch's spellings of a condition's name, read as the name. */
const SPELLINGS: Readonly<Record<string, string>> = { 'battery-below': 'battery_low', battery_below: 'battery_low', 'battery-low': 'battery_low', report: 'reporting' };

export type ConditionSpec =
  | { kind: 'reporting' | 'moving' | 'stopped' }
  | { kind: 'stale'; seconds: number }
  | { kind: 'inside' | 'outside'; file: string }
  | { kind: 'battery_low'; pct: number };

/** A condition ready to evaluate: a fence file's polygons are loaded. */
export type Condition = Exclude<ConditionSpec, { file: string }> | { kind: 'inside' | 'outside'; file: string; fences: readonly Fence[] };

/** What met the condition: the report (or, for stale, the last one) and when it held. */
export interface Met {
  did: number;
  name: string;
  condition: string;
  /** Unix seconds: the report's date; for stale, the moment the unit became stale. */
  time: number;
  /** The report's date (null: a stale unit that never reported). */
  date: number | null;
  lat: number | null;
  lng: number | null;
  speed: number | null;
  battery: number | null;
  address: string | null;
  reportType: string | null;
  /** inside: the fence the unit is in. */
  fence?: string;
}

/**
 * `--for` text → a condition; durations are read by `duration` (seconds), so the caller's
 * rules for them apply. Errors name the text and the conditions there are.
 */
export function parseCondition(text: string, duration: (value: string) => number): ConditionSpec {
  const at = text.indexOf('=');
  const typed = (at < 0 ? text : text.slice(0, at)).trim().toLowerCase();
  const name = SPELLINGS[typed] ?? typed;
  const value = at < 0 ? undefined : text.slice(at + 1).trim();
  const fail = (why: string): never => {
    throw new UsageError(`invalid --for "${text}": ${why}`, { hint: `Conditions: ${CONDITION_NAMES.join(', ')}` });
  };
  const needs = (what: string): string => (value === undefined || value === '' ? fail(`${name} needs a value: ${name}=${what}`) : value);
  switch (name) {
    case 'reporting':
    case 'moving':
    case 'stopped':
      if (value !== undefined) fail(`${name} takes no value`);
      return { kind: name };
    case 'stale': {
      let seconds: number;
      try {
        seconds = duration(needs('DURATION'));
      } catch (err) {
        return fail((err as Error).message);
      }
      if (!(seconds > 0)) fail('the duration must be more than zero');
      return { kind: 'stale', seconds };
    }
    case 'inside':
    case 'outside':
      return { kind: name, file: needs('FILE.geojson') };
    case 'battery_low': {
      const v = needs('PCT').replace(/%$/, '');
      const pct = /^\d+(?:\.\d+)?$/.test(v) ? Number(v) : Number.NaN;
      if (!(pct > 0 && pct <= 100)) fail('expected a percentage from 1 to 100');
      return { kind: 'battery_low', pct };
    }
    default:
      return fail(name === '' ? 'no condition' : `unknown condition "${typed}"`);
  }
}

/** How a condition is written back (the `condition` field of what met it). */
export function conditionLabel(c: Condition): string {
  switch (c.kind) {
    case 'stale':
      return `stale=${c.seconds}s`;
    case 'inside':
    case 'outside':
      return `${c.kind}=${c.file}`;
    case 'battery_low':
      return `battery_low=${c.pct}`;
    default:
      return c.kind;
  }
}

const PARAMS: WatchParams = { ...DEFAULT_WATCH_PARAMS, fences: [] };

/** One unit's wait: its watch state and whether (and by what) the condition was met. */
export class UnitWait {
  readonly state: UnitWatchState;
  met: Met | undefined;
  /** The newest report fed (by date): what a state condition met at once prints. */
  private newest: WatchReport | undefined;
  private readonly label: string;

  constructor(
    private readonly condition: Condition,
    snapshot: UnitSnapshot,
  ) {
    this.state = initialState(snapshot, PARAMS).state;
    this.label = conditionLabel(condition);
  }

  /** The reports before the wait began, in date order; then the state as it stands at `now`. */
  seed(reports: readonly WatchReport[], now: number): Met | undefined {
    // The snapshot's last report time may be newer than any report the history shows (or
    // be that of one it leaves out): the reports decide the state, the snapshot only the newest time.
    const listed = this.state.lastReport;
    if (reports.length > 0) this.state.lastReport = null;
    for (const r of reports) this.feed(r);
    if (listed !== null && (this.state.lastReport === null || listed > this.state.lastReport)) this.state.lastReport = listed;
    if (this.condition.kind === 'reporting') return undefined;
    return this.tick(now) ?? this.check(this.newest?.date ?? this.state.lastReport, this.newest);
  }

  /** Reports received during the wait, in date order. */
  observe(reports: readonly WatchReport[]): Met | undefined {
    for (const r of reports) {
      if (this.met) break;
      const newest = this.feed(r);
      if (this.condition.kind === 'reporting') this.met = this.record(r.date, r);
      else if (newest) this.check(r.date, r);
    }
    return this.met;
  }

  /** The service's clock moved to `now` (unix seconds): only staleness changes with it. */
  tick(now: number): Met | undefined {
    const c = this.condition;
    if (this.met || c.kind !== 'stale') return this.met;
    const last = this.state.lastReport;
    if (last === null || now - last >= c.seconds) this.met = this.record(last === null ? Math.floor(now) : last + c.seconds);
    return this.met;
  }

  /** Feeds one report to the state; true when it is the unit's newest (it moved the state). */
  private feed(r: WatchReport): boolean {
    const before = this.state.lastReport;
    observe(this.state, r, PARAMS);
    const newest = before === null || r.date >= before;
    if (newest) this.newest = r;
    return newest;
  }

  /** Whether the state meets a state condition now; `time` is when, `r` the newest report (if any). */
  private check(time: number | null, r: WatchReport | undefined): Met | undefined {
    if (this.met || time === null) return this.met;
    const s = this.state;
    const c = this.condition;
    const known = s.lat !== null && s.lng !== null;
    const inside = c.kind === 'inside' || c.kind === 'outside' ? (known ? c.fences.find((f) => inFence(f, s.lng!, s.lat!)) : undefined) : undefined;
    let holds: boolean;
    switch (c.kind) {
      case 'moving':
      case 'stopped':
        holds = s.motion === c.kind;
        break;
      case 'battery_low':
        holds = s.battery !== null && s.battery < c.pct;
        break;
      case 'inside':
        holds = inside !== undefined;
        break;
      case 'outside':
        holds = known && inside === undefined;
        break;
      default:
        holds = false;
    }
    if (holds) this.met = { ...this.record(time, r), ...(inside && c.kind === 'inside' ? { fence: inside.name } : {}) };
    return this.met;
  }

  /** The record printed: the report given, else what the state knows (the snapshot, or stale's last report). */
  private record(time: number, r?: WatchReport): Met {
    const s = this.state;
    const n = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
    if (r) {
      return {
        did: s.did,
        name: s.name,
        condition: this.label,
        time,
        date: r.date,
        lat: n(r.lat),
        lng: n(r.lng),
        speed: n(r.speed),
        battery: n(r.battery),
        address: typeof r.address === 'string' ? r.address : null,
        reportType: typeof r.reportType === 'string' ? r.reportType : null,
      };
    }
    return {
      did: s.did,
      name: s.name,
      condition: this.label,
      time,
      date: s.lastReport,
      lat: s.lat,
      lng: s.lng,
      speed: s.speed,
      battery: s.battery,
      address: s.address,
      reportType: this.newest?.reportType ?? null,
    };
  }
}
