/**
 * Fault injection, deterministic by seed. Spec: comma-separated kind=value items, e.g.
 *   latency=50ms,error=0.1,status=500|502|503,429=0.05,retry-after=1,drop=0.05,drop-after=0.05,truncate=0.02,html=0.02,portal=0.01,seed=7
 * (portal: a 200 JSON page of a proxy in front of the service, with no envelope).
 * Request n (counting only non-control requests since the spec was set) gets its fault
 * from hash(seed, n), so the same seed gives the same fault sequence.
 */
import { hash32, unit } from './prng.js';

export type FaultKind = 'none' | 'drop' | 'drop-after' | 'rate-limit' | 'error' | 'html' | 'portal' | 'truncate';

export interface FaultSpec {
  latency: [number, number] | undefined;
  error: number;
  statuses: number[];
  rateLimit: number;
  retryAfter: number;
  drop: number;
  dropAfter: number;
  truncate: number;
  html: number;
  portal: number;
  seed: number | undefined;
}

export interface FaultDecision {
  kind: FaultKind;
  delayMs: number;
  /** For error: the 5xx chosen. */
  status: number;
  retryAfter: number;
}

export const NO_FAULTS: FaultSpec = {
  latency: undefined, error: 0, statuses: [500, 502, 503], rateLimit: 0, retryAfter: 1,
  drop: 0, dropAfter: 0, truncate: 0, html: 0, portal: 0, seed: undefined,
};

function duration(value: string, item: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(value.trim());
  if (!m) throw new Error(`fault spec: "${item}" needs a duration such as 50ms, 1s or 20-80ms`);
  return Math.round(Number(m[1]) * (m[2] === 's' ? 1000 : 1));
}

function rate(value: string, item: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new Error(`fault spec: "${item}" needs a rate between 0 and 1`);
  }
  return n;
}

/** Parse a fault spec; throws an Error whose message names the bad item. Empty or "none" → no faults. */
export function parseFaults(spec: string | undefined): FaultSpec {
  const out: FaultSpec = { ...NO_FAULTS, statuses: [...NO_FAULTS.statuses] };
  if (spec === undefined || spec.trim() === '' || spec.trim() === 'none') return out;
  for (const rawItem of spec.split(',')) {
    const item = rawItem.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    if (eq < 0) throw new Error(`fault spec: "${item}" is not kind=value`);
    const kind = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    switch (kind) {
      case 'latency': {
        const unitSuffix = /(ms|s)$/.exec(value)?.[1] ?? '';
        const [a, b] = value.split('-');
        const lo = duration(b === undefined ? (a as string) : `${a}${/(ms|s)$/.test(a as string) ? '' : unitSuffix}`, item);
        const hi = b === undefined ? lo : duration(b, item);
        if (hi < lo) throw new Error(`fault spec: "${item}": the range must be min-max`);
        out.latency = [lo, hi];
        break;
      }
      case 'error': out.error = rate(value, item); break;
      case 'status': {
        const codes = value.split('|').map((s) => Number(s.trim()));
        if (codes.length === 0 || codes.some((c) => !Number.isInteger(c) || c < 500 || c > 599)) {
          throw new Error(`fault spec: "${item}" needs 5xx statuses separated by |, e.g. status=500|502|503`);
        }
        out.statuses = codes;
        break;
      }
      case '429': out.rateLimit = rate(value, item); break;
      case 'retry-after': {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0) throw new Error(`fault spec: "${item}" needs whole seconds`);
        out.retryAfter = n;
        break;
      }
      case 'drop': out.drop = rate(value, item); break;
      case 'drop-after': out.dropAfter = rate(value, item); break;
      case 'truncate': out.truncate = rate(value, item); break;
      case 'html': out.html = rate(value, item); break;
      case 'portal': out.portal = rate(value, item); break;
      case 'seed': {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0) throw new Error(`fault spec: "${item}" needs a non-negative integer`);
        out.seed = n;
        break;
      }
      default:
        throw new Error(
          `fault spec: unknown kind "${kind}" in "${item}" (kinds: latency, error, status, 429, retry-after, drop, drop-after, truncate, html, portal, seed)`,
        );
    }
  }
  const total = out.error + out.rateLimit + out.drop + out.dropAfter + out.truncate + out.html + out.portal;
  if (total > 1) throw new Error(`fault spec: the rates add up to ${total}, more than 1`);
  return out;
}

export class FaultInjector {
  private counter = 0;
  private spec: FaultSpec;
  private seed: number;

  constructor(spec: FaultSpec, private readonly defaultSeed: number) {
    this.spec = spec;
    this.seed = spec.seed ?? defaultSeed;
  }

  /** Replace the spec and restart the sequence. */
  set(spec: FaultSpec): void {
    this.spec = spec;
    this.seed = spec.seed ?? this.defaultSeed;
    this.counter = 0;
  }

  get current(): FaultSpec {
    return this.spec;
  }

  next(): FaultDecision {
    const n = this.counter++;
    const s = this.spec;
    const u = unit(this.seed, n, 0xfa);
    let kind: FaultKind = 'none';
    const order: Array<[number, FaultKind]> = [
      [s.drop, 'drop'], [s.dropAfter, 'drop-after'], [s.rateLimit, 'rate-limit'],
      [s.error, 'error'], [s.html, 'html'], [s.portal, 'portal'], [s.truncate, 'truncate'],
    ];
    let acc = 0;
    for (const [p, k] of order) {
      acc += p;
      if (p > 0 && u < acc) {
        kind = k;
        break;
      }
    }
    const [lo, hi] = s.latency ?? [0, 0];
    return {
      kind,
      delayMs: lo + Math.floor(unit(this.seed, n, 0xde) * (hi - lo + 1)),
      status: s.statuses[hash32(this.seed, n, 0x5c) % s.statuses.length] ?? 500,
      retryAfter: s.retryAfter,
    };
  }
}
