/**
 * watch as a fleet run (runs/fleet.ts; run.ts starts it): a round polls every unit, feeds its
 * new reports and the reply's clock to its state, writes the round's events (or redraws the
 * live view, view.ts) and has stdout acknowledge them before the round is saved.
 */
import { getAllUnits } from '../../api/all-units.js';
import type { Api } from '../../api/client.js';
import type { Context } from '../../context.js';
import type { InterruptedError } from '../../errors.js';
import { openStream, type OutputOptions, type RecordStream } from '../../io/formats/output.js';
import { loadPainter, type Painter } from '../../io/formats/render/paint.js';
import { compactJson } from '../../io/formats/render/json.js';
import { acknowledge, unreadBound } from '../../io/delivery/streams.js';
import {
  observe,
  tick,
  type UnitSnapshot,
  type WatchEvent,
  type WatchReport,
} from '../../reports/watch-events.js';
import { byDate, initialState, SEED_S, seedState } from '../../reports/watch-start.js';
import type { UnitWatchState, WatchParams } from '../../reports/watch-state.js';
import type { RunCheckpoint, UnitProgress } from '../../runs/checkpoint.js';
import { Cursor } from '../../runs/cursor.js';
import type { Delivery, FleetTarget } from '../../runs/fleet.js';
import { pollUnit, streamWindow } from '../../runs/query.js';
import { ServiceClock } from '../../runs/service-clock.js';
import { describeSelection, unitSnapshots, type SelectedUnit } from '../../runs/select.js';
import type { WatchPlan } from './options.js';
import { Screen, viewLines } from './view.js';

interface Watched extends SelectedUnit {
  cursor: Cursor;
  state: UnitWatchState;
}
/** watch as a fleet run: rounds of polls, each round's events out and acknowledged, then saved. */
export class Watch implements FleetTarget<Watched, UnitWatchState> {
  private watched: readonly Watched[] = [];
  /** The service's clock (unix seconds) at local time `localAt` (ms). */
  private serverAt = 0;
  private localAt = 0;
  private status = '';
  /** Local times (ms) of the last round's end and of the next round's start (null while polling). */
  private lastPoll: number | null = null;
  private nextPoll: number | null = null;
  private screen: Screen | undefined;
  private painter: Painter | undefined;
  private readonly title: string;
  /** The service's clock by the replies' Date headers, as far as its data bears them out. */
  private readonly service: ServiceClock;
  /** The newest service time seen (unix seconds): what the checkpoint records as its clock. */
  private newestReply = 0;
  private scripted: RecordStream | undefined;
  /** A round held an event of --exit-on. */
  private exitEvent = false;
  private checkpoint: RunCheckpoint<UnitWatchState> | undefined;
  private api!: Api;
  private known = new Map<number, UnitSnapshot>();
  /** Where new units start (the service's clock, unix seconds). */
  private begin = 0;
  /** Events not yet written: the units' first ones, then each round's. */
  private events = new Map<number, WatchEvent[]>();
  /** New units were recorded in the checkpoint: it is saved before the first poll. */
  private fresh = false;
  private redraw: NodeJS.Timeout | undefined;
  private readonly resize = (): void => void this.draw().catch(() => undefined);

  constructor(
    private readonly ctx: Context,
    private readonly plan: WatchPlan,
    private readonly params: WatchParams,
    private readonly out: OutputOptions,
    private readonly live: boolean,
  ) {
    this.service = new ServiceClock(() => ctx.clock.now());
    this.title = `trackctl watch: ${describeSelection(plan.selection)}`;
  }

  /** The units' state as GET /all-units/ has it, and the service's clock. */
  async open(checkpoint: RunCheckpoint<UnitWatchState> | undefined): Promise<Delivery> {
    this.checkpoint = checkpoint;
    this.api = await this.ctx.api();
    const all = await getAllUnits(this.api);
    this.known = unitSnapshots(all);
    for (const snap of this.known.values()) this.service.saw(snap.lastReport);
    const serverTime = this.service.at(all.serverTime);
    this.clock(serverTime);
    this.begin = serverTime ?? Math.floor(this.ctx.clock.now() / 1000);
    return { save: 'per-round', unread: this.live ? undefined : unreadBound(this.ctx.io.stdout) };
  }

  unit(unit: SelectedUnit, saved: UnitProgress<UnitWatchState> | undefined): Watched {
    if (saved !== undefined) {
      const state = saved.state as UnitWatchState;
      this.service.saw(state.lastReport);
      return { ...unit, cursor: saved.cursor, state };
    }
    const snap = this.known.get(unit.did) ?? { did: unit.did, name: unit.name ?? '' };
    if (snap.name === '' && unit.name) snap.name = unit.name;
    const { state, events } = initialState(snap, this.params, this.begin);
    // Events start at the snapshot: the first poll asks for reports received since, after it read
    // the last minutes before it into the state (kept in the state, and so in a checkpoint made now).
    const last = snap.lastReport ?? 0;
    if (last > 0 && !snap.stationary) state.seedFrom = Math.max(0, last - SEED_S);
    if (events.length > 0) this.events.set(unit.did, events);
    // The unit's starting point is fixed before anything is written: a run that delivers
    // nothing (its reader left) is followed by one that starts from the same point.
    if (this.checkpoint) {
      this.checkpoint.record(unit.did, { cursor: new Cursor(this.begin), parts: 0, state });
      this.fresh = true;
    }
    return { ...unit, cursor: new Cursor(this.begin), state };
  }

  async start(units: readonly Watched[]): Promise<void> {
    this.watched = units;
    if (this.fresh) await this.checkpoint?.save();
    if (this.live) {
      this.painter = await loadPainter(this.out.color);
      this.screen = new Screen(this.ctx.io);
      this.redraw = setInterval(() => void this.draw().catch(() => undefined), 1000);
      this.ctx.io.stdout.on('resize', this.resize);
    }
    this.say('Ctrl-C to quit');
    await this.draw();
  }

  turn(w: Watched, abort: AbortSignal | undefined): Promise<void> {
    return this.poll(this.api, w, this.events, abort);
  }

  progressOf(w: Watched): UnitProgress<UnitWatchState> {
    return { cursor: w.cursor, parts: 0, state: w.state };
  }

  /** The round's events out and acknowledged (then the round is saved); an event of --exit-on ends the watch. */
  async afterRound(): Promise<boolean> {
    const printed = this.events;
    await this.emit(printed);
    this.events = new Map();
    this.checkpoint?.markRound(this.newestReply || Math.floor(this.serverNow()));
    await this.draw();
    this.exitEvent = [...printed.values()].some((list) => list.some((e) => this.plan.exitOn?.has(e.event)));
    return !this.exitEvent;
  }

  reached(): boolean {
    return this.exitEvent;
  }

  /** --exit-on: stopped before the event came is not the event (`watch --exit-on sos && page`). */
  async end(stoppedBy: InterruptedError | undefined): Promise<void> {
    if (this.plan.exitOn && !this.exitEvent && stoppedBy) throw stoppedBy;
  }

  async cleanup(): Promise<void> {
    clearInterval(this.redraw);
    if (this.live) this.ctx.io.stdout.off('resize', this.resize);
    await this.screen?.close();
  }

  /** The pause before the next round (ms), or null once it ends: shown on the status line. */
  waiting(ms: number | null): void {
    if (ms === null) {
      this.nextPoll = null;
      return;
    }
    this.lastPoll = this.ctx.clock.now();
    this.nextPoll = this.lastPoll + ms;
    void this.draw().catch(() => undefined);
  }

  /** One unit's poll: its new reports by date, then a tick at the reply's clock. */
  private async poll(api: Api, w: Watched, events: Map<number, WatchEvent[]>, abort: AbortSignal | undefined): Promise<void> {
    const seedFrom = w.state.seedFrom;
    if (seedFrom !== undefined) {
      const before: WatchReport[] = [];
      await streamWindow(api, w.did, { from: seedFrom, to: w.cursor.lastQueryTime }, async (items) => {
        for (const item of items) {
          before.push(item.feature.properties);
          this.service.saw(item.feature.properties.date);
        }
      }, { signal: abort });
      seedState(w.state, byDate(before.filter((r) => typeof r.date === 'number' && Number.isFinite(r.date))), this.params);
      delete w.state.seedFrom;
    }
    const reports: WatchReport[] = [];
    const header = await pollUnit(api, w.did, w.cursor, {}, undefined, async (items) => {
      for (const item of items) {
        reports.push(item.feature.properties);
        this.service.saw(item.feature.properties.date);
      }
    }, { signal: abort });
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
        polls: { last: this.lastPoll, next: this.nextPoll, now: this.ctx.clock.now(), zone: await this.ctx.timeZone() },
      },
      this.painter,
    );
    await this.screen.draw(lines);
  }

  /** Messages: on the status line of the view, else on stderr. */
  say(message: string, always = false): void {
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
