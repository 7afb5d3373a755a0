/**
 * The thin HTTP layer: one keep-alive undici dispatcher (proxy-aware), timeouts,
 * retries with backoff and jitter, and the -v trace. It knows nothing of
 * resources or credentials: callers pass the headers to send. undici's HTTP
 * parser is kept on V8's baseline tier: see writeWasmImages in scripts/build.mjs.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { collect, createDispatcher, CutShort, type Reply } from './dispatch.js';
import { NetworkError, UsageError } from '../errors.js';
import { redactBody, redactHeader } from './redact.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpRequest {
  method: Method;
  /** Path below the base URL, already percent-encoded, starting with '/'. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface StreamResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

export interface HttpOptions {
  baseUrl: string;
  timeoutMs: number;
  retries: number;
  userAgent: string;
  trace?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/**
 * Replies worth asking again: a 500 is as often passing (a restarted worker, a dropped
 * database connection) as a 502-504 is, and asking again is safe where the method is
 * idempotent; a POST is never repeated (it may have taken effect).
 */
const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
const IDEMPOTENT = new Set<Method>(['GET', 'PUT', 'DELETE']);
/** Failures that prove the request never reached the server, so even a POST may be retried. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const MAX_BACKOFF_MS = 8000;
const MAX_RETRY_AFTER_MS = 60_000;

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** https everywhere; plain http only for this machine. */
export function checkBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`invalid base URL "${raw}": expected an absolute https:// URL`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  if (url.protocol === 'http:') {
    throw new UsageError(`refusing plain http:// to ${url.hostname}: use https:// (http is allowed for loopback hosts only)`);
  }
  throw new UsageError(`invalid base URL "${raw}": expected an https:// URL`);
}

/** Milliseconds for timing the trace; the global `performance` would load node:perf_hooks (~2 ms). */
function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export class HttpClient {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly basePath: string;
  private dispatcher: Promise<Dispatcher> | undefined;
  /** Requests sent whose reply body has not closed yet. */
  private inFlight = 0;
  private readonly opts: HttpOptions;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  /**
   * Until when (ms) every request of this client waits: a 429 pauses all requests in
   * flight or about to start (a pool of them), not only the one that got it.
   */
  private pausedUntil = 0;
  /** 429 replies seen so far; --follow over many units slows its round when this grows. */
  throttled = 0;

  constructor(opts: HttpOptions) {
    const url = checkBaseUrl(opts.baseUrl);
    this.baseUrl = url.href.replace(/\/+$/, '');
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.opts = opts;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.random = opts.random ?? Math.random;
  }

  private pool(): Promise<Dispatcher> {
    this.dispatcher ??= createDispatcher(this.origin, {
      keepAliveTimeout: 10_000,
      connect: { timeout: this.opts.timeoutMs },
      headersTimeout: this.opts.timeoutMs,
      bodyTimeout: this.opts.timeoutMs,
    });
    return this.dispatcher;
  }

  /** Sends a request and reads the whole body, retrying where that is safe. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const res = await this.withRetries(req, async (dispatcher, opts) => {
      this.inFlight++;
      try {
        return await collect(dispatcher, opts);
      } finally {
        this.inFlight--;
      }
    });
    if (this.opts.trace) this.traceBody(res.body);
    return { status: res.status, headers: res.headers, text: res.body };
  }

  /** Sends a request and hands back the body as a stream; retries happen only before the body starts. */
  async open(req: HttpRequest): Promise<StreamResponse> {
    const { default: request } = await import('undici/lib/api/api-request.js');
    return this.withRetries(req, async (dispatcher, opts) => {
      this.inFlight++;
      let r: Dispatcher.ResponseData;
      try {
        r = await request.call(dispatcher, opts);
      } catch (err) {
        this.inFlight--;
        throw err;
      }
      // In flight until the caller's stream closes.
      r.body.once('close', () => this.inFlight--);
      return { status: r.statusCode, headers: r.headers, body: r.body, discard: () => r.body.resume() };
    });
  }

  /**
   * Ends whatever is still open, so the process can exit. undici lets idle keep-alive
   * sockets go (unreferenced), so with nothing in flight there is nothing to do, and
   * destroying them anyway costs a command ~1 ms. A request still running (a command
   * that failed half-way) is torn down rather than waited for.
   */
  async close(): Promise<void> {
    if (this.dispatcher && this.inFlight > 0) await (await this.dispatcher).destroy();
  }

  private async withRetries<B>(req: HttpRequest, exchange: (dispatcher: Dispatcher, opts: Dispatcher.DispatchOptions) => Promise<Reply<B>>): Promise<Reply<B>> {
    const url = this.baseUrl + req.path;
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...req.headers,
    };
    let limited = 0;
    for (let attempt = 0; ; attempt++) {
      await this.waitWhilePaused();
      const started = nowMs();
      this.traceRequest(req.method, url, headers, payload);
      let res: Reply<B>;
      try {
        res = await exchange(await this.pool(), { origin: this.origin, path: this.basePath + req.path, method: req.method, headers, body: payload });
      } catch (err) {
        const code = errorCode(err);
        const where = err instanceof CutShort ? `body of ${req.method}` : req.method;
        this.trace(`! ${where} ${url}: ${code ?? describe(err)} (${Math.round(nowMs() - started)} ms)`);
        // A failure mid-body (a truncated reply) follows the same rule: the request was sent.
        if ((IDEMPOTENT.has(req.method) || NEVER_SENT.has(code ?? '')) && attempt < this.opts.retries) {
          await this.backoff(attempt, undefined);
          continue;
        }
        throw networkError(url, err, attempt + 1);
      }
      this.traceResponse(res, started);
      const retryStatus = RETRY_STATUSES.has(res.status) && (IDEMPOTENT.has(req.method) || res.status === 429);
      if (res.status === 429) {
        this.throttled++;
        // The service says when to come back: such waits do not use up --retries, up to a bound.
        const hinted = parseRetryAfter(headerText(res.headers['retry-after']));
        if (hinted !== undefined && limited++ < MAX_RATE_LIMITED && this.opts.retries > 0) {
          res.discard?.();
          attempt--;
          this.pauseAll(hinted);
          continue;
        }
      }
      if (retryStatus && attempt < this.opts.retries) {
        res.discard?.();
        await this.backoff(attempt, res.headers['retry-after']);
        continue;
      }
      return res;
    }
  }

  /** Every request of this client waits `ms` (with a little jitter, so they do not all return at once). */
  private pauseAll(ms: number): void {
    const until = nowMs() + ms + this.random() * Math.min(250, ms / 4);
    if (until > this.pausedUntil) {
      this.trace(`  rate-limited: pausing every request for ${Math.round(until - nowMs())} ms`);
      this.pausedUntil = until;
    }
  }

  private async waitWhilePaused(): Promise<void> {
    for (let wait = this.pausedUntil - nowMs(); wait > 0; wait = this.pausedUntil - nowMs()) await this.sleep(wait);
  }

  private async backoff(attempt: number, retryAfter: string | string[] | undefined): Promise<void> {
    const hinted = parseRetryAfter(headerText(retryAfter));
    const exp = Math.min(MAX_BACKOFF_MS, 250 * 2 ** attempt);
    // "Equal jitter": half fixed, half random, so parallel clients spread out.
    const wait = hinted ?? exp / 2 + this.random() * (exp / 2);
    this.trace(`  retrying in ${Math.round(wait)} ms`);
    await this.sleep(wait);
  }

  private trace(line: string): void {
    this.opts.trace?.(line);
  }

  private traceRequest(method: string, url: string, headers: Record<string, string>, payload: string | undefined): void {
    if (!this.opts.trace) return;
    this.trace(`> ${method} ${url}`);
    for (const [k, v] of Object.entries(headers)) this.trace(`> ${k}: ${redactHeader(k, v)}`);
    if (payload !== undefined) this.trace(`> ${redactBody(payload)}`);
  }

  private traceResponse(res: Reply<unknown>, started: number): void {
    if (!this.opts.trace) return;
    this.trace(`< ${res.status} (${Math.round(nowMs() - started)} ms)`);
    for (const [k, v] of Object.entries(res.headers)) {
      for (const one of Array.isArray(v) ? v : [v ?? '']) this.trace(`< ${k}: ${redactHeader(k, one)}`);
    }
  }

  private traceBody(text: string): void {
    const shown = redactBody(text);
    this.trace(`< ${shown.length > 2000 ? `${shown.slice(0, 2000)}… (${text.length} bytes)` : shown}`);
  }
}

/** 429 replies with Retry-After that one request rides out before they count as failed attempts. */
const MAX_RATE_LIMITED = 20;

const headerText = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

export function parseRetryAfter(value: string | undefined, nowMs = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - nowMs), MAX_RETRY_AFTER_MS);
}

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return undefined;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function networkError(url: string, err: unknown, attempts: number): NetworkError {
  const code = errorCode(err);
  const what =
    code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT'
      ? 'timed out'
      : code === 'ECONNREFUSED'
        ? 'connection refused'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'host not found'
          : `failed (${code ?? describe(err)})`;
  const host = new URL(url).host;
  return new NetworkError(`request to ${host} ${what} after ${attempts} attempt${attempts === 1 ? '' : 's'}`, {
    cause: err,
    hint: 'Check the address (trackctl config get base-url) and your network; --timeout and --retries adjust the limits.',
  });
}
