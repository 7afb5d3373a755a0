/**
 * trackctl run in the test's own process, as gh's tests run a command with `runF` and an
 * HTTP registry: the real program (src/main.ts: commander tree, handlers, the error → exit
 * code map) with an IO over buffers, the environment given and nothing of the test's, config
 * and data directories in a temp directory, and a clock of the test's choosing. A flag error
 * costs a few milliseconds instead of a Node start-up (150-400 ms on this loaded machine).
 *
 * HTTP goes to a real server on loopback: the in-process sandbox (startSandbox) or a
 * registry of recorded replies (httpRegistry) that fails the test on any request it was not
 * told of. Spawn the binary (cli.ts) where a process is the point: signals, terminals, pipes,
 * packaging, the SEA, what start-up loads, the keychain, and `map` past its own checks (it
 * runs the binary again, process.argv[1], as its child: in a test that is the test file).
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { main } from '../../src/main.js';
import type { IO } from '../../src/io/delivery/streams.js';
import type { Sandbox } from '../../src/sandbox/index.js';

export interface InProcessOptions {
  /** The whole environment of the run (PATH and HOME are added); without TRACKCTL_CONFIG_DIR, config and data are in a temp directory. */
  env?: Record<string, string | undefined>;
  /** stdin's text (ended: as the spawning harness gives). */
  input?: string;
  /** Which streams are terminals (default: none, as piped). */
  tty?: { stdout?: boolean; stderr?: boolean; stdin?: boolean };
  /** The terminal width; default COLUMNS, else 80. */
  columns?: number;
  /** A fixed clock (ms since the epoch); default the system's, as the sandbox's clock is. */
  now?: number;
  /** Where HTTP goes: TRACKCTL_BASE_URL is set to it and its requests are returned. */
  http?: Sandbox | HttpRegistry;
  /** A run still going after this long fails the test (it cannot be killed as a process is: it is left behind). */
  timeoutMs?: number;
}

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
  /** "METHOD /path" of each request the sandbox or registry received during the run. */
  requests: string[];
}

/** An IO over memory: what is written is kept as text; `err` adds the newline as systemIO does. */
export function bufferIO(opts: Pick<InProcessOptions, 'input' | 'tty' | 'columns'> & { env?: Record<string, string | undefined> }): IO & { stdoutText(): string; stderrText(): string } {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const sink = (into: Buffer[]): Writable =>
    new Writable({
      write(chunk: Buffer | string, _enc, done) {
        into.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
        done();
      },
    });
  const stdout = sink(out);
  const stderr = sink(err);
  const stdin = new PassThrough();
  stdin.end(opts.input ?? '');
  const write = (text: string | Uint8Array): Promise<void> => new Promise((resolve, reject) => stdout.write(text, (e) => (e ? reject(e) : resolve())));
  const columns = opts.columns ?? (Number(opts.env?.COLUMNS) || 80);
  return {
    stdout,
    stderr,
    stdin,
    stdoutIsTTY: opts.tty?.stdout ?? false,
    stderrIsTTY: opts.tty?.stderr ?? false,
    stdinIsTTY: opts.tty?.stdin ?? false,
    columns: () => columns,
    out: write,
    outBytes: write,
    err: (text) => void stderr.write(text.endsWith('\n') ? text : `${text}\n`),
    flush: async () => undefined,
    readerLeft: () => false,
    stdoutText: () => Buffer.concat(out).toString('utf8'),
    stderrText: () => Buffer.concat(err).toString('utf8'),
  };
}

/** Runs one command line in-process; fails the test when a registry got a request it was not told of. */
export async function runInProcess(args: string[], opts: InProcessOptions = {}): Promise<InProcessResult> {
  let scratch: string | undefined;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ PATH: process.env.PATH, HOME: process.env.HOME, ...opts.env })) if (v !== undefined) env[k] = v;
  // Given a config directory, the data directory is the program's to derive (<config>/data), as for the binary.
  if (env.TRACKCTL_CONFIG_DIR === undefined) {
    scratch = mkdtempSync(join(tmpdir(), 'trackctl-inproc-'));
    env.TRACKCTL_CONFIG_DIR = join(scratch, 'config');
    env.TRACKCTL_DATA_DIR ??= join(scratch, 'data');
  }
  if (opts.http) env.TRACKCTL_BASE_URL = opts.http.url;
  const seen = opts.http ? opts.http.requests.length : 0;
  const io = bufferIO({ ...opts, env });
  const clock = opts.now === undefined ? undefined : { now: () => opts.now! };
  try {
    let timer: NodeJS.Timeout | undefined;
    const overdue = new Promise<never>((_, reject) => {
      if (opts.timeoutMs !== undefined) timer = setTimeout(() => reject(new Error(`trackctl ${args.join(' ')} (in-process) still runs after ${opts.timeoutMs} ms`)), opts.timeoutMs);
    });
    const code = await Promise.race([main(args, io, env, { clock }), overdue]).finally(() => clearTimeout(timer));
    const requests = opts.http ? opts.http.requests.slice(seen).map((r) => `${r.method} ${r.path}`) : [];
    if (opts.http && 'unexpected' in opts.http) opts.http.assertNoUnexpected();
    return { code, stdout: io.stdoutText(), stderr: io.stderrText(), requests };
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

export interface RecordedRequest {
  method: string;
  /** The path with its query string, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status?: number;
  /** Sent as application/json. */
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
}

export interface HttpRegistry {
  readonly url: string;
  /** Every request received, in order, expected or not. */
  readonly requests: RecordedRequest[];
  /** Requests no stub matched. */
  readonly unexpected: RecordedRequest[];
  /**
   * Answers the first request matching `route` ("GET /v2/devices/": method and path, the query
   * ignored unless the route has one; or a predicate) with `reply`, once; `times` for more.
   */
  register(route: string | ((r: RecordedRequest) => boolean), reply: Reply | ((r: RecordedRequest) => Reply), times?: number): void;
  /** Fails the test when a request matched no stub. */
  assertNoUnexpected(): void;
  /** Fails the test when a registered reply was never asked for (gh's reg.Verify). */
  verify(): void;
  close(): Promise<void>;
}

/**
 * A loopback server answering from recorded replies, as gh's httpmock.Registry does. A request
 * no stub matches is answered 599 (no retry rule of trackctl's takes it for a transient error
 * to wait out) and recorded; runInProcess then fails the test, naming it.
 */
export async function httpRegistry(): Promise<HttpRegistry> {
  interface Stub {
    route: string | ((r: RecordedRequest) => boolean);
    reply: Reply | ((r: RecordedRequest) => Reply);
    left: number;
  }
  const stubs: Stub[] = [];
  const requests: RecordedRequest[] = [];
  const unexpected: RecordedRequest[] = [];
  const matches = (route: Stub['route'], r: RecordedRequest): boolean => {
    if (typeof route === 'function') return route(r);
    const [method, path] = route.split(' ', 2);
    return r.method === method && (path!.includes('?') ? r.path === path : r.path.split('?')[0] === path);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(r);
      const stub = stubs.find((s) => s.left > 0 && matches(s.route, r));
      if (!stub) {
        unexpected.push(r);
        res.writeHead(599, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `no recorded reply for ${r.method} ${r.path}` }));
        return;
      }
      stub.left--;
      const reply = typeof stub.reply === 'function' ? stub.reply(r) : stub.reply;
      const body = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.body ?? '');
      const type = reply.json !== undefined ? { 'content-type': 'application/json' } : {};
      res.writeHead(reply.status ?? 200, { ...type, ...reply.headers }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    unexpected,
    register(route, reply, times = 1) {
      stubs.push({ route, reply, left: times });
    },
    assertNoUnexpected() {
      assert.deepEqual(unexpected.map((r) => `${r.method} ${r.path}`), [], 'requests with no recorded reply');
    },
    verify() {
      const unused = stubs.filter((s) => s.left > 0).map((s) => (typeof s.route === 'string' ? s.route : 'a predicate'));
      assert.deepEqual(unused, [], 'recorded replies never asked for');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
