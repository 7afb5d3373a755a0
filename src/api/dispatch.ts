/**
 * undici, reached directly rather than through its index (which also loads fetch,
 * WebSocket, caches, mocks and every request API: milliseconds of each command's
 * start-up): the dispatcher for the service's origin, and an exchange whose reply
 * is read whole through the dispatcher's handler interface. The request API and its
 * body stream are loaded by http.ts for streamed replies only.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher, Pool as PoolType } from 'undici';
import Pool from 'undici/lib/dispatcher/pool.js';

/** A reply as the retry loop sees it; `discard` lets an unread body go before a retry. */
export interface Reply<B> {
  status: number;
  headers: IncomingHttpHeaders;
  body: B;
  discard?: () => void;
}

/**
 * The dispatcher for the one origin trackctl talks to: a keep-alive pool of connections
 * (import and apply send several requests at once). With HTTPS_PROXY or HTTP_PROXY set it is
 * undici's proxy-aware agent, which also honours NO_PROXY; only then is that loaded, with its
 * tunnelling and SOCKS code: ~5 ms of every command's start-up.
 */
export async function createDispatcher(origin: string, opts: PoolType.Options): Promise<Dispatcher> {
  const env = process.env;
  if ((env.http_proxy ?? env.HTTP_PROXY) || (env.https_proxy ?? env.HTTPS_PROXY)) {
    const [{ default: EnvHttpProxyAgent }, { default: Dispatcher }, { default: connect }] = await Promise.all([
      import('undici/lib/dispatcher/env-http-proxy-agent.js'),
      import('undici/lib/dispatcher/dispatcher.js'),
      import('undici/lib/api/api-connect.js'),
    ]);
    // What undici's index does for the method the proxy agent opens its tunnels with.
    Object.assign(Dispatcher.prototype, { connect });
    return new EnvHttpProxyAgent(opts);
  }
  return new Pool(origin, opts);
}

/** A reply that broke off after its headers (a connection dropped mid-body). */
export class CutShort extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/**
 * One exchange through the dispatcher, its whole body read as text: undici's handler
 * interface directly, without the request API's body stream, for the small JSON
 * replies of every command.
 */
export function collect(dispatcher: Dispatcher, opts: Dispatcher.DispatchOptions): Promise<Reply<string>> {
  return new Promise((resolve, reject) => {
    let reply: Reply<string> | undefined;
    const chunks: Buffer[] = [];
    dispatcher.dispatch(opts, {
      onRequestStart: () => undefined,
      onResponseStart: (_controller, status, headers) => {
        // Informational (1xx) replies come before the final one.
        if (status >= 200) reply = { status, headers, body: '' };
      },
      onResponseData: (_controller, chunk) => {
        chunks.push(chunk);
      },
      onResponseEnd: () => {
        if (reply) resolve({ ...reply, body: Buffer.concat(chunks).toString('utf8') });
        else reject(new Error('the reply ended before its headers'));
      },
      onResponseError: (_controller, err) => reject(reply ? new CutShort(err) : err),
    });
  });
}

/** The code of a failed exchange (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT…), on the error or its cause. */
export function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.cause?.code === 'string') return e.cause.code;
  return undefined;
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** What went wrong with an exchange, in words: "timed out", "connection refused", "host not found", "failed (…)". */
export function describeFailure(err: unknown): string {
  const code = errorCode(err);
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'timed out';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  return `failed (${code ?? messageOf(err)})`;
}
