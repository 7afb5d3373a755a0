/** Helpers for sandbox contract tests: real loopback HTTP via node:http (the refresh grant is a GET with a body, which fetch refuses). */
import { request as httpRequest } from 'node:http';
import { startSandbox, type Sandbox, type SandboxOptions, DEMO_ACCOUNT } from '../../src/sandbox/index.js';

/** 2023-11-14T22:13:20Z: a fixed clock for every test. */
export const T0 = 1_700_000_000;

/** A parsed JSON value that tests index freely; use num/str/arr to narrow. */
export interface J {
  [key: string]: J;
}
export const arr = (j: J | undefined): J[] => j as unknown as J[];
export const num = (j: J | undefined): number => j as unknown as number;
export const str = (j: J | undefined): string => j as unknown as string;
export const keys = (j: J | undefined): string[] => Object.keys(j ?? {});

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: J;
}

export interface ReqOptions {
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  token?: string;
  cookie?: string;
}

export function req(base: string, method: string, path: string, o: ReqOptions = {}): Promise<Res> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...o.headers };
    let payload: string | undefined = o.rawBody;
    if (o.body !== undefined) payload = JSON.stringify(o.body);
    if (payload !== undefined) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.cookie) headers.cookie = o.cookie;
    const r = httpRequest(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: J = {};
        try {
          if (text !== '') json = JSON.parse(text) as J;
        } catch {
          // not JSON: tests look at text
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    r.on('error', reject);
    if (payload !== undefined) r.write(payload);
    r.end();
  });
}

export interface Client {
  sb: Sandbox;
  token: string;
  refresh: string;
  cookie: string;
  /** /v2/ call with the bearer token. */
  v2(method: string, path: string, body?: unknown): Promise<Res>;
  /** Call with the session cookie. */
  s(method: string, path: string, body?: unknown): Promise<Res>;
  raw(method: string, path: string, o?: ReqOptions): Promise<Res>;
}

export async function passwordGrant(base: string, clientId = 'trackctl-test'): Promise<Res> {
  return req(base, 'POST', '/v2/access-token/', {
    body: { grant_type: 'password', scope: 'all', client_id: clientId, username: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password },
  });
}

export async function cookieLogin(base: string): Promise<string> {
  const r = await req(base, 'POST', '/api/login/', { body: { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password } });
  const set = r.headers['set-cookie'];
  const first = Array.isArray(set) ? set[0] : set;
  if (r.status !== 200 || !first) throw new Error(`login failed: ${r.status} ${r.text}`);
  return first.split(';')[0] as string;
}

/** A sandbox on a fixed clock, signed in both ways. */
export async function signedIn(opts: SandboxOptions = {}): Promise<Client> {
  const sb = await startSandbox({ now: () => T0 * 1000, ...opts });
  const t = await passwordGrant(sb.url);
  if (t.status !== 200) throw new Error(`token failed: ${t.text}`);
  const cookie = await cookieLogin(sb.url);
  const token = str(t.json.access_token);
  return {
    sb,
    token,
    refresh: str(t.json.refresh_token),
    cookie,
    v2: (method, path, body) => req(sb.url, method, path, body === undefined ? { token } : { token, body }),
    s: (method, path, body) => req(sb.url, method, path, body === undefined ? { cookie } : { cookie, body }),
    raw: (method, path, o) => req(sb.url, method, path, o),
  };
}

/** The single record of a `{result: {<id>: record}}` reply. */
export function only(body: J): J {
  const values = Object.values(body.result ?? {});
  if (values.length !== 1) throw new Error(`expected one record, got ${values.length}`);
  return values[0] as J;
}

export function assertError(r: Res, status: number, code: string, field?: string): void {
  if (r.status !== status || str(r.json.error) !== code || num(r.json.status) !== status || typeof r.json.message !== 'string' || (field !== undefined && str(r.json.field) !== field)) {
    throw new Error(`expected ${status} ${code}${field ? ` field ${field}` : ''}, got ${r.status} ${r.text}`);
  }
}
