/**
 * A real S3 API server on 127.0.0.1 for the lake tests: s3rver (a devDependency), run in
 * a child process with its own directory and bucket, signatures checked against its
 * credentials. On Node 17 and later it needs the legacy OpenSSL provider (its listing
 * tokens use a cipher that OpenSSL 3 hides), so the child gets
 * NODE_OPTIONS=--openssl-legacy-provider. A server that cannot start fails the test.
 * Beside its own key (S3RVER) it can know temporary keys, each with the session token a request
 * signed with it must carry (s3rver itself ignores tokens), and it tells which keys signed
 * the requests it got: the credential tests check that the key the chain found is the one used.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const S3_BUCKET = 'lake';
/** The S3 client's limits at trackctl's defaults (--retries 3, --timeout 30s). */
export const S3_LIMITS = { retries: 3, timeoutMs: 30_000 };
const KEY = 'S3RVER';

export interface TemporaryKey {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
}

export interface S3Server {
  endpoint: string;
  /** The access key ids that signed the requests so far, in order. */
  keysUsed(): Promise<string[]>;
  /** The AWS environment that points trackctl (and pyarrow) at this server. */
  env: Record<string, string>;
  close(): Promise<void>;
}

const CHILD = String.raw`
const S3rver = require('s3rver');
const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account');
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: process.argv[1], configureBuckets: [{ name: process.argv[2] }] });
const keys = new Map(JSON.parse(process.argv[3]).map((k) => [k.accessKeyId, k]));
for (const k of keys.values()) DUMMY_ACCOUNT.createKeyPair(k.accessKeyId, k.secretAccessKey);
const used = [];
// First of all middleware (Koa composes them when it listens): record the key, check its token.
server.middleware.unshift(async (ctx, next) => {
  if (ctx.path === '/__keys-used') {
    ctx.body = used;
    return;
  }
  const m = /Credential=([^/]+)\//.exec(ctx.get('authorization'));
  if (m) {
    used.push(m[1]);
    const k = keys.get(m[1]);
    if (k && ctx.get('x-amz-security-token') !== k.sessionToken) {
      ctx.status = 403;
      ctx.type = 'application/xml';
      ctx.body = '<Error><Code>InvalidToken</Code><Message>The provided token is malformed or otherwise invalid.</Message></Error>';
      return;
    }
  }
  await next();
});
server.run().then((a) => process.stdout.write(JSON.stringify({ port: a.port }) + '\n'), (err) => { console.error(err); process.exit(1); });
`;

export async function startS3Server(root: string, temporaryKeys: readonly TemporaryKey[] = [], bucket = S3_BUCKET): Promise<S3Server> {
  const dir = mkdtempSync(join(tmpdir(), 'trackctl-s3rver-'));
  const child: ChildProcess = spawn(process.execPath, ['-e', CHILD, dir, bucket, JSON.stringify(temporaryKeys)], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '--openssl-legacy-provider' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`s3rver did not start in 60 s: ${err}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /"port":(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited (${code}) before it listened: ${err}`));
    });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: { AWS_ACCESS_KEY_ID: KEY, AWS_SECRET_ACCESS_KEY: KEY, AWS_REGION: 'us-east-1', AWS_ENDPOINT_URL_S3: endpoint },
    async keysUsed() {
      return (await fetch(`${endpoint}/__keys-used`)).json() as Promise<string[]>;
    },
    async close() {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
