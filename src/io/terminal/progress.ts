/**
 * Spinners and progress counts for people: on stderr, only on a terminal of a
 * known width, not with --quiet, not under CI, not on TERM=dumb, and only once
 * work has lasted long enough to notice (300 ms). Nothing of it ever reaches stdout or a pipe.
 *
 * ora draws the line. It hooks writes to the terminal streams while it spins,
 * so message lines written to stderr meanwhile (io.err) land above the spinner
 * instead of through it; a stdout redirected to a file is never touched.
 */
import type { IO } from '../delivery/streams.js';

export interface Progress {
  /** One item finished (bulk work): updates the count and the rate. */
  tick(ok?: boolean): void;
  /** Several items finished at once (a batch of downloaded reports). */
  add(n: number): void;
  /** Replaces the label (e.g. "downloading history of unit 2004"). */
  text(label: string): void;
  /** Stops and clears the line; an optional last line stays on stderr. */
  stop(summary?: string): void;
}

export interface ProgressOptions {
  label: string;
  /** Known number of items: shows "12/200"; otherwise a running count. */
  total?: number;
  /** What is counted, after the count ("reports"); none for bulk items. */
  unit?: string;
  quiet?: boolean;
  /** For CI and TERM (ora itself reads process.env); default process.env. */
  env?: NodeJS.ProcessEnv;
  now?: () => number;
}

export const SHOW_AFTER_MS = 300;
const silent: Progress = { tick() {}, add() {}, text() {}, stop() {} };

interface Spinner {
  text: string;
  start(): Spinner;
  stop(): Spinner;
}

/** The width the spinner's stream reports; ora divides by it, so 0 (or none) would make it clear lines without end. */
function streamColumns(stream: IO['stderr']): number {
  const columns = 'columns' in stream ? stream.columns : undefined;
  return typeof columns === 'number' && Number.isFinite(columns) ? columns : 0;
}

function progressWanted(io: IO, opts: ProgressOptions): boolean {
  if (!io.stderrIsTTY || opts.quiet) return false;
  // A terminal that reports no size (`script` without one, some CI ptys): no spinner rather than a flood of escapes.
  if (streamColumns(io.stderr) <= 0 || !(io.columns() > 0)) return false;
  const env = opts.env ?? process.env;
  const ci = env.CI;
  if (ci !== undefined && ci !== '' && ci !== '0' && ci !== 'false') return false;
  return env.TERM !== 'dumb';
}

/**
 * A count as en-US writes it (12,345), without Intl: a fleet run's progress text is made for
 * every batch, shown or not, and Intl's first use loads ICU's data (about 20 ms of a poll's CPU).
 */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

function formatRate(perSecond: number): string {
  if (perSecond >= 10) return formatCount(Math.round(perSecond));
  return perSecond.toFixed(1);
}

export function startProgress(io: IO, opts: ProgressOptions): Progress {
  if (!progressWanted(io, opts)) return silent;
  const now = opts.now ?? (() => Date.now());
  const started = now();
  let done = 0;
  let failed = 0;
  let label = opts.label;
  let spinner: Spinner | undefined;
  let stopped = false;

  const line = (): string => {
    if (opts.total === undefined && done === 0) return label;
    const seconds = Math.max((now() - started) / 1000, 0.001);
    const count = opts.total === undefined ? formatCount(done) : `${formatCount(done)}/${formatCount(opts.total)}`;
    const unit = opts.unit ? ` ${opts.unit}` : '';
    const failures = failed ? ` (${formatCount(failed)} failed)` : '';
    return `${label} ${count}${unit}${failures} · ${formatRate(done / seconds)}/s`;
  };
  const refresh = (): void => {
    if (spinner) spinner.text = line();
  };

  const timer = setTimeout(() => {
    void import('ora').then(({ default: ora }) => {
      if (stopped) return;
      // The decision is ours (above); discardStdin off so Ctrl-C stays a signal.
      spinner = ora({ text: line(), stream: io.stderr, color: 'cyan', discardStdin: false, isEnabled: true }).start();
    });
  }, SHOW_AFTER_MS);
  timer.unref();

  return {
    tick(ok = true) {
      done++;
      if (!ok) failed++;
      refresh();
    },
    add(n) {
      done += n;
      refresh();
    },
    text(next) {
      label = next;
      refresh();
    },
    stop(summary) {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      spinner?.stop();
      if (summary) io.err(summary);
    },
  };
}
