/**
 * `trackctl watch`: validate, take the units' state from GET /all-units/, then poll each
 * unit's history in rounds of the fleet-run engine (src/runs/: a cursor per unit, as history
 * --follow has) and turn the reports into events (reports/watch-events.ts): a live view on a
 * terminal, NDJSON elsewhere.
 *
 * A round: every unit is polled (a bounded pool); a unit's new reports are placed by date and
 * fed to its state, then the clock of its reply ticks it (stale). The round's events are
 * written in unit order and acknowledged by stdout, and only then is the round handed to the
 * checkpoint (runs/delivery.ts: on a pipe, once more than the pipe holds was taken after it).
 */
import { getAllUnits } from '../../api/all-units.js';
import type { Api } from '../../api/client.js';
import { withCheckpointLock } from '../../lock.js';
import type { Context } from '../../context.js';
import { InterruptedError, UsageError } from '../../errors.js';
import { unitsOfShard } from '../../lake/shard.js';
import { openStream, type OutputOptions, type RecordStream } from '../../io/formats/output.js';
import { loadPainter, type Painter } from '../../io/formats/render/paint.js';
import { compactJson } from '../../io/formats/render/json.js';
import { acknowledge, unreadBound } from '../../io/delivery/streams.js';
import { loadFences } from '../../reports/fences.js';
import {
  byDate,
  DEFAULT_WATCH_PARAMS,
  initialState,
  observe,
  restoreState,
  SEED_S,
  seedState,
  tick,
  type UnitWatchState,
  type WatchEvent,
  type WatchParams,
  type WatchReport,
} from '../../reports/watch-events.js';
import { RunCheckpoint } from '../../runs/checkpoint.js';
import { Cursor } from '../../runs/cursor.js';
import { Ledger } from '../../runs/delivery.js';
import { FleetEngine } from '../../runs/engine.js';
import { watchInterrupts } from '../../runs/interrupts.js';
import { pollUnit, streamWindow } from '../../runs/query.js';
import { ServiceClock } from '../../runs/service-clock.js';
import { describeSelection, resolveUnits, unitSnapshots, type SelectedUnit } from '../../runs/select.js';
import type { Run } from '../action.js';
import { parseWatchPlan, type WatchOptions, type WatchPlan } from './options.js';
import { Screen, viewLines } from './view.js';

export const WATCH_FORMATS = ['table', 'ndjson', 'json'] as const;
/** Units polled at once. */
const CONCURRENCY = 8;

export const run: Run<WatchOptions> = async (args, opts, ctx) => {
  const plan = parseWatchPlan(args, opts, ctx.env);
  if (ctx.globals.raw) throw new UsageError('--raw cannot be used with watch: it writes events, not the service\'s replies');
  const { format, out } = await ctx.outputAs(WATCH_FORMATS);
  const fences = plan.geofence === undefined ? [] : await loadFences(plan.geofence);
  const params: WatchParams = { ...DEFAULT_WATCH_PARAMS, staleS: plan.staleS, lowBatteryPct: plan.lowBatteryPct, fences, speedLimit: plan.speedLimit };
  const live = format === 'table' && out.tty;
  const file = plan.checkpoint;
  if (file === undefined) return new Watch(ctx, plan, params, out, live, undefined).run();
  await withCheckpointLock(file, async () => {
    const checkpoint = await RunCheckpoint.open<UnitWatchState>(file, { kind: 'watch', restore: (saved, did) => checkedState(saved, did) }, () => ctx.clock.now());
    await new Watch(ctx, plan, params, out, live, checkpoint).run();
  });
};

function checkedState(saved: unknown, did: number): UnitWatchState | undefined {
  const state = restoreState(saved);
  return state !== undefined && state.did === did ? state : undefined;
}

interface Watched extends SelectedUnit {
  cursor: Cursor;
  state: UnitWatchState;
  /** Its reports from this time to the watch's start are still to be read into its state (the first round). */
  seedFrom?: number;
}
class Watch {
  private watched: Watched[] = [];
  /** The service's clock (unix seconds) at local time `localAt` (ms). */
  private serverAt = 0;
  private localAt = 0;
  private status = '';
  /** Local times (ms) of the last round's end and of the next round's start (null while polling). */
  private lastPoll: number | null = null;
  private nextPoll: number | null = null;
  private screen: Screen | undefined;
  private painter: Painter | undefined;
  private title = '';
  /** The service's clock by the replies' Date headers, as far as its data bears them out. */
  private readonly service: ServiceClock;
  /** The newest service time seen (unix seconds): what the checkpoint records as its clock. */
  private newestReply = 0;
  private scripted: RecordStream | undefined;
  /** A round held an event of --exit-on. */
  private exitEvent = false;

  constructor(
    private readonly ctx: Context,
    private readonly plan: WatchPlan,
    private readonly params: WatchParams,
    private readonly out: OutputOptions,
    private readonly live: boolean,
    private readonly checkpoint: RunCheckpoint<UnitWatchState> | undefined,
  ) {
    this.service = new ServiceClock(() => ctx.clock.now());
  }

  async run(): Promise<void> {
    const api = await this.ctx.api();
    const all = await getAllUnits(api);
    const known = unitSnapshots(all);
    for (const snap of known.values()) this.service.saw(snap.lastReport);
    const serverTime = this.service.at(all.serverTime);
    this.clock(serverTime);
    const selected = await resolveUnits(api, this.plan.selection);
    const units = this.plan.shard ? unitsOfShard(selected, this.plan.shard) : selected;
    this.title = `trackctl watch: ${describeSelection(this.plan.selection)}`;
    if (units.length === 0 && !this.ctx.globals.quiet) this.ctx.io.err(`No units in ${describeSelection(this.plan.selection)}.`);
    const start = serverTime ?? Math.floor(this.ctx.clock.now() / 1000);
    const pending = new Map<number, WatchEvent[]>();
    let fresh = false;
    for (const unit of units) {
      if (this.checkpoint?.has(unit.did)) {
        const saved = this.checkpoint.progress(unit.did);
        const state = saved.state as UnitWatchState;
        this.service.saw(state.lastReport);
        this.watched.push({ ...unit, cursor: saved.cursor, state });
        continue;
      }
      const snap = known.get(unit.did) ?? { did: unit.did, name: unit.name ?? '' };
      if (snap.name === '' && unit.name) snap.name = unit.name;
      const { state, events } = initialState(snap, this.params, start);
      // Events start at the snapshot: the first poll asks for reports received since.
      const last = snap.lastReport ?? 0;
      const w: Watched = { ...unit, cursor: new Cursor(start), state, ...(last > 0 && !snap.stationary ? { seedFrom: Math.max(0, last - SEED_S) } : {}) };
      this.watched.push(w);
      if (events.length > 0) pending.set(unit.did, events);
      // The unit's starting point is fixed before anything is written: a run that delivers
      // nothing (its reader left) is followed by one that starts from the same point.
      if (this.checkpoint) {
        this.checkpoint.record(unit.did, { cursor: new Cursor(start), parts: 0, state });
        fresh = true;
      }
    }
    if (fresh) await this.checkpoint?.save();

    if (this.live) {
      this.painter = await loadPainter(this.out.color);
      this.screen = new Screen(this.ctx.io);
    }
    const interrupts = watchInterrupts((message) => this.say(message));
    const redraw = this.live ? setInterval(() => void this.draw().catch(() => undefined), 1000) : undefined;
    const resize = (): void => void this.draw().catch(() => undefined);
    if (this.live) this.ctx.io.stdout.on('resize', resize);
    const engine = new FleetEngine(this.watched, {
      concurrency: CONCURRENCY,
      rounds: { intervalMs: this.plan.intervalMs, stop: interrupts.stop, abort: interrupts.abort },
      throttled: () => api.http.throttled,
      say: (m) => this.say(m, true),
      givenUp: 'no longer watched',
      // The status line shows the last and the next poll, so a quiet fleet does not look frozen.
      onWait: (ms) => {
        if (ms === null) {
          this.nextPoll = null;
          return;
        }
        this.lastPoll = this.ctx.clock.now();
        this.nextPoll = this.lastPoll + ms;
        void this.draw().catch(() => undefined);
      },
    });
    const ledger = new Ledger(this.checkpoint, 'per-round', this.live ? undefined : unreadBound(this.ctx.io.stdout));
    try {
      this.say('Ctrl-C to quit');
      await this.draw();
      let events = pending;
      await engine.run(
        (w, abort) => this.poll(api, w, events, abort),
        async (done) => {
          const printed = events;
          await this.emit(events);
          events = new Map();
          for (const w of done) ledger.unitDone(w.did, { cursor: w.cursor, parts: 0, state: w.state });
          this.checkpoint?.markRound(this.newestReply || Math.floor(this.serverNow()));
          await ledger.roundDone();
          await this.draw();
          this.exitEvent = [...printed.values()].some((list) => list.some((e) => this.plan.exitOn?.has(e.event)));
          if (this.exitEvent) return false;
        },
      );
      // --exit-on: stopped before the event came is not the event (`watch --exit-on sos && page`).
      if (this.plan.exitOn && !this.exitEvent && interrupts.stop.aborted) throw interrupts.terminated() ?? new InterruptedError();
    } finally {
      clearInterval(redraw);
      if (this.live) this.ctx.io.stdout.off('resize', resize);
      interrupts.dispose();
      await this.screen?.close();
    }
    const failure = engine.outcome();
    if (failure !== undefined) throw failure;
    // Stopped by SIGTERM: the round in flight is out and saved, and the run says it was terminated (exit 143).
    const terminated = interrupts.terminated();
    if (terminated) throw terminated;
  }

  /** One unit's poll: its new reports by date, then a tick at the reply's clock. */
  private async poll(api: Api, w: Watched, events: Map<number, WatchEvent[]>, abort: AbortSignal | undefined): Promise<void> {
    if (w.seedFrom !== undefined) {
      const before: WatchReport[] = [];
      await streamWindow(api, w.did, { from: w.seedFrom, to: w.cursor.lastQueryTime }, async (items) => {
        for (const item of items) {
          before.push(item.feature.properties);
          this.service.saw(item.feature.properties.date);
        }
      }, abort);
      seedState(w.state, byDate(before.filter((r) => typeof r.date === 'number' && Number.isFinite(r.date))), this.params);
      w.seedFrom = undefined;
    }
    const reports: WatchReport[] = [];
    const header = await pollUnit(api, w.did, w.cursor, {}, undefined, async (items) => {
      for (const item of items) {
        reports.push(item.feature.properties);
        this.service.saw(item.feature.properties.date);
      }
    }, abort);
    const serverTime = this.service.at(header);
    this.clock(serverTime);
    const now = serverTime ?? this.serverNow();
    const out = events.get(w.did) ?? [];
    for (const r of byDate(reports.filter((r) => typeof r.date === 'number' && Number.isFinite(r.date)))) out.push(...observe(w.state, r, this.params));
    out.push(...tick(w.state, now, this.params));
    if (out.length > 0) events.set(w.did, out);
  }

  /**
   * Writes the round's events in unit order and has stdout acknowledge them (a terminal view
   * just redraws).
   */
  private async emit(events: Map<number, WatchEvent[]>): Promise<void> {
    if (this.live) return;
    const fields = this.out.fields;
    if (this.out.script) return this.emitScripted(events);
    const lines: string[] = [];
    for (const w of this.watched) {
      for (const e of events.get(w.did) ?? []) lines.push(compactJson(fields ? project(e, fields) : e));
    }
    if (lines.length > 0) await this.ctx.io.out(`${lines.join('\n')}\n`);
    await acknowledge(this.ctx.io.stdout);
  }

  /** --jq, --template, -o custom-columns: each event through them, as they print it. */
  private async emitScripted(events: Map<number, WatchEvent[]>): Promise<void> {
    this.scripted ??= openStream([], { ...this.out, format: 'ndjson' });
    const fields = this.out.fields;
    for (const w of this.watched) {
      for (const e of events.get(w.did) ?? []) await this.scripted.write(fields ? project(e, fields) : { ...e });
    }
    await this.scripted.flush?.();
    await acknowledge(this.ctx.io.stdout);
  }

  private async draw(): Promise<void> {
    if (!this.screen || !this.painter) return;
    const stdout = this.ctx.io.stdout as NodeJS.WriteStream;
    const lines = viewLines(
      {
        states: this.watched.map((w) => w.state),
        now: this.serverNow(),
        width: this.ctx.io.columns(),
        height: stdout.rows || 24,
        title: this.title,
        status: this.status,
        polls: { last: this.lastPoll, next: this.nextPoll, now: this.ctx.clock.now() },
      },
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

  /** The service's clock now, estimated from its last reply (unix seconds). */
  private serverNow(): number {
    if (this.localAt === 0) return this.ctx.clock.now() / 1000;
    return this.serverAt + (this.ctx.clock.now() - this.localAt) / 1000;
  }
}

function project(e: WatchEvent, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f in e) out[f] = (e as unknown as Record<string, unknown>)[f];
  return out;
}
