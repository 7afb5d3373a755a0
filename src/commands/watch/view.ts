/**
 * The live fleet view on a terminal: pure layout (`viewLines`) and the screen it is drawn on
 * (the alternate screen, redrawn from the top left in place; the terminal is given back as
 * it was on exit). Service text is sanitised before it reaches the terminal.
 */
import { formatClock, formatRelative } from '../../io/format-time.js';
import type { Painter } from '../../io/formats/render/paint.js';
import { displayWidth, padding, truncateToWidth } from '../../io/formats/render/width.js';
import { sanitizeCell } from '../../sanitize.js';
import type { IO } from '../../io/delivery/streams.js';
import { attentionRank, type UnitWatchState } from '../../reports/watch-state.js';

/** A sos or crash this recent (seconds) keeps its unit on top. */
export const ALERT_RECENT_S = 3600;

export interface ViewInput {
  states: readonly UnitWatchState[];
  /** The service's clock now, unix seconds. */
  now: number;
  width: number;
  height: number;
  title: string;
  status: string;
  /** When the last round ended and the next one starts (ms; null: not yet, or polling now), the time now, and the zone the times are told in (named once). */
  polls?: { last: number | null; next: number | null; now: number; zone: string };
}

interface Col {
  header: string;
  cell: (s: UnitWatchState) => string;
  tone?: (s: UnitWatchState) => 'bad' | 'warn' | 'good' | 'dim' | undefined;
  right?: boolean;
  /** Takes what is left of the width (only one column). */
  fill?: boolean;
  /** May shrink down to this many cells. */
  min?: number;
  /** Dropped first when the width is short: higher goes first. */
  drop: number;
}

function stateText(s: UnitWatchState, now: number): string {
  if (s.alert !== null && now - s.alert.time <= ALERT_RECENT_S) return s.alert.event.toUpperCase();
  if (s.stale) return 'stale';
  return s.motion ?? '—';
}

function columns(now: number, lowAt: (s: UnitWatchState) => boolean): Col[] {
  return [
    { header: 'UNIT', cell: (s) => String(s.did), right: true, drop: 0 },
    { header: 'NAME', cell: (s) => sanitizeCell(s.name), min: 6, drop: 0 },
    {
      header: 'STATE',
      cell: (s) => stateText(s, now),
      tone: (s) => {
        const t = stateText(s, now);
        return t === 'SOS' || t === 'CRASH' ? 'bad' : t === 'stale' ? 'warn' : t === 'moving' ? 'good' : t === '—' ? 'dim' : undefined;
      },
      drop: 0,
    },
    { header: 'LAST REPORT', cell: (s) => (s.lastReport === null ? 'never' : formatRelative(s.lastReport, now * 1000)), tone: (s) => (s.stale ? 'warn' : undefined), drop: 1 },
    { header: 'SPEED', cell: (s) => (s.speed === null ? '' : String(Math.round(s.speed))), right: true, drop: 3 },
    { header: 'BATTERY', cell: (s) => (s.battery === null ? '' : `${Math.round(s.battery)}%`), right: true, tone: (s) => (lowAt(s) ? 'warn' : undefined), drop: 2 },
    { header: 'PLACE', cell: (s) => sanitizeCell(s.address ?? (s.lat !== null && s.lng !== null ? `${s.lat.toFixed(5)}, ${s.lng.toFixed(5)}` : '')), fill: true, min: 10, drop: 4 },
  ];
}

/** The status line: the message, then when the fleet was last polled and when it is next, so a quiet fleet does not look frozen. */
export function statusText(input: Pick<ViewInput, 'status' | 'polls'>): string {
  const p = input.polls;
  if (p === undefined) return input.status;
  const parts = [p.last === null ? 'first poll…' : `last poll ${formatClock(Math.floor(p.last / 1000), p.zone, true).time} ${p.zone}`];
  if (p.last !== null) parts.push(p.next === null ? 'polling…' : `next in ${Math.max(0, Math.ceil((p.next - p.now) / 1000))} s`);
  return [...parts, input.status].filter((x) => x !== '').join(' · ');
}

/** Units in the order a person should look at them, then by name and id. */
export function attentionOrder(states: readonly UnitWatchState[], now: number): UnitWatchState[] {
  return [...states].sort((a, b) => attentionRank(a, now, ALERT_RECENT_S) - attentionRank(b, now, ALERT_RECENT_S) || a.name.localeCompare(b.name) || a.did - b.did);
}

/** The screen as lines of at most `width` cells, each a [text, tone] list of segments. */
export function viewLines(input: ViewInput, paint: Painter): string[] {
  const { now, width } = input;
  const sorted = attentionOrder(input.states, now);
  const cols = columns(now, (s) => s.batteryLow);
  const counts = [`${sorted.length} unit${sorted.length === 1 ? '' : 's'}`];
  const count = (n: number, what: string): void => void (n > 0 && counts.push(`${n} ${what}`));
  count(sorted.filter((s) => attentionRank(s, now, ALERT_RECENT_S) === 0).length, 'alert');
  count(sorted.filter((s) => s.stale).length, 'stale');
  count(sorted.filter((s) => s.batteryLow).length, 'low battery');
  // as the rows' STATE says it: a stale unit or one with a recent alert is not counted as moving
  count(sorted.filter((s) => stateText(s, now) === 'moving').length, 'moving');
  const lines: string[] = [paint.header(truncateToWidth(`${input.title} · ${counts.join(' · ')}`, width)), ''];

  const room = Math.max(1, input.height - 4);
  const shown = sorted.length > room ? sorted.slice(0, room - 1) : sorted;
  const cells = shown.map((s) => cols.map((c) => c.cell(s)));
  let kept = cols.map((_, i) => i);
  const natural = (i: number): number => Math.max(displayWidth(cols[i]!.header), ...cells.map((r) => displayWidth(r[i]!)));
  const widths = new Map<number, number>();
  const fit = (): boolean => {
    widths.clear();
    let fixed = 0;
    for (const i of kept) if (!cols[i]!.fill) widths.set(i, natural(i));
    for (const w of widths.values()) fixed += w;
    const gaps = (kept.length - 1) * 2;
    const fill = kept.find((i) => cols[i]!.fill);
    let spare = width - fixed - gaps;
    if (fill !== undefined) {
      if (spare < (cols[fill]!.min ?? 1)) return false;
      widths.set(fill, Math.min(spare, natural(fill)));
      return true;
    }
    // Without a fill column, shrink the shrinkable ones (NAME) to fit.
    for (const i of kept) {
      const c = cols[i]!;
      if (spare >= 0) break;
      if (c.min === undefined) continue;
      const w = widths.get(i)!;
      const cut = Math.min(w - c.min, -spare);
      widths.set(i, w - cut);
      spare += cut;
    }
    return spare >= 0;
  };
  for (let level = 4; !fit() && level >= 1; level--) kept = kept.filter((i) => cols[i]!.drop < level);
  const row = (texts: string[], tones: Array<string | undefined>): string => {
    const parts = kept.map((i, k) => {
      const w = widths.get(i) ?? 0;
      const text = truncateToWidth(texts[i] ?? '', w);
      const pad = padding(displayWidth(text), w);
      const painted = tones[i] ? paint.tone(tones[i] as 'bad', text) : text;
      const last = k === kept.length - 1;
      return cols[i]!.right ? pad + painted : last ? painted : painted + pad;
    });
    return parts.join('  ');
  };
  lines.push(paint.header(row(cols.map((c) => c.header), [])));
  shown.forEach((s, n) => lines.push(row(cells[n]!, cols.map((c) => c.tone?.(s)))));
  if (shown.length < sorted.length) lines.push(truncateToWidth(`… and ${sorted.length - shown.length} more`, width));
  while (lines.length < input.height - 1) lines.push('');
  lines.push(paint.tone('dim', truncateToWidth(sanitizeCell(statusText(input)), width)));
  return lines.slice(0, Math.max(1, input.height));
}

const ENTER = '\x1b[?1049h\x1b[?25l';
const LEAVE = '\x1b[?25h\x1b[?1049l';

/** The alternate screen: entered once, redrawn from the top left, left on close. */
export class Screen {
  private open = false;

  constructor(private readonly io: IO) {}

  async draw(lines: readonly string[]): Promise<void> {
    const start = this.open ? '' : ENTER;
    this.open = true;
    await this.io.out(`${start}\x1b[H${lines.map((l) => `${l}\x1b[K`).join('\r\n')}\x1b[J`);
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    await this.io.out(LEAVE);
    await this.io.flush();
  }
}
