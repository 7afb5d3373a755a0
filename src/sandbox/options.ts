/** Options of startSandbox, their defaults and their validation (errors name the value). */
import { parseFaults } from './faults.js';

export interface SandboxOptions {
  /** 0 = any free port (default 0). */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Persist state to this file (atomic write: tmp + rename); absent = memory only. */
  stateFile?: string;
  /** Default 1; the demo fleet and history are deterministic given the seed (and the clock). */
  seed?: number;
  /** Extra generated devices for scale tests (e.g. 100000); default 0. */
  devices?: number;
  /** Fault spec (see faults.ts / docs/sandbox.md); default none. */
  faults?: string;
  /** Access-token lifetime in seconds, default 3600. */
  accessTtl?: number;
  /** Refresh-token lifetime in seconds, default 30 days. */
  refreshTtl?: number;
  /** Session-cookie lifetime in seconds, default 1 day. */
  sessionTtl?: number;
  /** Number of reports of the BENCH_UNIT_ID history, default 1,000,000. */
  benchReports?: number;
  /** Injectable clock in MILLISECONDS; default Date.now. */
  now?: () => number;
  /** No request log lines even when `log` is given. */
  quiet?: boolean;
  /** Where request log lines go (one line per request); default nowhere. */
  log?: (line: string) => void;
}

export interface ResolvedOptions {
  port: number;
  host: string;
  stateFile: string | undefined;
  seed: number;
  devices: number;
  faults: string;
  accessTtl: number;
  refreshTtl: number;
  sessionTtl: number;
  benchReports: number;
  now: () => number;
  quiet: boolean;
  log: ((line: string) => void) | undefined;
}

function int(name: string, value: number | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`sandbox option ${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

export function validateOptions(o: SandboxOptions): ResolvedOptions {
  const faults = o.faults ?? '';
  parseFaults(faults); // throws naming the bad item
  return {
    port: int('port', o.port, 0, 0, 65535),
    host: o.host ?? '127.0.0.1',
    stateFile: o.stateFile,
    seed: int('seed', o.seed, 1, 0, 2 ** 32 - 1),
    devices: int('devices', o.devices, 0, 0, 10_000_000),
    faults,
    accessTtl: int('accessTtl', o.accessTtl, 3600, 1),
    refreshTtl: int('refreshTtl', o.refreshTtl, 30 * 24 * 3600, 1),
    sessionTtl: int('sessionTtl', o.sessionTtl, 24 * 3600, 1),
    benchReports: int('benchReports', o.benchReports, 1_000_000, 0, 100_000_000),
    now: o.now ?? Date.now,
    quiet: o.quiet ?? false,
    log: o.log,
  };
}
