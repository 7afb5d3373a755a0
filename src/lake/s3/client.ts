/**
 * A small S3 client for the lake: the calls it needs (list, put, multipart upload, delete),
 * signed with AWS Signature Version 4 by `aws4` and sent over undici, the HTTP client
 * trackctl already has. Chosen over the AWS SDK by measurement (docs/performance.md):
 * 9 KB of bundle against 590 KB, and a start-up cost of milliseconds, not half a second; the
 * SDK also warns on Node 20. Loaded only for s3:// (dynamic import).
 *
 * Addressing: an endpoint (AWS_ENDPOINT_URL…, S3-compatible stores) is path-style,
 * `endpoint/bucket/key`; AWS itself is virtual-hosted, `bucket.s3.region.amazonaws.com/key`.
 * Requests that fail for the moment (429, 5xx, a dropped connection, a timeout) are tried again
 * by the retry module's rule, as often and with the per-wait timeout that --retries and
 * --timeout (TRACKCTL_RETRIES, TRACKCTL_TIMEOUT, the profile) give the service's client.
 */
import aws4 from 'aws4';
import type { Dispatcher } from 'undici';
import { collect, createDispatcher, describeFailure } from '../../api/dispatch.js';
import { ApiError, AuthError, NetworkError, NotFoundError, TrackctlError } from '../../errors.js';
import { retry, type Timer } from '../../retry.js';
import type { S3Config } from './config.js';
import { escapeXml, xmlValues } from './wire.js';

/** How hard the client tries: --retries and --timeout, as plain values. */
export interface S3Limits {
  /** Tries after the first of a request that failed for the moment. */
  retries: number;
  /** Each wait: to connect, for the reply's headers, between the body's bytes (an upload's bytes going out count). */
  timeoutMs: number;
  timer?: Timer;
}

export interface S3Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** S3's URI encoding: every byte but A-Z a-z 0-9 - _ . ~ percent-encoded; '/' kept in keys. */
export function uriEncode(text: string, keepSlash = false): string {
  const encoded = encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return keepSlash ? encoded.replace(/%2F/g, '/') : encoded;
}

export class S3Client {
  private dispatcher: Promise<Dispatcher> | undefined;
  private readonly origin: string;
  private readonly base: string;
  private readonly host: string;

  constructor(
    private readonly config: S3Config,
    readonly bucket: string,
    private readonly limits: S3Limits,
  ) {
    const endpoint = config.endpoint;
    if (endpoint !== undefined) {
      this.origin = endpoint.origin;
      this.host = endpoint.host;
      this.base = `${endpoint.pathname.replace(/\/+$/, '')}/${uriEncode(bucket)}`;
    } else if (bucket.includes('.')) {
      // A dotted bucket name does not match the wildcard certificate of the virtual host.
      this.host = `s3.${config.region}.amazonaws.com`;
      this.origin = `https://${this.host}`;
      this.base = `/${uriEncode(bucket)}`;
    } else {
      this.host = `${bucket}.s3.${config.region}.amazonaws.com`;
      this.origin = `https://${this.host}`;
      this.base = '';
    }
  }

  /** One signed request; `key` undefined addresses the bucket. Returns 2xx replies, throws typed errors for the rest. */
  async send(method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'HEAD', key: string | undefined, query: Record<string, string> = {}, body?: Buffer, contentType?: string): Promise<S3Reply> {
    const qs = Object.keys(query)
      .sort()
      .map((k) => (query[k] === '' && (k === 'uploads' || k === 'delete') ? k : `${uriEncode(k)}=${uriEncode(query[k]!)}`))
      .join('&');
    const path = `${this.base}/${key === undefined ? '' : uriEncode(key, true)}${qs ? `?${qs}` : ''}`;
    const { retries, timeoutMs, timer } = this.limits;
    const dispatcher = await (this.dispatcher ??= createDispatcher(this.origin, { connections: 8, connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs }));
    const attempt = async (n: number): Promise<S3Reply> => {
      const headers: Record<string, string> = {};
      if (body !== undefined) headers['Content-Type'] = contentType ?? 'application/octet-stream';
      // Asked on every try: temporary credentials are fetched again when they are due.
      const credentials = await this.config.credentials.get();
      const signed = aws4.sign({ host: this.host, path, method, service: 's3', region: this.config.region, headers, ...(body !== undefined ? { body } : {}) }, credentials);
      let reply;
      try {
        reply = await collect(dispatcher, {
          origin: this.origin,
          path: signed.path ?? path,
          method,
          headers: signed.headers as Record<string, string>,
          ...(body !== undefined ? { body } : {}),
        });
      } catch (err) {
        throw new NetworkError(`S3 ${method} ${this.describe(key)}: ${describeFailure(err)} after ${n + 1} attempt${n === 0 ? '' : 's'}`, {
          cause: err,
          hint: 'Check the endpoint and your network; --timeout and --retries adjust the limits.',
        });
      }
      if (reply.status >= 200 && reply.status < 300) return { status: reply.status, headers: reply.headers, text: reply.body };
      throw this.failure(method, key, reply.status, reply.body);
    };
    return retry(attempt, { retries, ...(timer ? { timer } : {}) });
  }

  private describe(key: string | undefined): string {
    return `s3://${this.bucket}/${key ?? ''}`;
  }

  private failure(method: string, key: string | undefined, status: number, text: string): TrackctlError {
    const code = xmlValues(text, 'Code')[0] ?? `HTTP ${status}`;
    const message = xmlValues(text, 'Message')[0];
    const what = `S3 ${method} ${this.describe(key)}: ${code}${message ? ` (${message})` : ''}`;
    if (status === 403 || code === 'InvalidAccessKeyId' || code === 'SignatureDoesNotMatch') {
      return new AuthError(what, { hint: `The credentials came from ${this.config.credentials.source}: check them and the bucket policy.` });
    }
    if (code === 'NoSuchBucket') return new NotFoundError(what);
    return new ApiError(what, status);
  }

  /** Every key under `prefix` (ListObjectsV2, page by page). */
  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const query: Record<string, string> = { 'list-type': '2', prefix };
      if (token !== undefined) query['continuation-token'] = token;
      const reply = await this.send('GET', undefined, query);
      keys.push(...xmlValues(reply.text, 'Key'));
      token = xmlValues(reply.text, 'IsTruncated')[0] === 'true' ? xmlValues(reply.text, 'NextContinuationToken')[0] : undefined;
    } while (token !== undefined);
    return keys;
  }

  /** Proves the bucket is there and these credentials may list it: one small request. */
  async probe(prefix: string): Promise<void> {
    await this.send('GET', undefined, { 'list-type': '2', prefix, 'max-keys': '1' });
  }

  async put(key: string, body: Buffer, contentType?: string): Promise<void> {
    await this.send('PUT', key, {}, body, contentType);
  }

  async remove(key: string): Promise<void> {
    await this.send('DELETE', key);
  }

  async createUpload(key: string, contentType?: string): Promise<string> {
    // An empty body, so the object's Content-Type is set here, where S3 takes it.
    const reply = await this.send('POST', key, { uploads: '' }, Buffer.alloc(0), contentType);
    const id = xmlValues(reply.text, 'UploadId')[0];
    if (id === undefined) throw new ApiError(`S3 CreateMultipartUpload ${this.describe(key)}: no UploadId in the reply`, reply.status);
    return id;
  }

  async uploadPart(key: string, uploadId: string, partNumber: number, body: Buffer): Promise<string> {
    const reply = await this.send('PUT', key, { partNumber: String(partNumber), uploadId }, body);
    const etag = reply.headers.etag;
    if (typeof etag !== 'string') throw new ApiError(`S3 UploadPart ${this.describe(key)}: no ETag in the reply`, reply.status);
    return etag;
  }

  /** Makes the object visible, whole; until this succeeds, nothing is at `key`. */
  async completeUpload(key: string, uploadId: string, etags: readonly string[]): Promise<void> {
    const parts = etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${escapeXml(etag)}</ETag></Part>`).join('');
    const reply = await this.send('POST', key, { uploadId }, Buffer.from(`<CompleteMultipartUpload>${parts}</CompleteMultipartUpload>`), 'application/xml');
    // S3 may answer 200 and put the failure in the body.
    if (xmlValues(reply.text, 'Code').length > 0 && !reply.text.includes('CompleteMultipartUploadResult')) throw this.failure('POST', key, 500, reply.text);
  }

  async abortUpload(key: string, uploadId: string): Promise<void> {
    await this.send('DELETE', key, { uploadId });
  }

  async close(): Promise<void> {
    const d = this.dispatcher;
    this.dispatcher = undefined;
    if (d) await (await d).close();
  }
}
