/** HTTP plumbing shared by the router and handlers: replies, body parsing, streaming with backpressure. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, SandboxError } from './errors.js';
import type { Db } from './service/db.js';
import type { Principal } from './types.js';

export interface TextReply {
  kind: 'text';
  status: number;
  text: string | Buffer;
  contentType: string;
  headers: Record<string, string | string[]>;
}

/** A reply produced chunk by chunk; `write` resolves once the chunk may be followed by another (backpressure). */
export interface StreamReply {
  kind: 'stream';
  status: number;
  headers: Record<string, string>;
  produce(write: (chunk: string) => Promise<void>): Promise<void>;
}

export type Reply = TextReply | StreamReply;

export interface RequestCtx {
  db: Db;
  method: string;
  path: string;
  params: Record<string, string>;
  /** Path segments matched by a trailing `*rest`. */
  rest: string[];
  body: unknown;
  principal: Principal | undefined;
}

export type Handler = (ctx: RequestCtx) => Reply | Promise<Reply>;

export function json(status: number, body: unknown, headers: Record<string, string | string[]> = {}): TextReply {
  return { kind: 'text', status, text: JSON.stringify(body), contentType: 'application/json; charset=utf-8', headers };
}

/** A JSON body rendered elsewhere (e.g. a cached list). */
export function rawJson(status: number, text: string | Buffer): TextReply {
  return { kind: 'text', status, text, contentType: 'application/json; charset=utf-8', headers: {} };
}

export function errorReply(err: SandboxError): TextReply {
  return json(err.status, err.toBody(), err.headers);
}

export function ok(success: string, extra: Record<string, unknown> = {}): TextReply {
  return json(200, { success, ...extra });
}

const MAX_BODY = 16 * 1024 * 1024;

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(badRequest(`request body is larger than ${MAX_BODY} bytes`));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** JSON (or, for OAuth clients, form-encoded) body; undefined when empty. */
export function parseBody(raw: string, contentType: string | undefined): unknown {
  if (raw.trim() === '') return undefined;
  // curl -d sends JSON labelled as a form; only a body that does not look like JSON is read as a form
  if (contentType?.startsWith('application/x-www-form-urlencoded') && !/^\s*[{[]/.test(raw)) {
    return Object.fromEntries(new URLSearchParams(raw));
  }
  try {
    return JSON.parse(raw) as unknown;
  } catch (err) {
    throw badRequest(`malformed JSON body: ${(err as Error).message}`);
  }
}

export function waitDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      res.off('drain', onDrain);
      res.off('close', onClose);
    };
    const onDrain = (): void => {
      cleanup();
      resolve();
    };
    const onClose = (): void => {
      cleanup();
      reject(new Error('client closed the connection'));
    };
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

/** Joins small strings into ~64 KB chunks before handing them to `write`. */
export class ChunkBuffer {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly write: (chunk: string) => Promise<void>, private readonly limit = 64 * 1024) {}

  push(s: string): Promise<void> | undefined {
    this.parts.push(s);
    this.size += s.length;
    return this.size >= this.limit ? this.flush() : undefined;
  }

  flush(): Promise<void> {
    const chunk = this.parts.join('');
    this.parts = [];
    this.size = 0;
    return chunk === '' ? Promise.resolve() : this.write(chunk);
  }
}

/** What a route accepts: `v2` a bearer token or the session cookie, `session` the cookie only, `none` anyone. */
export type AuthRule = 'none' | 'v2' | 'session';

export interface Route {
  method: string;
  /** Segments; `:name` matches one segment, a final `*rest` matches the remainder. */
  pattern: string;
  auth: AuthRule;
  handler: Handler;
}

/** One request as the sandbox logged it (GET /_sandbox/requests). */
export interface RequestLogEntry {
  time: number;
  method: string;
  path: string;
  status: number;
  auth: { bearer: boolean; cookie: boolean; sub?: string };
  body?: unknown;
  /** The fault injected into this request, if any (drop entries have status 0). */
  fault?: string;
}
