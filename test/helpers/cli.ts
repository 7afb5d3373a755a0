/**
 * End-to-end harness: the real binary (bin/trackctl.js → dist/) spawned against
 * a real sandbox on a loopback port, with its own config and data directories.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { runInProcess, type InProcessOptions } from './in-process.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
export const BIN = join(ROOT, 'bin', 'trackctl.js');
export const DEMO = { email: 'demo@example.com', password: 'demo' };

/** With NODE_DEBUG=trackctl the binary logs each dist/ file it loads on stderr: those files, relative to ROOT. */
export function loadedDistFiles(stderr: string): string[] {
  return [...new Set(stderr.match(/(?<=load "[^"]*\/)dist\/[\w/.-]+\.js/g) ?? [])];
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
}

/** Runs the binary with a clean environment: no user config, no colour, no CI unless asked. */
export function runCli(args: string[], env: Record<string, string | undefined>, opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const merged: Record<string, string> = {};
    for (const [k, v] of Object.entries({ PATH: process.env.PATH, HOME: process.env.HOME, ...env, ...opts.env })) {
      if (v !== undefined) merged[k] = v;
    }
    const child = spawn(process.execPath, [BIN, ...args], { env: merged, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
    // A command that exits before reading its input (a usage error) closes the pipe: not a test failure.
    child.stdin.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') reject(err);
    });
    child.stdin.end(opts.input ?? '');
  });
}

export interface Harness {
  sandbox: Sandbox;
  dir: string;
  env: Record<string, string>;
  run(args: string[], opts?: RunOptions): Promise<RunResult>;
  /** Spawns the binary, whatever `inProcess` says: for a run whose test needs a process (its own stdio, env read at start-up, other processes). */
  spawn(args: string[], opts?: RunOptions): Promise<RunResult>;
  /** Runs the command line in this process (in-process.ts) against the harness's sandbox and directories. */
  runIn(args: string[], opts?: Omit<InProcessOptions, 'http'>): Promise<RunResult>;
  /** Runs and asserts exit 0, returning stdout parsed as JSON. */
  json<T = unknown>(args: string[], opts?: RunOptions): Promise<T>;
  login(method?: 'token' | 'session' | 'both'): Promise<void>;
  /** Writes a file into the harness's temp directory and returns its path. */
  file(name: string, text: string): string;
  /** "METHOD /path" of every request the sandbox logged since the last clearRequests(). */
  sent(): string[];
  /** Asserts exit 2, a message naming `mention`, and not one request sent (in-process: no spawn). */
  expectUsage(args: string[], mention: string): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions extends SandboxOptions {
  /** Sign in the demo account first (default true). */
  login?: boolean;
  /**
   * run() and json() run in this process (in-process.ts) instead of spawning the binary: for a
   * file whose tests look at what a command prints, sends and exits with, not at a process.
   */
  inProcess?: boolean;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({ port: 0, ...options });
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-test-'));
  const env: Record<string, string> = {
    TRACKCTL_CONFIG_DIR: join(dir, 'config'),
    TRACKCTL_DATA_DIR: join(dir, 'data'),
    TRACKCTL_BASE_URL: sandbox.url,
    TRACKCTL_CREDENTIAL_STORE: 'file',
    TRACKCTL_RETRIES: '0',
    NO_COLOR: '1',
  };
  let files = 0;
  const h: Harness = {
    sandbox,
    dir,
    env,
    run: (args, opts) => (options.inProcess ? h.runIn(args, opts) : runCli(args, env, opts)),
    spawn: (args, opts) => runCli(args, env, opts),
    runIn: (args, opts) => runInProcess(args, { ...opts, env: { ...env, ...opts?.env } }),
    async json<T>(args: string[], opts?: RunOptions): Promise<T> {
      const r = await h.run([...args, '-o', 'json'], opts);
      if (r.code !== 0) throw new Error(`trackctl ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
      return JSON.parse(r.stdout) as T;
    },
    async login(method = 'both') {
      // In-process: the sign-in is set-up, not what a test looks at (auth.test.ts spawns its own).
      const r = await h.runIn(['login', '--email', DEMO.email, '--password-stdin', '--method', method], { input: `${DEMO.password}\n` });
      if (r.code !== 0) throw new Error(`login failed (${r.code}): ${r.stderr}`);
    },
    file(name, text) {
      const p = join(dir, `${files++}-${name}`);
      writeFileSync(p, text);
      return p;
    },
    sent: () => sandbox.requests.map((r) => `${r.method} ${r.path}`),
    async expectUsage(args, mention) {
      sandbox.clearRequests();
      const r = await h.runIn(args);
      assert.equal(r.code, 2, `exit 2 for ${args.join(' ')}: ${r.stderr}`);
      assert.ok(r.stderr.includes(mention), `stderr names ${mention}: ${r.stderr}`);
      assert.deepEqual(h.sent(), [], 'nothing is sent');
    },
    async close() {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  if (options.login !== false) await h.login();
  return h;
}

/** A run of the binary in the background, stdout appended to a file. */
export interface BackgroundRun {
  kill(sig: NodeJS.Signals): boolean;
  /** The exit code; 137 when killed by SIGKILL, 128 by another signal. */
  exit: Promise<number>;
  err: () => string;
}

/** Spawns the binary against the harness with stdout appended to `outFile`. */
export function spawnTo(h: Harness, args: string[], outFile: string, opts: { pipe?: boolean } = {}): BackgroundRun {
  const fd = openSync(outFile, 'a');
  // With `pipe`, stdout is a pipe this process drains into the file (a reader as `| cat > file` is).
  const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...h.env }, stdio: ['ignore', opts.pipe ? 'pipe' : fd, 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => appendFileSync(outFile, d));
  closeSync(fd);
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number>((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal === 'SIGKILL' ? 137 : 128))));
  return { kill: (sig) => child.kill(sig), exit, err: () => err };
}
