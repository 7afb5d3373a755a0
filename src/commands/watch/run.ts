/**
 * `trackctl watch`: validate, take the units' state from GET /all-units/, then poll each
 * unit's history in rounds (a cursor per unit, as history --follow does) and turn the
 * reports into events (reports/watch-events.ts): a live view on a terminal, NDJSON elsewhere.
 *
 * A round: every unit is polled (a bounded pool); a unit's new reports are placed by date and
 * fed to its state, then the clock of its reply ticks it (stale). The round's events are
 * written in unit order and flushed, and only then is the checkpoint saved.
 */
import { getAllUnits, type AllUnits } from '../../api/all-units.js';
import type { Api } from '../../api/client.js';
import type { HistoryItem } from '../../api/history.js';
import { withCheckpointLock } from '../../auth/lock.js';
import type { Context } from '../../context.js';
import { ApiError, AuthError, NetworkError, PartialFailure, TrackctlError, UsageError } from '../../errors.js';
import { runPool } from '../../fleet/pool.js';
import { describeSelection, resolveUnits, type SelectedUnit } from '../../fleet/select.js';
import type { HistorySink } from '../../io/geo/sink.js';
import type { OutputOptions } from '../../io/output.js';
import { loadPainter, type Painter } from '../../io/render/paint.js';
import { compactJson } from '../../io/render/json.js';
import { loadFences } from '../../reports/fences.js';
import {
  byDate,
  DEFAULT_WATCH_PARAMS,
  initialState,
  observe,
  tick,
  type UnitSnapshot,
  type UnitWatchState,
  type WatchEvent,
  type WatchParams,
  type WatchReport,
} from '../../reports/watch-events.js';
import type { Run } from '../action.js';
import { Cursor, Poll } from '../history/cursor.js';
import { pause, watchInterrupts, type Interrupts } from '../history/follow.js';
import { streamQuery } from '../history/query.js';
import { WatchCheckpoint } from './checkpoint.js';
import { parseWatchPlan, type WatchOptions, type WatchPlan } from './options.js';
import { Screen, viewLines } from './view.js';

export const WATCH_FORMATS = ['table', 'ndjson', 'json'] as const;
/** Units polled at once. */
const CONCURRENCY = 8;
/** A round lasts at least this per unit (about 20 requests a second at most). */
const MIN_ROUND_MS_PER_UNIT = 50;
/** After rounds with 429s the interval grows up to this many times the base. */
const MAX_SLOWDOWN = 16;
/** A unit failing this many rounds in a row is given up (exit 7 at the end). */
const MAX_FAILED_POLLS = 5;

export const run: Run<WatchOptions> = async (args, opts, ctx) => {
  const plan = parseWatchPlan(args, opts);
  if (ctx.globals.raw) throw new UsageError('--raw cannot be used with watch: it writes events, not the service\'s replies');
  const { format, out } = await ctx.outputAs(WATCH_FORMATS);
  const fences = plan.geofence === undefined ? [] : await loadFences(plan.geofence);
  const params: WatchParams = { ...DEFAULT_WATCH_PARAMS, staleS: plan.staleS, lowBatteryPct: plan.lowBatteryPct, fences, speedLimit: plan.speedLimit };
  const live = format === 'table' && out.tty;
  try {
    const file = plan.checkpoint;
    if (file === undefined) return await new Watch(ctx, plan, params, out, live, undefined).run();
    await withCheckpointLock(file, async () => {
      await new Watch(ctx, plan, params, out, live, await WatchCheckpoint.open(file)).run();
    });
  } catch (err) {
    // `trackctl watch | head`: the reader left; end quietly.
    if ((err as NodeJS.ErrnoException).code === 'EPIPE') return;
    throw err;
  }
};

interface Watched {
  unit: SelectedUnit;
  cursor: Cursor;
  state: UnitWatchState;
  failures: number;
  given: boolean;
  error?: unknown;
}

/** What GET /all-units/ says of each unit, by did (tracked users through their device record). */
function snapshots(all: AllUnits): Map<number, UnitSnapshot> {
  const map = new Map<number, UnitSnapshot>();
  const add = (rec: Record<string, unknown>, name: unknown): void => {
    const did = Number(rec.did);
    if (!Number.isInteger(did) || did <= 0) return;
    map.set(did, {
      did,
      name: typeof name === 'string' ? name : '',
      lastReport: typeof rec.lastGPSTimestamp === 'number' ? rec.lastGPSTimestamp : null,
      battery: typeof rec.lastBatteryLevel === 'number' ? rec.lastBatteryLevel : null,
      lat: typeof rec.lastValidLatitude === 'number' ? rec.lastValidLatitude : null,
      lng: typeof rec.lastValidLongitude === 'number' ? rec.lastValidLongitude : null,
      address: typeof rec.lastKnownAddress === 'string' && rec.lastKnownAddress !== '' ? rec.lastKnownAddress : null,
    });
  };
  for (const u of [...all.devices, ...all.sensors]) add(u, u.name);
  for (const u of all.trackedUsers) {
    if (u.did === undefined || u.did === null || map.has(Number(u.did))) continue;
    add({ ...(u.device ?? {}), ...u, did: u.did }, u.name);
  }
  return map;
}

class Watch {
  private watched: Watched[] = [];
  /** The service's clock (unix seconds) at local time `localAt` (ms). */
  private serverAt = 0;
  private localAt = 0;
  private status = '';
  private screen: Screen | undefined;
  private painter: Painter | undefined;
  private title = '';
  private written = 0;
  /** The newest Date header seen (unix seconds): what the checkpoint records as its clock. */
  private newestReply = 0;
  /** stdout met EPIPE (process.stdout stays "writable" after it). */
  private pipeClosed = false;

  constructor(
    private readonly ctx: Context,
    private readonly plan: WatchPlan,
    private readonly params: WatchParams,
    private readonly out: OutputOptions,
    private readonly live: boolean,
    private readonly checkpoint: WatchCheckpoint | undefined,
  ) {}

  async run(): Promise<void> {
    const api = await this.ctx.api();
    const all = await getAllUnits(api);
    this.clock(all.serverTime);
    const known = snapshots(all);
    const units = await resolveUnits(api, this.plan.selection);
    this.title = `trackctl watch: ${describeSelection(this.plan.selection)}`;
    if (units.length === 0 && !this.ctx.globals.quiet) this.ctx.io.err(`No units in ${describeSelection(this.plan.selection)}.`);
    const start = all.serverTime ?? Math.floor(this.ctx.clock.now() / 1000);
    const pending = new Map<number, WatchEvent[]>();
    for (const unit of units) {
      const saved = this.checkpoint?.entry(unit.did);
      if (saved) {
        this.watched.push({ unit, cursor: saved.cursor, state: saved.state, failures: 0, given: false });
        continue;
      }
      const snap = known.get(unit.did) ?? { did: unit.did, name: unit.name ?? '' };
      if (snap.name === '' && unit.name) snap.name = unit.name;
      const { state, events } = initialState(snap, this.params);
      // Events start at the snapshot: the first poll asks for reports received since.
      this.watched.push({ unit, cursor: new Cursor(start), state, failures: 0, given: false });
      if (events.length > 0) pending.set(unit.did, events);
    }

    if (this.live) {
      this.painter = await loadPainter(this.out.color);
      this.screen = new Screen(this.ctx.io);
    }
    const interrupts = watchInterrupts((message) => this.say(message));
    const redraw = this.live ? setInterval(() => void this.draw().catch(() => undefined), 1000) : undefined;
    const resize = (): void => void this.draw().catch(() => undefined);
    const epipe = (err: NodeJS.ErrnoException): void => void (err.code === 'EPIPE' && (this.pipeClosed = true));
    if (this.live) this.ctx.io.stdout.on('resize', resize);
    else this.ctx.io.stdout.on('error', epipe);
    try {
      this.say('Ctrl-C to quit');
      await this.draw();
      await this.loop(api, interrupts, pending);
    } finally {
      clearInterval(redraw);
      if (this.live) this.ctx.io.stdout.off('resize', resize);
      else this.ctx.io.stdout.off('error', epipe);
      interrupts.dispose();
      await this.screen?.close();
    }
    this.finish();
  }

  private async loop(api: Api, interrupts: Interrupts, pending: Map<number, WatchEvent[]>): Promise<void> {
    let slowdown = 1;
    for (let first = true; ; first = false) {
      const throttledBefore = api.http.throttled;
      const events = first ? pending : new Map<number, WatchEvent[]>();
      const active = this.watched.filter((w) => !w.given);
      await runPool(active, CONCURRENCY, (w) => this.poll(api, w, events, interrupts.abort), interrupts.stop);
      if (interrupts.abort.aborted) throw interrupts.abort.reason;
      const fatal = this.watched.find((w) => w.error !== undefined && isFatal(w.error));
      if (fatal) throw fatal.error;
      await this.emit(events);
      if (this.checkpoint) {
        await this.checkpoint.save(this.watched.filter((w) => !w.given), this.newestReply || Math.floor(this.serverNow()), new Date(this.ctx.clock.now()).toISOString());
      }
      await this.draw();
      if (interrupts.stop.aborted || this.watched.every((w) => w.given) || (await this.readerGone())) return;
      slowdown = api.http.throttled > throttledBefore ? Math.min(MAX_SLOWDOWN, slowdown * 2) : Math.max(1, slowdown / 2);
      const waitMs = Math.max(this.plan.intervalMs, active.length * MIN_ROUND_MS_PER_UNIT) * slowdown;
      await pause(waitMs, interrupts.stop);
      if (interrupts.stop.aborted) return;
    }
  }

  /** One unit's poll: its new reports by date, then a tick at the reply's clock. */
  private async poll(api: Api, w: Watched, events: Map<number, WatchEvent[]>, abort: AbortSignal): Promise<void> {
    const query = w.cursor.next({}, undefined);
    const current = new Poll();
    const reports: WatchReport[] = [];
    const sink = {
      write: async (items: readonly HistoryItem[]) => {
        for (const item of items) reports.push(item.feature.properties);
      },
    } as Pick<HistorySink, 'write'> as HistorySink;
    try {
      const serverTime = await streamQuery(api, w.unit.did, query, sink, { poll: current, seen: w.cursor.seen }, abort);
      w.cursor.commit(current, query, serverTime);
      w.failures = 0;
      this.clock(serverTime);
      const now = serverTime ?? this.serverNow();
      const out = events.get(w.unit.did) ?? [];
      for (const r of byDate(reports.filter((r) => typeof r.date === 'number' && Number.isFinite(r.date)))) out.push(...observe(w.state, r, this.params));
      out.push(...tick(w.state, now, this.params));
      if (out.length > 0) events.set(w.unit.did, out);
    } catch (err) {
      if (abort.aborted) return;
      if (isFatal(err)) {
        w.error = err;
        return;
      }
      const transient = err instanceof NetworkError || (err instanceof ApiError && (err.status >= 500 || err.status === 429));
      if (!transient || ++w.failures >= MAX_FAILED_POLLS) {
        w.given = true;
        w.error = err;
        this.say(`error: unit ${w.unit.did}: ${(err as Error).message}; no longer watched`, true);
      } else {
        this.say(`warning: unit ${w.unit.did}: ${(err as Error).message}; trying again next round`, true);
      }
    }
  }

  /** Writes the round's events in unit order and flushes them (a terminal view just redraws). */
  private async emit(events: Map<number, WatchEvent[]>): Promise<void> {
    if (this.live) return;
    const fields = this.out.fields;
    const lines: string[] = [];
    for (const w of this.watched) {
      for (const e of events.get(w.unit.did) ?? []) lines.push(compactJson(fields ? project(e, fields) : e));
    }
    if (lines.length > 0) {
      await this.ctx.io.out(`${lines.join('\n')}\n`);
      this.written += lines.length;
    }
    await this.ctx.io.flush();
  }

  /** `trackctl watch | head`: the reader left (found at the next write, as for any stream); stop. */
  private async readerGone(): Promise<boolean> {
    if (this.live) return false;
    // A write's EPIPE is reported a moment after the write returned.
    await new Promise((resolve) => setImmediate(resolve));
    return this.pipeClosed || this.ctx.io.stdout.destroyed;
  }

  private async draw(): Promise<void> {
    if (!this.screen || !this.painter) return;
    const stdout = this.ctx.io.stdout as NodeJS.WriteStream;
    const lines = viewLines(
      { states: this.watched.map((w) => w.state), now: this.serverNow(), width: this.ctx.io.columns(), height: stdout.rows || 24, title: this.title, status: this.status },
      this.painter,
    );
    await this.screen.draw(lines);
  }

  /** Messages: on the status line of the view, else on stderr. */
  private say(message: string, always = false): void {
    if (this.live) {
      this.status = message;
      void this.draw().catch(() => undefined);
    } else if (always || !this.ctx.globals.quiet) {
      if (message !== 'Ctrl-C to quit') this.ctx.io.err(message);
    }
  }

  private clock(serverTime: number | undefined): void {
    if (serverTime === undefined) return;
    this.serverAt = serverTime;
    this.localAt = this.ctx.clock.now();
    this.newestReply = Math.max(this.newestReply, serverTime);
  }

  /** The service's clock now, estimated from its last Date header (unix seconds). */
  private serverNow(): number {
    if (this.localAt === 0) return this.ctx.clock.now() / 1000;
    return this.serverAt + (this.ctx.clock.now() - this.localAt) / 1000;
  }

  /** Exit 7 when units were given up (named above); their error when every unit failed alike. */
  private finish(): void {
    const given = this.watched.filter((w) => w.given);
    if (given.length === 0) return;
    if (given.length === this.watched.length && given.length === 1) throw given[0]!.error;
    throw new PartialFailure(given.length, this.watched.length, `${given.length} of ${this.watched.length} units could not be watched (named above)`);
  }
}

function isFatal(err: unknown): boolean {
  return err instanceof AuthError || !(err instanceof TrackctlError);
}

function project(e: WatchEvent, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f in e) out[f] = (e as unknown as Record<string, unknown>)[f];
  return out;
}
