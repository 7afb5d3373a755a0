/**
 * history --out-dir s3:// as a Kubernetes pod or an ECS task runs it: no keys in the
 * environment, credentials from a service account's web identity token (IRSA, through a fake
 * STS) or from the container credentials endpoint (EKS Pod Identity, ECS), every request to
 * the object store (s3rver, which knows only the keys the fakes hand out) signed with the key
 * handed out. No source at all is exit 2 naming what was tried; a role STS refuses is exit 3;
 * both before the service is asked. No network: every endpoint is on 127.0.0.1.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { S3Client } from '../../src/lake/s3/client.js';
import { fixedCredentials } from '../../src/lake/s3/refresh.js';
import { ROOT, type Harness } from '../helpers/cli.js';
import { startFakeAws, temporaryKeys, type FakeAws } from '../helpers/fake-aws.js';
import { FROM, startLakeHarness } from '../helpers/lake.js';
import { S3_BUCKET, S3_LIMITS, startS3Server, type S3Server } from '../helpers/s3rver.js';

const KEYS = temporaryKeys('E2E', 10);
const WEB_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.fleet-lake-sa.sig';
const CONTAINER_TOKEN = 'eks-pod-identity-token';

describe('history to S3 with the credentials a cluster hands out', () => {
  let h: Harness;
  let s3: S3Server;
  let aws: FakeAws;
  let closedPort: number;
  before(async () => {
    ({ h } = await startLakeHarness());
    s3 = await startS3Server(ROOT, KEYS);
    aws = await startFakeAws({ keys: KEYS, webIdentityTokens: [WEB_TOKEN], containerToken: CONTAINER_TOKEN, denied: ['arn:aws:iam::111122223333:role/denied'] });
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closedPort = (server.address() as { port: number }).port;
    await new Promise<void>((r) => server.close(() => r()));
  });
  after(async () => {
    await aws?.close();
    await s3?.close();
    await h?.close();
  });

  /** No keys, an empty home, this S3 endpoint, and a metadata service that is not there. */
  const pod = (env: Record<string, string>): Record<string, string> => ({ HOME: h.dir, AWS_REGION: 'us-east-1', AWS_ENDPOINT_URL_S3: s3.endpoint, AWS_EC2_METADATA_SERVICE_ENDPOINT: `http://127.0.0.1:${closedPort}`, ...env });

  async function objects(prefix: string): Promise<string[]> {
    const client = new S3Client({ credentials: fixedCredentials('the test', { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }), region: 'us-east-1', endpoint: new URL(s3.endpoint) }, S3_BUCKET, S3_LIMITS);
    try {
      return await client.list(prefix);
    } finally {
      await client.close();
    }
  }

  async function runAs(prefix: string, env: Record<string, string>): Promise<{ code: number; stderr: string; keys: string[] }> {
    const before = (await s3.keysUsed()).length;
    const r = await h.run(['history', '--all-units', '--from', FROM, '--out-dir', `s3://${S3_BUCKET}/${prefix}`, '--layout', 'hive', '-o', 'ndjson'], { env: pod(env) });
    return { code: r.code, stderr: r.stderr, keys: [...new Set((await s3.keysUsed()).slice(before))] };
  }

  test('IRSA: a service account\'s web identity token, traded at STS (AWS_ENDPOINT_URL_STS), signs every upload', async () => {
    const token = h.file('sa-token', WEB_TOKEN);
    const n = aws.issued.length;
    const r = await runAs('irsa', { AWS_WEB_IDENTITY_TOKEN_FILE: token, AWS_ROLE_ARN: 'arn:aws:iam::111122223333:role/fleet-lake', AWS_ROLE_SESSION_NAME: 'shard-0', AWS_ENDPOINT_URL_STS: aws.url });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(aws.issued.slice(n).map((i) => [i.by, i.detail.sessionName]), [['AssumeRoleWithWebIdentity', 'shard-0']]);
    assert.deepEqual(r.keys, [aws.issued[n]!.accessKeyId], 'every S3 request signed with the key STS handed out');
    assert.ok((await objects('irsa/')).length > 0, 'parts written');
  });

  test('EKS Pod Identity: the container endpoint (full URI) with the token file', async () => {
    const tokenFile = join(h.dir, 'pod-identity-token');
    writeFileSync(tokenFile, CONTAINER_TOKEN);
    const n = aws.issued.length;
    const r = await runAs('pod-identity', { AWS_CONTAINER_CREDENTIALS_FULL_URI: `${aws.url}/container/v1/credentials`, AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: tokenFile });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(aws.issued.slice(n).map((i) => i.by), ['container']);
    assert.deepEqual(r.keys, [aws.issued[n]!.accessKeyId]);
    assert.ok((await objects('pod-identity/')).length > 0, 'parts written');
  });

  test('no source: exit 2 naming each source tried; a role STS refuses: exit 3; the service is not asked', async () => {
    h.sandbox.clearRequests();
    const none = await runAs('none', {});
    assert.equal(none.code, 2, none.stderr);
    for (const part of ['no AWS credentials for s3://', 'the environment', '"default" profile', 'web identity (AWS_WEB_IDENTITY_TOKEN_FILE)', 'container credentials', `EC2 instance metadata at 127.0.0.1:${closedPort}`]) {
      assert.ok(none.stderr.includes(part), `"${part}" in: ${none.stderr}`);
    }
    const token = h.file('sa-token-denied', WEB_TOKEN);
    const denied = await runAs('denied', { AWS_WEB_IDENTITY_TOKEN_FILE: token, AWS_ROLE_ARN: 'arn:aws:iam::111122223333:role/denied', AWS_ENDPOINT_URL_STS: aws.url });
    assert.equal(denied.code, 3, denied.stderr);
    assert.match(denied.stderr, /AssumeRoleWithWebIdentity .*AccessDenied/);
    assert.deepEqual(h.sent(), []);
    assert.deepEqual(await objects('none/'), []);
    assert.deepEqual(aws.problems, []);
  });
});
