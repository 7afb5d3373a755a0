/**
 * The sandbox server: node:http in front of the routing table. Per request: read the body,
 * draw a fault, match a route (404 naming method and path, or 405 with Allow), check the
 * credentials the route accepts, run the handler, log, reply (streamed when the handler streams).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SandboxError, unauthorized } from './errors.js';
import { FaultInjector, type FaultDecision, parseFaults } from './faults.js';
import { control } from './handlers/control.js';
import { truthReply } from './handlers/truth.js';
import { errorReply, json, parseBody, readBody, type Reply, type RequestLogEntry, type Route, waitDrain } from './http.js';
import { resolve } from './routes.js';
import { SESSION_COOKIE, verifyAccessToken, verifySession } from './service/auth.js';
import { Db } from './service/db.js';
import { warmUnitCache } from './service/views.js';
import { createInitialState } from './seed.js';
import { FileStore, MemoryStore } from './store.js';
import type { Principal } from './types.js';
import { validateOptions, type SandboxOptions } from './options.js';

export interface Sandbox {
  url: string;
  port: number;
  requests: RequestLogEntry[];
  clearRequests(): void;
  setNow(ms: number): void;
  close(): Promise<void>;
}

const HTML_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** What a captive portal or a gateway in maintenance answers in JSON: a 200 with no envelope. */
const PORTAL_200 = '{"status":"ok","page":"maintenance","message":"The service will be back shortly."}';

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The principal a route accepts, or a 401 explaining what the route needs. */
function authenticate(db: Db, rule: Route['auth'], bearer: string | undefined, hasAuthHeader: boolean, session: string | undefined): Principal | undefined {
  if (rule === 'none') return undefined;
  if (rule === 'v2') {
    if (hasAuthHeader) {
      if (bearer === undefined) throw unauthorized('the Authorization header must be "Bearer <access_token>"');
      return verifyAccessToken(db, bearer);
    }
    if (session !== undefined) return verifySession(db, session);
    throw unauthorized('authentication required: send "Authorization: Bearer <access_token>" or the session cookie');
  }
  if (session !== undefined) return verifySession(db, session);
  if (hasAuthHeader) {
    throw unauthorized('this endpoint needs a session cookie (sign in with POST /api/login/); bearer tokens are accepted only on /v2/ endpoints');
  }
  throw unauthorized('this endpoint needs a session cookie: sign in with POST /api/login/ first');
}

function subOf(db: Db, bearer: string | undefined, session: string | undefined): string | undefined {
  for (const check of [() => (bearer ? verifyAccessToken(db, bearer) : undefined), () => (session ? verifySession(db, session) : undefined)]) {
    try {
      const p = check();
      if (p) return `${p.aid}:${p.uid}`;
    } catch {
      // not valid: no sub
    }
  }
  return undefined;
}

async function send(res: ServerResponse, reply: Reply, truncate: boolean): Promise<void> {
  if (reply.kind === 'text') {
    const buf = typeof reply.text === 'string' ? Buffer.from(reply.text, 'utf8') : reply.text;
    res.writeHead(reply.status, { ...reply.headers, 'Content-Type': reply.contentType, 'Content-Length': String(buf.length) });
    if (truncate) res.write(buf.subarray(0, Math.floor(buf.length / 2)), () => res.destroy());
    else res.end(buf);
    return;
  }
  res.writeHead(reply.status, reply.headers);
  let chunks = 0;
  const write = async (chunk: string): Promise<void> => {
    if (res.destroyed) throw new Error('client closed the connection');
    if (truncate && chunks++ >= 1) {
      res.destroy();
      throw new Error('truncated by fault injection');
    }
    if (!res.write(chunk)) await waitDrain(res);
  };
  try {
    await reply.produce(write);
    res.end();
  } catch {
    res.destroy();
  }
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const opts = validateOptions(options);
  let clock: () => number = opts.now;
  const store = opts.stateFile ? new FileStore(opts.stateFile) : new MemoryStore();
  let state = store.load();
  if (!state) {
    state = createInitialState({ seed: opts.seed, devices: opts.devices, now: Math.floor(clock() / 1000) });
    store.save(state);
    store.flush();
  }
  const db = new Db(state, store, () => clock(), { access: opts.accessTtl, refresh: opts.refreshTtl, session: opts.sessionTtl }, opts.benchReports);
  if (Object.keys(state.units).length > 1000) warmUnitCache(db);
  let faultText = opts.faults;
  const faults = new FaultInjector(parseFaults(opts.faults), state.seed);
  const requests: RequestLogEntry[] = [];
  const log = opts.quiet ? undefined : opts.log;

  const deps = {
    seed: state.seed,
    requests,
    clearRequests: () => void requests.splice(0, requests.length),
    nowMs: () => clock(),
    setNow: (ms: number) => {
      clock = () => ms;
    },
    setFaults: (spec: string) => {
      faults.set(parseFaults(spec));
      faultText = spec;
    },
    faultSpec: () => faultText,
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const started = Date.now();
    const rawBody = await readBody(req).catch(() => '');
    let parts: string[] = [];
    let pathError: SandboxError | undefined;
    try {
      parts = (url.split('?')[0] ?? '').split('/').filter((s) => s !== '').map((s) => decodeURIComponent(s));
    } catch {
      pathError = new SandboxError(400, 'invalid_request', `malformed percent-encoding in path ${url}`);
    }
    const contentType = req.headers['content-type'];
    if (parts[0] === '_sandbox' && !pathError) {
      let reply: Reply;
      try {
        reply = parts[1] === 'truth' ? truthReply(db, method, parts, url) : control(deps, method, parts, parseBody(rawBody, contentType));
      } catch (err) {
        reply = errorReply(err instanceof SandboxError ? err : new SandboxError(500, 'server_error', String(err)));
      }
      await send(res, reply, false);
      return;
    }

    const authHeader = req.headers.authorization;
    const bearer = authHeader ? /^Bearer\s+(\S+)\s*$/i.exec(authHeader)?.[1] : undefined;
    const session = cookieValue(req.headers.cookie, SESSION_COOKIE);
    const entry: RequestLogEntry = { time: clock(), method, path: url, status: 0, auth: { bearer: bearer !== undefined, cookie: session !== undefined } };
    try {
      const b = parseBody(rawBody, contentType);
      if (b !== undefined) entry.body = b;
    } catch {
      entry.body = rawBody;
    }
    requests.push(entry);

    const fault: FaultDecision = faults.next();
    if (fault.delayMs > 0) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (fault.kind !== 'none') entry.fault = fault.kind;
    if (fault.kind === 'drop') {
      req.socket.destroy();
      return;
    }

    let reply: Reply;
    if (fault.kind === 'rate-limit') {
      reply = errorReply(new SandboxError(429, 'rate_limited', `too many requests; retry after ${fault.retryAfter} s`, undefined, { 'Retry-After': String(fault.retryAfter) }));
    } else if (fault.kind === 'error') {
      reply = errorReply(new SandboxError(fault.status, 'server_error', `injected server error ${fault.status}`));
    } else if (fault.kind === 'html') {
      reply = { kind: 'text', status: 502, text: HTML_502, contentType: 'text/html', headers: {} };
    } else if (fault.kind === 'portal') {
      reply = { kind: 'text', status: 200, text: PORTAL_200, contentType: 'application/json', headers: {} };
    } else {
      reply = await dispatch(method, parts, pathError, rawBody, contentType, authHeader !== undefined, bearer, session, url);
    }
    entry.status = reply.status;
    const sub = subOf(db, bearer, session);
    if (sub !== undefined) entry.auth.sub = sub;
    log?.(`${method} ${url} ${reply.status}${entry.fault ? ` [${entry.fault}]` : ''} ${Date.now() - started}ms`);
    if (fault.kind === 'drop-after') {
      req.socket.destroy();
      return;
    }
    await send(res, reply, fault.kind === 'truncate');
  }

  async function dispatch(
    method: string, parts: string[], pathError: SandboxError | undefined, rawBody: string,
    contentType: string | undefined, hasAuthHeader: boolean, bearer: string | undefined, session: string | undefined, url: string,
  ): Promise<Reply> {
    try {
      if (pathError) throw pathError;
      const { match, allowed } = resolve(method, parts);
      if (!match) {
        if (allowed.length > 0) {
          throw new SandboxError(405, 'method_not_allowed', `${method} is not allowed on ${url} (allowed: ${allowed.join(', ')})`, undefined, { Allow: allowed.join(', ') });
        }
        throw new SandboxError(404, 'not_found', `no such endpoint: ${method} ${url}`);
      }
      const principal = authenticate(db, match.route.auth, bearer, hasAuthHeader, session);
      const body = parseBody(rawBody, contentType);
      return await match.route.handler({ db, method, path: url, params: match.params, rest: match.rest, body, principal });
    } catch (err) {
      if (err instanceof SandboxError) return errorReply(err);
      return json(500, { error: 'server_error', message: `sandbox failure: ${(err as Error).message}`, status: 500 });
    }
  }

  const server = createServer((req, res) => {
    // The Date header follows the sandbox clock (setNow), as a real server's follows its own.
    res.sendDate = false;
    res.setHeader('Date', new Date(clock()).toUTCString());
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolveListen());
  });
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    requests,
    clearRequests: deps.clearRequests,
    setNow: deps.setNow,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => {
          store.save(db.state);
          store.flush();
          done();
        });
        server.closeAllConnections();
      }),
  };
}
