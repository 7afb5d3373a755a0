/**
 * A loopback HTTP proxy in front of the sandbox, as a hostile one in front of the real
 * service: it forwards every request, and for the requests a test picks answers on its own
 * (a 200 page of its own, a 502, a dropped connection) or shifts the Date header of what
 * the service answered. The rules can be changed between runs.
 */
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';

export type ProxyAnswer = { status: number; body: string } | 'drop';

export interface ProxyRules {
  /** The proxy's own answer to this request, instead of the service's. */
  answer?: (method: string, path: string) => ProxyAnswer | undefined;
  /** Seconds added to the Date header of every reply. */
  dateShiftS?: number;
}

export interface Proxy {
  url: string;
  rules: ProxyRules;
  /** "METHOD /path" of every request the proxy answered on its own. */
  answered: string[];
  close(): Promise<void>;
}

/** The Date a reply goes out with: the service's, shifted. */
function shiftedDate(date: string | undefined, shiftS: number): string {
  const ms = date === undefined ? Date.now() : Date.parse(date);
  return new Date(ms + shiftS * 1000).toUTCString();
}

export async function startProxy(target: string): Promise<Proxy> {
  const to = new URL(target);
  const proxy: Proxy = { url: '', rules: {}, answered: [], close: async () => undefined };
  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } },
      (reply) => {
        const headers = { ...reply.headers };
        if (proxy.rules.dateShiftS !== undefined) headers.date = shiftedDate(reply.headers.date, proxy.rules.dateShiftS);
        res.writeHead(reply.statusCode ?? 502, headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
  const server = createServer((req, res) => {
    // The proxy sets the Date of its own answers, as it does of those it forwards.
    res.sendDate = false;
    const answer = proxy.rules.answer?.(req.method ?? 'GET', req.url ?? '/');
    if (answer === undefined) return forward(req, res);
    proxy.answered.push(`${req.method} ${req.url}`);
    req.resume();
    if (answer === 'drop') return void req.socket.destroy();
    res.writeHead(answer.status, { 'content-type': 'application/json', date: shiftedDate(undefined, proxy.rules.dateShiftS ?? 0) });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  proxy.url = `http://127.0.0.1:${address.port}`;
  proxy.close = () =>
    new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
  return proxy;
}
