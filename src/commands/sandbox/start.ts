/** `trackctl sandbox start`: validate the flags, serve until SIGINT/SIGTERM, shut down cleanly. */
import { join } from 'node:path';
import { UsageError } from '../../errors.js';
import type { IO } from '../../io/delivery/streams.js';
import type { SandboxOptions } from '../../sandbox/index.js';
import type { Run } from '../action.js';

/** As declared (sandbox/index.ts): the numbers read and checked, each with its fallback. */
export interface StartOptions {
  port?: number;
  host?: string;
  state?: string;
  memory?: boolean;
  seed?: number;
  devices?: number;
  faults?: string;
  accessTtl?: number;
  refreshTtl?: number;
  sessionTtl?: number;
  benchReports?: number;
  log?: boolean;
}

/** What runStart needs from the context. */
export interface StartContext {
  io: IO;
  paths(): { dataDir: string };
}

export function defaultStateFile(ctx: StartContext): string {
  return join(ctx.paths().dataDir, 'sandbox-state.json');
}

/** Flags → sandbox options; every bad value is a UsageError naming it. */
export async function parseStartOptions(opts: StartOptions, ctx: StartContext): Promise<SandboxOptions> {
  const { parseFaults } = await import('../../sandbox/index.js');
  if (opts.memory && opts.state !== undefined) throw new UsageError('--memory and --state cannot be used together');
  if (opts.faults !== undefined) {
    try {
      parseFaults(opts.faults);
    } catch (err) {
      throw new UsageError(`--faults "${opts.faults}": ${(err as Error).message}`);
    }
  }
  const out: SandboxOptions = {
    host: opts.host ?? '127.0.0.1',
    quiet: !opts.log,
    log: (line) => ctx.io.err(line),
  };
  const set = <K extends keyof SandboxOptions>(key: K, value: SandboxOptions[K] | undefined): void => {
    if (value !== undefined) out[key] = value;
  };
  set('port', opts.port);
  set('seed', opts.seed);
  set('devices', opts.devices);
  set('accessTtl', opts.accessTtl);
  set('refreshTtl', opts.refreshTtl);
  set('sessionTtl', opts.sessionTtl);
  set('benchReports', opts.benchReports);
  set('faults', opts.faults);
  if (out.host === '') throw new UsageError('--host must not be empty');
  if (!opts.memory) out.stateFile = opts.state ?? defaultStateFile(ctx);
  return out;
}

function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: string): void => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

/** Serve until `stop` resolves (default: SIGINT or SIGTERM). */
export async function runStart(opts: StartOptions, ctx: StartContext, stop: Promise<unknown> = untilSignal()): Promise<void> {
  const options = await parseStartOptions(opts, ctx);
  const { startSandbox, DEMO_ACCOUNT, BENCH_UNIT_ID } = await import('../../sandbox/index.js');
  let sandbox;
  try {
    sandbox = await startSandbox(options);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw new UsageError(`--port ${options.port}: the address is already in use`);
    if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') throw new UsageError(`--host ${options.host}: cannot listen there`);
    if (err instanceof RangeError) throw new UsageError(err.message);
    throw err;
  }
  await ctx.io.out(
    `base-url: ${sandbox.url}\nemail: ${DEMO_ACCOUNT.email}\npassword: ${DEMO_ACCOUNT.password}\n` +
      `state: ${options.stateFile ?? 'memory'}\nbench-unit: ${BENCH_UNIT_ID}\n`,
  );
  ctx.io.err(`Sandbox listening on ${sandbox.url} (control endpoints under ${sandbox.url}/_sandbox/). Press Ctrl-C to stop.`);
  await stop;
  await sandbox.close();
  ctx.io.err('Sandbox stopped.');
}

export const run: Run<StartOptions> = (_args, opts, ctx) => runStart(opts, ctx);
