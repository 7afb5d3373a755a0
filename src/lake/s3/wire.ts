/**
 * What the S3 client and the credential sources share on the wire: endpoint checks, the text
 * of an XML reply, and one small exchange with a service (STS, SSO, the container and instance
 * metadata endpoints) over undici.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import Pool from 'undici/lib/dispatcher/pool.js';
import { collect, createDispatcher } from '../../api/dispatch.js';
import { isLoopbackHost } from '../../api/http.js';
import { UsageError } from '../../errors.js';
import { isTransientStatus, retry } from '../../retry.js';

/** A configured endpoint: https, or plain http on this machine only. */
export function checkEndpoint(raw: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`invalid ${source} "${raw}": not a URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new UsageError(`invalid ${source} "${raw}": use https (plain http only for this machine)`);
  }
  return url;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (s: string): string => s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => XML_ENTITIES[e]!);
export const escapeXml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&${Object.keys(XML_ENTITIES).find((k) => XML_ENTITIES[k] === c)};`);

/** The text of each <tag> in an XML reply (S3's, STS's). */
export function xmlValues(xml: string, tag: string): string[] {
  return [...xml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => unescapeXml(m[1]!));
}

export interface ServiceReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How hard a credential exchange tries: the run's --retries and --timeout, as plain values. */
export interface RemoteLimits {
  retries: number;
  timeoutMs: number;
}

/**
 * The link-local credential endpoints (container agent, instance metadata) answer within
 * milliseconds or are not there: a wait is never longer than this, whatever --timeout says,
 * so a run off EC2 learns it at once, as the AWS SDKs do.
 */
export const LINK_LOCAL_TIMEOUT_MS = 5_000;

export interface ExchangeOptions {
  method: 'GET' | 'PUT' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Each wait for the reply. */
  timeoutMs: number;
  /** Connecting, when shorter: off EC2 the metadata address answers nothing, and the chain should move on in a second. */
  connectTimeoutMs?: number;
  /** Through HTTPS_PROXY as the S3 client goes; never for the link-local metadata addresses. */
  proxy: boolean;
  /** Tries after the first, for a dropped connection or a transient status (the retry module's rule). */
  retries: number;
}

/** One request, its reply read whole; a reply of any status is returned, a connection that never answers throws. */
export async function exchange(url: URL, opts: ExchangeOptions): Promise<ServiceReply> {
  const poolOptions = { connections: 1, connect: { timeout: opts.connectTimeoutMs ?? opts.timeoutMs }, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs };
  const dispatcher: Dispatcher = opts.proxy ? await createDispatcher(url.origin, poolOptions) : new Pool(url.origin, poolOptions);
  try {
    return await retry(
      () =>
        collect(dispatcher, {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: opts.method,
          headers: opts.headers ?? {},
          ...(opts.body !== undefined ? { body: opts.body } : {}),
        }),
      {
        retries: opts.retries,
        // Any failure to get a reply is worth another try here; the caller words the last one.
        retryError: () => true,
        retryResult: (reply) => (isTransientStatus(reply.status) ? {} : undefined),
      },
    );
  } finally {
    await dispatcher.close();
  }
}
