/**
 * The API client: the HTTP layer plus credentials. It attaches the bearer token
 * to /v2/ paths and the session cookie everywhere it is held, renews once on a
 * 401, and turns failures into typed errors. It never prints or prompts.
 */
import { ApiError, AuthError, NotFoundError } from '../errors.js';
import { defaultShareUrl } from '../config/schema.js';
import type { Session, AuthMode } from '../auth/session.js';
import type { HttpClient, HttpRequest, HttpResponse, StreamResponse } from './http.js';
import { sanitizeText } from '../sanitize.js';
import { excerpt, parseJsonObject } from './reply.js';
import { redactUrl } from './redact.js';

export type { AuthMode };

export interface ApiRequest extends HttpRequest {
  /** auto: bearer on /v2/ plus the cookie when held; token/session/none force one mechanism. */
  auth?: AuthMode;
}

export interface Api {
  readonly http: HttpClient;
  readonly shareUrl: string;
  /** Sends with credentials; any non-2xx becomes a typed error. */
  call(req: ApiRequest): Promise<HttpResponse>;
  /** Sends with credentials (a 401 renewed once, as call() does) and returns the reply whatever its status (`api` prints an error's body too). */
  reply(req: ApiRequest): Promise<HttpResponse>;
  /** call() and decode a JSON object body. */
  json(req: ApiRequest): Promise<Record<string, unknown>>;
  /** call() for a body too large to hold: the caller parses the stream. */
  stream(req: ApiRequest): Promise<StreamResponse>;
}

/** Builds a path with every interpolated segment percent-encoded: path`/v2/devices/did/${did}`. */
export function path(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  return strings.reduce((acc, s, i) => acc + s + (i < values.length ? segment(String(values[i])) : ''), '');
}

/** One path segment, percent-encoded; `.` and `..` too (encodeURIComponent leaves dots), which a URL's rules would otherwise resolve away. */
function segment(value: string): string {
  return value === '.' || value === '..' ? value.replaceAll('.', '%2E') : encodeURIComponent(value);
}

/** Comma-separated ids for membership paths; the commas stay literal, as the interface shows them. */
export function idList(ids: number[]): string {
  return ids.map((id) => encodeURIComponent(String(id))).join(',');
}

/** The service's API over `http`, signed in through `session`; share links under `shareUrl` (default: the service's). */
export function createApi(http: HttpClient, session: Session, shareUrl?: string): Api {
  return new ServiceApi(http, session, shareUrl ?? defaultShareUrl(http.baseUrl));
}

class ServiceApi implements Api {
  constructor(
    readonly http: HttpClient,
    private readonly session: Session,
    readonly shareUrl: string,
  ) {}

  async call(req: ApiRequest): Promise<HttpResponse> {
    const res = await this.reply(req);
    if (res.status >= 200 && res.status < 300) return res;
    throw errorFor(req, res.status, res.text);
  }

  reply(req: ApiRequest): Promise<HttpResponse> {
    return this.authorized(req, (r) => this.http.send(r));
  }

  async json(req: ApiRequest): Promise<Record<string, unknown>> {
    const res = await this.call(req);
    return parseJsonObject(res);
  }

  async stream(req: ApiRequest): Promise<StreamResponse> {
    const res = await this.authorized(req, (r) => this.http.open(r));
    if (res.status >= 200 && res.status < 300) return res;
    let text = '';
    for await (const chunk of res.body) text += String(chunk);
    throw errorFor(req, res.status, text);
  }

  /** Sends with credentials; on a 401, renews what was used once and tries once more. */
  private async authorized<T extends { status: number; body?: unknown }>(
    req: ApiRequest,
    send: (r: HttpRequest) => Promise<T>,
  ): Promise<T> {
    const mode = req.auth ?? 'auto';
    if (mode === 'none') return send(req);
    let creds = await this.session.credentialsFor(req.path, mode);
    let res = await send({ ...req, headers: { ...req.headers, ...creds } });
    if (res.status !== 401) return res;
    drain(res);
    if (!(await this.session.renew(creds))) throw this.rejected(req);
    creds = await this.session.credentialsFor(req.path, mode);
    res = await send({ ...req, headers: { ...req.headers, ...creds } });
    if (res.status !== 401) return res;
    drain(res);
    throw this.rejected(req);
  }

  private rejected(req: ApiRequest): AuthError {
    return new AuthError(`the service rejected the credentials for ${req.method} ${redactUrl(req.path)} (401)`, { hint: this.session.signInHint(req.path) });
  }
}

function drain(res: { body?: unknown }): void {
  const body = res.body as { resume?: () => void } | undefined;
  if (body && typeof body.resume === 'function') body.resume();
}

/** The service's own error message (our sandbox sends {error, message, field}), or undefined when the body holds none (a proxy's page, say). */
function serviceMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    if (typeof body.message === 'string') return sanitizeText(body.message);
    if (typeof body.error === 'string') return sanitizeText(body.error);
  } catch {
    // not JSON
  }
  return undefined;
}

/** The typed error of a reply with a status other than 2xx (call() throws it). */
export function errorFor(req: ApiRequest, status: number, text: string): Error {
  const said = serviceMessage(text);
  const message = said ?? excerpt(text);
  if (status === 404) {
    // Without the service's words, the request and its status say what was not found.
    if (said === undefined) return new NotFoundError(`${req.method} ${redactUrl(req.path)}: not found (404): ${message}`);
    return new NotFoundError(/not found/i.test(said) ? said : `not found: ${said}`);
  }
  if (status === 401) return new AuthError(`not authorised (401): ${message}`, { hint: 'Sign in with: trackctl login' });
  return new ApiError(`${req.method} ${redactUrl(req.path)} failed (${status}): ${message}`, status);
}
