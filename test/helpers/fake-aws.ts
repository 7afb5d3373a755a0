/**
 * The AWS endpoints that hand out credentials, faked on one loopback server for the credential
 * tests (no network): STS (AssumeRole, whose SigV4 signature is checked against the source
 * key's secret, and AssumeRoleWithWebIdentity, unsigned, whose token is checked), a container
 * credentials endpoint (its Authorization token checked), the EC2 instance metadata service
 * (IMDSv2: a session token PUT first, then required) and the SSO portal (its bearer token
 * checked). Each hands out the next key of a pool the object store (s3rver) also knows, and
 * records who got which. Unknown routes are answered 404 and recorded as problems.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { TemporaryKey } from './s3rver.js';
import { checkSignature } from './sigv4.js';

export interface FakeAwsOptions {
  /** The keys handed out, in order. */
  keys: readonly TemporaryKey[];
  /** Long-lived keys STS takes as the source of an AssumeRole (the keys it handed out count too). */
  sourceKeys?: Readonly<Record<string, string>>;
  /** The tokens AssumeRoleWithWebIdentity accepts. */
  webIdentityTokens?: readonly string[];
  /** Roles STS refuses (AccessDenied). */
  denied?: readonly string[];
  containerToken?: string;
  imdsRole?: string;
  ssoToken?: string;
  /** The expiry of what is handed out; default an hour after now. */
  expiration?: () => Date;
  /** The first this many requests are answered 503, as a throttled or restarting endpoint answers. */
  unavailable?: number;
  /** Requests are taken and never answered (a hung endpoint). */
  silent?: boolean;
}

export interface Issued {
  by: string;
  accessKeyId: string;
  /** What the request carried that matters: the role, the signing key, the session name. */
  detail: Record<string, string>;
}

export interface FakeAws {
  url: string;
  issued: Issued[];
  /** Requests refused for a reason the test did not plan (a bad signature, an unknown route). */
  problems: string[];
  /** Every request, "METHOD path". */
  seen: string[];
  close(): Promise<void>;
}

/** A pool of temporary keys, distinct per test file (`prefix`). */
export function temporaryKeys(prefix: string, n: number): TemporaryKey[] {
  return Array.from({ length: n }, (_, i) => ({ accessKeyId: `ASIA${prefix}${String(i).padStart(4, '0')}`, secretAccessKey: `secret/${prefix}+${i}`, sessionToken: `token/${prefix}+${i}==` }));
}

const IMDS_SESSION = 'imds-session-token';

export async function startFakeAws(opts: FakeAwsOptions): Promise<FakeAws> {
  const issued: Issued[] = [];
  const problems: string[] = [];
  const seen: string[] = [];
  const expiration = opts.expiration ?? (() => new Date(Date.now() + 3600_000));
  const next = (by: string, detail: Record<string, string>): TemporaryKey => {
    const key = opts.keys[issued.length];
    if (key === undefined) throw new Error('the fake AWS ran out of keys');
    issued.push({ by, accessKeyId: key.accessKeyId, detail });
    return key;
  };
  const secretOf = (id: string): string | undefined => opts.sourceKeys?.[id] ?? (issued.some((i) => i.accessKeyId === id) ? opts.keys.find((k) => k.accessKeyId === id)?.secretAccessKey : undefined);

  const stsError = (res: ServerResponse, status: number, code: string, message: string): void => {
    res.writeHead(status, { 'content-type': 'text/xml' });
    res.end(`<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>r</RequestId></ErrorResponse>`);
  };
  const stsCredentials = (res: ServerResponse, action: string, key: TemporaryKey): void => {
    res.writeHead(200, { 'content-type': 'text/xml' });
    res.end(
      `<${action}Response xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><${action}Result><Credentials>` +
        `<AccessKeyId>${key.accessKeyId}</AccessKeyId><SecretAccessKey>${key.secretAccessKey}</SecretAccessKey>` +
        `<SessionToken>${key.sessionToken}</SessionToken><Expiration>${expiration().toISOString()}</Expiration>` +
        `</Credentials></${action}Result></${action}Response>`,
    );
  };
  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const metadataCredentials = (key: TemporaryKey): Record<string, string> => ({ Code: 'Success', Type: 'AWS-HMAC', AccessKeyId: key.accessKeyId, SecretAccessKey: key.secretAccessKey, Token: key.sessionToken, Expiration: expiration().toISOString() });

  function handle(req: IncomingMessage, body: Buffer, res: ServerResponse): void {
    const url = new URL(req.url!, 'http://fake');
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    seen.push(`${req.method} ${url.pathname}`);
    if (opts.silent) return;
    if (seen.length <= (opts.unavailable ?? 0)) {
      res.writeHead(503, { 'content-type': 'text/xml' });
      return void res.end('<ErrorResponse><Error><Code>ServiceUnavailable</Code><Message>try again</Message></Error></ErrorResponse>');
    }
    if (req.method === 'POST' && url.pathname === '/') {
      const form = new URLSearchParams(body.toString('utf8'));
      const action = form.get('Action') ?? '';
      const roleArn = form.get('RoleArn') ?? '';
      const sessionName = form.get('RoleSessionName') ?? '';
      if (action === 'AssumeRoleWithWebIdentity') {
        if (headers.authorization !== undefined) problems.push('AssumeRoleWithWebIdentity was signed');
        if (!opts.webIdentityTokens?.includes(form.get('WebIdentityToken') ?? '')) return stsError(res, 400, 'InvalidIdentityToken', 'Couldn\'t retrieve verification key from your identity provider');
        if (opts.denied?.includes(roleArn)) return stsError(res, 403, 'AccessDenied', 'Not authorized to perform sts:AssumeRoleWithWebIdentity');
        return stsCredentials(res, action, next(action, { roleArn, sessionName, token: form.get('WebIdentityToken')! }));
      }
      if (action === 'AssumeRole') {
        const signer = checkSignature({ method: 'POST', path: req.url!, headers, body }, secretOf);
        if (typeof signer === 'string') {
          problems.push(`AssumeRole: ${signer}`);
          return stsError(res, 403, 'SignatureDoesNotMatch', signer);
        }
        const token = opts.keys.find((k) => k.accessKeyId === signer.accessKeyId)?.sessionToken;
        if (token !== undefined && headers['x-amz-security-token'] !== token) return stsError(res, 403, 'InvalidClientTokenId', 'The security token included in the request is invalid');
        if (opts.denied?.includes(roleArn)) return stsError(res, 403, 'AccessDenied', `User is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`);
        return stsCredentials(res, action, next(action, { roleArn, sessionName, signedBy: signer.accessKeyId, scope: signer.scope, externalId: form.get('ExternalId') ?? '', duration: form.get('DurationSeconds') ?? '' }));
      }
      problems.push(`STS action ${action}`);
      return stsError(res, 400, 'InvalidAction', action);
    }
    if (req.method === 'GET' && (url.pathname.startsWith('/container/') || url.pathname.startsWith('/v2/credentials/'))) {
      if (opts.containerToken !== undefined && headers.authorization !== opts.containerToken) return json(res, 401, { Code: 'Unauthorized', Message: 'bad token' });
      return json(res, 200, metadataCredentials(next('container', { path: url.pathname })));
    }
    if (req.method === 'PUT' && url.pathname === '/latest/api/token') {
      if (!/^\d+$/.test(headers['x-aws-ec2-metadata-token-ttl-seconds'] ?? '')) {
        res.writeHead(400);
        return void res.end();
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end(IMDS_SESSION);
    }
    if (req.method === 'GET' && url.pathname.startsWith('/latest/meta-data/iam/security-credentials/')) {
      if (headers['x-aws-ec2-metadata-token'] !== IMDS_SESSION) {
        res.writeHead(401);
        return void res.end();
      }
      const role = url.pathname.slice('/latest/meta-data/iam/security-credentials/'.length);
      if (opts.imdsRole === undefined || (role !== '' && role !== opts.imdsRole)) {
        res.writeHead(404);
        return void res.end();
      }
      if (role === '') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end(`${opts.imdsRole}\n`);
      }
      return json(res, 200, metadataCredentials(next('imds', { role })));
    }
    if (req.method === 'GET' && url.pathname === '/federation/credentials') {
      if (opts.ssoToken === undefined || headers['x-amz-sso_bearer_token'] !== opts.ssoToken) return json(res, 401, { message: 'Session token not found or invalid' });
      const key = next('sso', { accountId: url.searchParams.get('account_id') ?? '', roleName: url.searchParams.get('role_name') ?? '' });
      return json(res, 200, { roleCredentials: { accessKeyId: key.accessKeyId, secretAccessKey: key.secretAccessKey, sessionToken: key.sessionToken, expiration: expiration().getTime() } });
    }
    problems.push(`unknown route ${req.method} ${req.url}`);
    res.writeHead(404);
    res.end('unknown route');
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    issued,
    problems,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
