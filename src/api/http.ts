/**
 * The thin HTTP layer: one keep-alive undici dispatcher (proxy-aware), timeouts,
 * retries with backoff and jitter, and the -v trace. It knows nothing of
 * resources or credentials: callers pass the headers to send. undici's HTTP
 * parser is kept on V8's baseline tier: see writeWasmImages in scripts/build.mjs.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { collect, createDispatcher, CutShort, describeFailure, errorCode, messageOf, type Reply } from './dispatch.js';
import { NetworkError, UsageError } from '../errors.js';
import { redactBody, redactHeader, redactUrl } from './redact.js';
import { isTransientStatus, parseRetryAfter, realTimer, retry, type Again, type Timer } from '../retry.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpRequest {
  method: Method;
  /** Path below the base URL, already percent-encoded, starting with '/'. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * open() only: abandons the request, its wait before a try as much as the try in flight
   * (a second Ctrl-C does not wait for a reply); it rejects with the signal's reason.
   */
  signal?: AbortSignal;
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
  timer?: Timer;
}

/**
 * Which replies are asked again is the retry module's rule (a 500 is as often passing as a
 * 502-504 is); asking again is safe where the method is idempotent; a POST is never
 * repeated (it may have taken effect; a bulk create reconciles and asks again itself).
 */
const IDEMPOTENT = new Set<Method>(['GET', 'PUT', 'DELETE']);
/** Failures that prove the request never reached the server, so even a POST may be retried. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

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
  private readonly timer: Timer;
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
    this.timer = opts.timer ?? realTimer;
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
        r = await request.call(dispatcher, { ...opts, signal: req.signal });
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
    const idempotent = IDEMPOTENT.has(req.method);
    let rateLimited = 0;
    return retry(
      async (attempt) => {
        await this.waitWhilePaused();
        const started = nowMs();
        this.traceRequest(req.method, url, headers, payload);
        let res: Reply<B>;
        try {
          res = await exchange(await this.pool(), { origin: this.origin, path: this.basePath + req.path, method: req.method, headers, body: payload });
        } catch (err) {
          if (req.signal?.aborted) throw req.signal.reason;
          const where = err instanceof CutShort ? `body of ${req.method}` : req.method;
          this.trace(`! ${where} ${redactUrl(url)}: ${errorCode(err) ?? messageOf(err)} (${Math.round(nowMs() - started)} ms)`);
          throw networkError(url, err, attempt + 1);
        }
        this.traceResponse(res, started);
        if (res.status === 429) this.throttled++;
        return res;
      },
      {
        retries: this.opts.retries,
        // A failure mid-body (a truncated reply) follows the same rule: the request was sent.
        retryError: (err) => !req.signal?.aborted && (idempotent || (err instanceof NetworkError && NEVER_SENT.has(errorCode(err.cause) ?? ''))),
        retryResult: (res): Again | undefined => {
          const hinted = parseRetryAfter(res.headers['retry-after'], this.timer.now());
          // The service says when to come back: such waits pause every request of this client
          // and do not use up --retries, up to a bound.
          if (res.status === 429 && hinted !== undefined) {
            this.pauseAll(hinted);
            if (idempotent && rateLimited < MAX_RATE_LIMITED && this.opts.retries > 0) {
              rateLimited++;
              return { afterMs: 0, counts: false };
            }
          }
          if (!isTransientStatus(res.status) || !idempotent) return undefined;
          return hinted === undefined ? {} : { afterMs: hinted };
        },
        discard: (res) => res.discard?.(),
        onRetry: (ms) => {
          if (ms > 0) this.trace(`  retrying in ${Math.round(ms)} ms`);
        },
        timer: this.timer,
        signal: req.signal,
      },
    );
  }

  /** Every request of this client waits `ms` (with a little jitter, so they do not all return at once). */
  private pauseAll(ms: number): void {
    const until = nowMs() + ms + this.timer.random() * Math.min(250, ms / 4);
    if (until > this.pausedUntil) {
      this.trace(`  rate-limited: pausing every request for ${Math.round(until - nowMs())} ms`);
      this.pausedUntil = until;
    }
  }

  private async waitWhilePaused(): Promise<void> {
    for (let wait = this.pausedUntil - nowMs(); wait > 0; wait = this.pausedUntil - nowMs()) await this.timer.sleep(wait);
  }

  private trace(line: string): void {
    this.opts.trace?.(line);
  }

  private traceRequest(method: string, url: string, headers: Record<string, string>, payload: string | undefined): void {
    if (!this.opts.trace) return;
    this.trace(`> ${method} ${redactUrl(url)}`);
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

function networkError(url: string, err: unknown, attempts: number): NetworkError {
  const host = new URL(url).host;
  return new NetworkError(`request to ${host} ${describeFailure(err)} after ${attempts} attempt${attempts === 1 ? '' : 's'}`, {
    cause: err,
    hint: 'Check the address (trackctl config get base-url) and your network; --timeout and --retries adjust the limits.',
  });
}
