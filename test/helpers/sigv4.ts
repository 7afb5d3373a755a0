/**
 * SigV4 as AWS documents it, written here independently of the signer under test (aws4): the
 * signature a request as a server received it should carry. Checked against AWS's published
 * example in test/unit/lake-s3.test.ts; used there and by the fake STS (test/helpers/fake-aws.ts).
 */
import { createHash, createHmac } from 'node:crypto';

export const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** SigV4 as AWS documents it, for a request as the server received it: the signature it should carry. */
export function expectedSignature(req: { method: string; path: string; headers: Record<string, string>; body: Buffer }, secret: string, signedHeaders: string[], scope: string): string {
  const [rawPath, rawQuery = ''] = req.path.split('?') as [string, string?];
  const enc = (s: string): string => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const query = rawQuery
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const [k, v = ''] = p.split('=') as [string, string?];
      return [enc(decodeURIComponent(k)), enc(decodeURIComponent(v))] as const;
    })
    .sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonical = [
    req.method,
    rawPath,
    query,
    ...signedHeaders.map((h) => `${h}:${(req.headers[h] ?? '').trim().replace(/\s+/g, ' ')}`),
    '',
    signedHeaders.join(';'),
    req.headers['x-amz-content-sha256'] ?? sha256(req.body),
  ].join('\n');
  const date = req.headers['x-amz-date']!;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha256(canonical)].join('\n');
  const [day, region, service] = scope.split('/') as [string, string, string];
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex');
}

export interface SignedBy {
  accessKeyId: string;
  /** The credential scope: day/region/service/aws4_request. */
  scope: string;
}

/** Who signed a request, if its signature is valid for that key's secret; a reason why not otherwise. */
export function checkSignature(req: { method: string; path: string; headers: Record<string, string>; body: Buffer }, secretOf: (accessKeyId: string) => string | undefined): SignedBy | string {
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/([^,]+), SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(req.headers.authorization ?? '');
  if (!m) return `no SigV4 Authorization header: ${req.headers.authorization ?? '(none)'}`;
  const secret = secretOf(m[1]!);
  if (secret === undefined) return `unknown access key ${m[1]}`;
  const signed = m[3]!.split(';');
  if (req.headers['x-amz-security-token'] !== undefined && !signed.includes('x-amz-security-token')) return 'the session token is not signed';
  const want = expectedSignature(req, secret, signed, m[2]!);
  return want === m[4] ? { accessKeyId: m[1]!, scope: m[2]! } : `signature ${m[4]}, expected ${want}`;
}
