/**
 * A real pseudo-terminal for end-to-end tests: the binary runs inside a detached
 * tmux session of a chosen size (its own server socket, so nothing touches the
 * developer's tmux), keys are sent with send-keys, the screen is read with
 * capture-pane (-e keeps colour), and every byte the pane received is recorded
 * with pipe-pane. The command is started only once recording is on (a "go"
 * file), and a wrapper writes its exit status to a file when it ends.
 *
 * The environment is built from scratch (env -i): the test runner's CI, NO_COLOR
 * or TERM never leak into the terminal session unless a test asks for them.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BIN, ROOT } from './cli.js';

const exec = promisify(execFile);

export interface PtyOptions {
  cols?: number;
  rows?: number;
  /** Extra environment (undefined removes a harness variable). PATH, HOME, TERM and LANG are set. */
  env?: Record<string, string | undefined>;
  /** Send stdout to a file instead of the terminal (read it back with stdoutFile()). */
  stdoutToFile?: boolean;
  /** Send stderr to a file instead of the terminal. */
  stderrToFile?: boolean;
  /** Feed stdin from this text instead of the terminal. */
  stdin?: string;
}

export interface Pty {
  readonly dir: string;
  /** The visible screen as text (trailing blank lines dropped); `color` keeps SGR escapes; `joined` joins lines the terminal wrapped. */
  screen(opts?: { color?: boolean; joined?: boolean }): Promise<string>;
  /** Polls the screen until it matches; throws with the screen on timeout. */
  waitFor(pattern: string | RegExp, timeoutMs?: number): Promise<string>;
  /** tmux key names: 'Enter', 'C-c', 'Down', 'y'… */
  keys(...keys: string[]): Promise<void>;
  /** Literal text, typed as is. */
  type(text: string): Promise<void>;
  /** Waits for the command to end and returns its exit status. */
  exitCode(timeoutMs?: number): Promise<number>;
  /** Everything the terminal received, escape sequences included. */
  transcript(): string;
  stdoutFile(): string;
  stderrFile(): string;
  close(): Promise<void>;
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let counter = 0;

/** Starts `trackctl <args>` in a fresh tmux terminal of cols × rows. */
export async function startPty(args: string[], env: Record<string, string | undefined>, opts: PtyOptions = {}): Promise<Pty> {
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-pty-'));
  const socket = join(dir, 'tmux.sock');
  const session = `t${process.pid}-${++counter}`;
  const tmux = (...a: string[]): Promise<{ stdout: string }> => exec('tmux', ['-u', '-S', socket, '-f', join(dir, 'tmux.conf'), ...a], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' } });

  const merged: Record<string, string> = {};
  const base = { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm-256color', LANG: 'C.UTF-8' };
  for (const [k, v] of Object.entries({ ...base, ...env, ...opts.env })) if (v !== undefined) merged[k] = v;
  const assignments = Object.entries(merged).map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ');
  const redirects = [
    opts.stdin !== undefined ? `< ${shellQuote(join(dir, 'stdin'))}` : '',
    opts.stdoutToFile ? `> ${shellQuote(join(dir, 'stdout'))}` : '',
    opts.stderrToFile ? `2> ${shellQuote(join(dir, 'stderr'))}` : '',
  ].join(' ');
  if (opts.stdin !== undefined) writeFileSync(join(dir, 'stdin'), opts.stdin);
  writeFileSync(join(dir, 'stdout'), '');
  writeFileSync(join(dir, 'stderr'), '');
  writeFileSync(
    join(dir, 'run.sh'),
    [
      `cd ${shellQuote(ROOT)}`,
      // Ctrl-C reaches the whole foreground group: the wrapper must outlive it to record the status
      // (a handler, not an ignore: the command must still get SIGINT's default action).
      `trap 'true' INT`,
      `while [ ! -f ${shellQuote(join(dir, 'go'))} ]; do sleep 0.02; done`,
      `env -i ${assignments} ${shellQuote(process.execPath)} ${shellQuote(BIN)} ${args.map(shellQuote).join(' ')} ${redirects}`,
      `echo $? > ${shellQuote(join(dir, 'rc.tmp'))} && mv ${shellQuote(join(dir, 'rc.tmp'))} ${shellQuote(join(dir, 'rc'))}`,
      // The pane stays alive so its last screen can be read (a dead pane's screen is not reliable in tmux 3.3); close() ends it.
      'exec sleep 600',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'tmux.conf'), 'set -g history-limit 10000\nset -g status off\n');
  await tmux('new-session', '-d', '-x', String(opts.cols ?? 100), '-y', String(opts.rows ?? 30), '-s', session, `sh ${shellQuote(join(dir, 'run.sh'))}`);
  await tmux('pipe-pane', '-o', '-t', session, `cat >> ${shellQuote(join(dir, 'pane.log'))}`);
  writeFileSync(join(dir, 'go'), '');

  const pty: Pty = {
    dir,
    async screen(o = {}) {
      const { stdout } = await tmux('capture-pane', '-p', ...(o.color ? ['-e'] : []), ...(o.joined ? ['-J'] : []), '-t', session);
      return stdout.replace(/\n+$/, '');
    },
    async waitFor(pattern, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      for (;;) {
        last = await pty.screen();
        if (typeof pattern === 'string' ? last.includes(pattern) : pattern.test(last)) return last;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(pattern)}; screen:\n${last}`);
        await sleep(50);
      }
    },
    async keys(...keys) {
      await tmux('send-keys', '-t', session, ...keys);
    },
    async type(text) {
      await tmux('send-keys', '-l', '-t', session, text);
    },
    async exitCode(timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      const file = join(dir, 'rc');
      while (!existsSync(file)) {
        if (Date.now() > deadline) throw new Error(`the command did not end within ${timeoutMs} ms; screen:\n${await pty.screen()}`);
        await sleep(50);
      }
      return Number(readFileSync(file, 'utf8').trim());
    },
    transcript() {
      const file = join(dir, 'pane.log');
      return existsSync(file) ? readFileSync(file, 'utf8') : '';
    },
    stdoutFile: () => readFileSync(join(dir, 'stdout'), 'utf8'),
    stderrFile: () => readFileSync(join(dir, 'stderr'), 'utf8'),
    async close() {
      await tmux('kill-server').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return pty;
}

/** Runs to the end in a terminal and returns the exit status and the final screen. */
export async function runPty(
  args: string[],
  env: Record<string, string | undefined>,
  opts: PtyOptions = {},
): Promise<{ code: number; screen: string; colorScreen: string; transcript: string; stdout: string; stderr: string }> {
  const pty = await startPty(args, env, opts);
  try {
    const code = await pty.exitCode();
    // pipe-pane's cat may lag a moment behind the pane.
    await sleep(100);
    return {
      code,
      screen: await pty.screen(),
      colorScreen: await pty.screen({ color: true }),
      transcript: pty.transcript(),
      stdout: pty.stdoutFile(),
      stderr: pty.stderrFile(),
    };
  } finally {
    await pty.close();
  }
}
