/**
 * Spinners and progress counts for people: on stderr, only on a terminal, not
 * with --quiet, and only once work has lasted long enough to notice (300 ms).
 * Nothing of it ever reaches stdout or a pipe.
 */
import type { IO } from './streams.js';

export interface Progress {
  /** One item finished (bulk work): updates the count and the rate. */
  tick(ok?: boolean): void;
  /** Replaces the text (e.g. "downloading history: 120,000 reports"). */
  text(label: string): void;
  /** Stops and clears the line; an optional last line stays on stderr. */
  stop(summary?: string): void;
}

const SHOW_AFTER_MS = 300;
const silent: Progress = { tick() {}, text() {}, stop() {} };

interface Spinner {
  text: string;
  start(): Spinner;
  stop(): Spinner;
}

export function startProgress(io: IO, opts: { label: string; total?: number; quiet?: boolean; now?: () => number }): Progress {
  if (!io.stderrIsTTY || opts.quiet) return silent;
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
    const rate = done / seconds;
    const count = opts.total === undefined ? `${done.toLocaleString('en-US')}` : `${done.toLocaleString('en-US')}/${opts.total.toLocaleString('en-US')}`;
    return `${label} ${count}${failed ? ` (${failed} failed)` : ''} · ${rate >= 10 ? Math.round(rate) : rate.toFixed(1)}/s`;
  };

  const timer = setTimeout(() => {
    void import('ora').then(({ default: ora }) => {
      if (stopped) return;
      spinner = ora({ text: line(), stream: io.stderr, color: 'cyan', discardStdin: false }).start();
    });
  }, SHOW_AFTER_MS);
  timer.unref();

  return {
    tick(ok = true) {
      done++;
      if (!ok) failed++;
      if (spinner) spinner.text = line();
    },
    text(next) {
      label = next;
      if (spinner) spinner.text = line();
    },
    stop(summary) {
      stopped = true;
      clearTimeout(timer);
      spinner?.stop();
      if (summary) io.err(summary);
    },
  };
}
