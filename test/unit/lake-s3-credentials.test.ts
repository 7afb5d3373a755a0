/**
 * The AWS credential chain for s3:// (src/lake/s3/credentials.ts), source by source, against
 * fake STS, container, instance metadata and SSO endpoints on loopback (test/helpers/fake-aws.ts)
 * and a real S3 API server (s3rver) that knows only the keys those endpoints hand out, checks
 * each request's signature with that key's secret and its session token, and says which key
 * signed what: every source's credentials are used for a real upload, and the key used is the
 * one that source handed out. No network.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '../../src/lake/s3/client.js';
import { loadS3Config, type LoadOptions, type S3Config } from '../../src/lake/s3/config.js';
import { containerUrl, imdsEndpoint } from '../../src/lake/s3/metadata.js';
import { stsEndpoint } from '../../src/lake/s3/sts.js';
import { AuthError, NetworkError, UsageError } from '../../src/errors.js';
import { ROOT } from '../helpers/cli.js';
import { startFakeAws, temporaryKeys, type FakeAws } from '../helpers/fake-aws.js';
import { S3_BUCKET, S3_LIMITS, startS3Server, type S3Server } from '../helpers/s3rver.js';

const KEYS = temporaryKeys('CRED', 40);
const PROCESS_KEY = temporaryKeys('PROC', 1)[0]!;
const BASE = { id: 'AKIABASEKEY0001', secret: 'base/secret+0' };
const WEB_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.irsa-service-account-token.sig';
const CONTAINER_TOKEN = 'pod-identity-token-1';
const SSO_TOKEN = 'sso-access-token-1';
const ROLE = 'arn:aws:iam::111122223333:role/fleet-lake';

/**
 * A loopback port that refuses connections, and goes on refusing: one below the ephemeral range
 * that nothing listens on now (a port freed after listening on 0 was taken by another test's
 * server under load, which answered 404).
 */
async function closedPort(): Promise<number> {
  for (const port of [1, 9, 13, 17, 19, 37, 79]) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
    });
    if (refused) return port;
  }
  throw new Error('no refusing loopback port below 80');
}

describe('S3 credentials as the AWS tools find them', () => {
  let s3: S3Server;
  let aws: FakeAws;
  let dir: string;
  let clock = Date.now();
  let homes = 0;
  let uploads = 0;

  before(async () => {
    s3 = await startS3Server(ROOT, [...KEYS, PROCESS_KEY]);
    aws = await startFakeAws({
      keys: KEYS,
      sourceKeys: { [BASE.id]: BASE.secret },
      webIdentityTokens: [WEB_TOKEN],
      denied: ['arn:aws:iam::111122223333:role/denied'],
      containerToken: CONTAINER_TOKEN,
      imdsRole: 'fleet-instance-role',
      ssoToken: SSO_TOKEN,
      expiration: () => new Date(clock + 3600_000),
    });
    dir = mkdtempSync(join(tmpdir(), 'trackctl-aws-creds-'));
  });
  after(async () => {
    await aws?.close();
    await s3?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A home with these shared files (and SSO cache entries). */
  function home(files: { credentials?: string; config?: string; sso?: Record<string, unknown> } = {}): string {
    const h = join(dir, `home-${homes++}`);
    mkdirSync(join(h, '.aws', 'sso', 'cache'), { recursive: true });
    if (files.credentials !== undefined) writeFileSync(join(h, '.aws', 'credentials'), files.credentials);
    if (files.config !== undefined) writeFileSync(join(h, '.aws', 'config'), files.config);
    for (const [id, token] of Object.entries(files.sso ?? {})) writeFileSync(join(h, '.aws', 'sso', 'cache', `${createHash('sha1').update(id).digest('hex')}.json`), JSON.stringify(token));
    return h;
  }
  /** The S3 endpoint, and no way to the real metadata service. */
  const base = (): Record<string, string> => ({ AWS_ENDPOINT_URL_S3: s3.endpoint, AWS_EC2_METADATA_DISABLED: 'true' });
  const load = (env: Record<string, string>, opts: LoadOptions): Promise<S3Config> => loadS3Config({ ...base(), ...env }, { now: () => clock, ...opts });
  const issuedSince = (n: number): string[] => aws.issued.slice(n).map((i) => `${i.by} ${i.accessKeyId}`);

  /** One upload through the S3 client with these settings: the keys that signed it. */
  async function upload(config: S3Config): Promise<string[]> {
    const before = (await s3.keysUsed()).length;
    const client = new S3Client(config, S3_BUCKET, S3_LIMITS);
    try {
      await client.put(`creds/${uploads++}.txt`, Buffer.from('x'));
    } finally {
      await client.close();
    }
    return [...new Set((await s3.keysUsed()).slice(before))];
  }

  test('the object store takes only the keys it knows, with their session token', async () => {
    const stranger = { accessKeyId: 'ASIANOBODY', secretAccessKey: 'x', sessionToken: 'y' };
    const wrongToken = { ...KEYS[39]!, sessionToken: 'not its token' };
    for (const credentials of [stranger, wrongToken]) {
      const config: S3Config = { credentials: { source: 'a test', get: () => Promise.resolve(credentials) }, region: 'us-east-1', endpoint: new URL(s3.endpoint) };
      await assert.rejects(upload(config), AuthError);
    }
  });

  test('role_arn with source_profile: AssumeRole signed with the source keys, roles chained, and S3 gets the last role\'s key', async () => {
    const h = home({
      credentials: `[base]\naws_access_key_id = ${BASE.id}\naws_secret_access_key = ${BASE.secret}\n`,
      config: [
        '[profile first]',
        'role_arn = arn:aws:iam::111122223333:role/first',
        'source_profile = base',
        'role_session_name = first-session',
        '[profile second]',
        'role_arn = arn:aws:iam::111122223333:role/second',
        'source_profile = first',
        'external_id = ext-1',
        'duration_seconds = 900',
        'region = eu-west-1',
        '[profile self]',
        'role_arn = arn:aws:iam::111122223333:role/self',
        'source_profile = self',
        `aws_access_key_id = ${BASE.id}`,
        `aws_secret_access_key = ${BASE.secret}`,
        '[profile loop-a]',
        'role_arn = arn:aws:iam::111122223333:role/a',
        'source_profile = loop-b',
        '[profile loop-b]',
        'role_arn = arn:aws:iam::111122223333:role/b',
        'source_profile = loop-a',
        '[profile denied]',
        'role_arn = arn:aws:iam::111122223333:role/denied',
        'source_profile = base',
        '',
      ].join('\n'),
    });
    const n = aws.issued.length;
    const config = await load({ AWS_PROFILE: 'second', AWS_ENDPOINT_URL_STS: aws.url }, { home: h });
    const [first, second] = aws.issued.slice(n);
    assert.equal(aws.issued.length - n, 2, 'two AssumeRole calls');
    assert.deepEqual([first!.by, first!.detail.roleArn, first!.detail.signedBy, first!.detail.sessionName], ['AssumeRole', 'arn:aws:iam::111122223333:role/first', BASE.id, 'first-session']);
    assert.deepEqual([second!.detail.roleArn, second!.detail.signedBy, second!.detail.externalId, second!.detail.duration], ['arn:aws:iam::111122223333:role/second', first!.accessKeyId, 'ext-1', '900']);
    assert.match(second!.detail.scope!, /\/eu-west-1\/sts\/aws4_request$/, 'signed for the profile\'s region');
    assert.match(config.credentials.source, /role\/second .*"second"/);
    assert.deepEqual(await upload(config), [second!.accessKeyId]);

    const self = aws.issued.length;
    await load({ AWS_PROFILE: 'self', AWS_ENDPOINT_URL_STS: aws.url }, { home: h });
    assert.deepEqual(aws.issued.slice(self).map((i) => i.detail.signedBy), [BASE.id], 'a role profile that is its own source uses its keys');
    await assert.rejects(load({ AWS_PROFILE: 'loop-a', AWS_ENDPOINT_URL_STS: aws.url }, { home: h }), (e: unknown) => e instanceof UsageError && /loop through source_profile: "loop-a" -> "loop-b" -> "loop-a"/.test(e.message));
    await assert.rejects(load({ AWS_PROFILE: 'denied', AWS_ENDPOINT_URL_STS: aws.url }, { home: h }), (e: unknown) => e instanceof AuthError && /AssumeRole .*role\/denied.*AccessDenied/.test(e.message));
    assert.deepEqual(aws.problems, []);
  });

  test('credential_process: the command run by the shell, its JSON used; a failure, bad JSON or another Version is a clear error', async () => {
    const script = (name: string, body: string): string => {
      const file = join(dir, name);
      writeFileSync(file, body);
      return `"${process.execPath}" "${file}"`;
    };
    const good = script('good.mjs', `process.stdout.write(JSON.stringify(${JSON.stringify({ Version: 1, AccessKeyId: PROCESS_KEY.accessKeyId, SecretAccessKey: PROCESS_KEY.secretAccessKey, SessionToken: PROCESS_KEY.sessionToken, Expiration: new Date(clock + 3600_000).toISOString() })}));`);
    const h = home({
      config: [
        `[profile good]\ncredential_process = ${good}`,
        `[profile fails]\ncredential_process = ${script('fails.mjs', 'process.exit(3)')}`,
        `[profile garbage]\ncredential_process = ${script('garbage.mjs', 'console.log("Password:")')}`,
        `[profile v2]\ncredential_process = ${script('v2.mjs', 'console.log(JSON.stringify({ Version: 2, AccessKeyId: "A", SecretAccessKey: "B" }))')}`,
        `[profile stale]\ncredential_process = ${script('stale.mjs', 'console.log(JSON.stringify({ Version: 1, AccessKeyId: "A", SecretAccessKey: "B", Expiration: "2020-01-01T00:00:00Z" }))')}`,
        '',
      ].join('\n'),
    });
    const config = await load({ AWS_PROFILE: 'good' }, { home: h });
    assert.match(config.credentials.source, /credential_process of the AWS profile "good"/);
    assert.deepEqual(await upload(config), [PROCESS_KEY.accessKeyId]);
    await assert.rejects(load({ AWS_PROFILE: 'fails' }, { home: h }), (e: unknown) => e instanceof AuthError && /"fails" failed \(exit 3\)/.test(e.message));
    await assert.rejects(load({ AWS_PROFILE: 'garbage' }, { home: h }), (e: unknown) => e instanceof UsageError && /did not print JSON/.test(e.message));
    await assert.rejects(load({ AWS_PROFILE: 'v2' }, { home: h }), (e: unknown) => e instanceof UsageError && /Version 2, not 1/.test(e.message));
    await assert.rejects(load({ AWS_PROFILE: 'stale' }, { home: h }), (e: unknown) => e instanceof AuthError && /expired at 2020-01-01/.test(e.message));
  });

  test('web identity (IRSA): AssumeRoleWithWebIdentity, unsigned, with the token file\'s token, at AWS_ENDPOINT_URL_STS or AWS_ENDPOINT_URL; or from a profile', async () => {
    const tokenFile = join(dir, 'irsa-token');
    writeFileSync(tokenFile, `${WEB_TOKEN}\n`);
    const irsa = { AWS_WEB_IDENTITY_TOKEN_FILE: tokenFile, AWS_ROLE_ARN: ROLE, AWS_ROLE_SESSION_NAME: 'fleet-shard-0' };
    let n = aws.issued.length;
    const config = await load({ ...irsa, AWS_ENDPOINT_URL_STS: aws.url }, { home: home() });
    assert.deepEqual(aws.issued.slice(n).map((i) => [i.by, i.detail.roleArn, i.detail.sessionName, i.detail.token]), [['AssumeRoleWithWebIdentity', ROLE, 'fleet-shard-0', WEB_TOKEN]]);
    assert.deepEqual(await upload(config), [aws.issued[n]!.accessKeyId]);

    n = aws.issued.length;
    await load({ ...irsa, AWS_ENDPOINT_URL: aws.url }, { home: home() });
    assert.deepEqual(issuedSince(n).length, 1, 'AWS_ENDPOINT_URL reaches STS too');

    n = aws.issued.length;
    const h = home({ config: `[profile web]\nrole_arn = ${ROLE}\nweb_identity_token_file = ${tokenFile}\n` });
    const fromProfile = await load({ AWS_PROFILE: 'web', AWS_ENDPOINT_URL_STS: aws.url }, { home: h });
    assert.match(fromProfile.credentials.source, /web identity \(the AWS profile "web"/);
    assert.deepEqual(await upload(fromProfile), [aws.issued[n]!.accessKeyId]);

    const wrong = join(dir, 'wrong-token');
    writeFileSync(wrong, 'someone-else');
    await assert.rejects(load({ ...irsa, AWS_WEB_IDENTITY_TOKEN_FILE: wrong, AWS_ENDPOINT_URL_STS: aws.url }, { home: home() }), (e: unknown) => e instanceof AuthError && /AssumeRoleWithWebIdentity .*InvalidIdentityToken/.test(e.message));
    await assert.rejects(load({ AWS_ROLE_ARN: ROLE }, { home: home() }), /AWS_ROLE_ARN is set without AWS_WEB_IDENTITY_TOKEN_FILE/);
    await assert.rejects(load({ ...irsa, AWS_WEB_IDENTITY_TOKEN_FILE: join(dir, 'none') }, { home: home() }), (e: unknown) => e instanceof UsageError && /cannot read the web identity token/.test(e.message));
    await assert.rejects(load({ ...irsa, AWS_ENDPOINT_URL_STS: `http://127.0.0.1:${await closedPort()}` }, { home: home() }), NetworkError);
    assert.equal(stsEndpoint('eu-west-1').href, 'https://sts.eu-west-1.amazonaws.com/', 'by default the region\'s STS');
    assert.equal(stsEndpoint('cn-north-1').href, 'https://sts.cn-north-1.amazonaws.com.cn/');
    assert.deepEqual(aws.problems, []);
  });

  test('container credentials: a full URI on loopback with the token file, a relative URI against the agent with the token; other hosts refused', async () => {
    const tokenFile = join(dir, 'pod-identity-token');
    writeFileSync(tokenFile, CONTAINER_TOKEN);
    let n = aws.issued.length;
    const full = await load({ AWS_CONTAINER_CREDENTIALS_FULL_URI: `${aws.url}/container/pod`, AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: tokenFile }, { home: home() });
    assert.deepEqual(issuedSince(n).map((s) => s.split(' ')[0]), ['container']);
    assert.deepEqual(await upload(full), [aws.issued[n]!.accessKeyId]);

    n = aws.issued.length;
    const relative = await load({ AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: '/v2/credentials/task-1', AWS_CONTAINER_AUTHORIZATION_TOKEN: CONTAINER_TOKEN }, { home: home(), containerHost: aws.url });
    assert.deepEqual(aws.issued.slice(n).map((i) => i.detail.path), ['/v2/credentials/task-1']);
    assert.deepEqual(await upload(relative), [aws.issued[n]!.accessKeyId]);

    await assert.rejects(load({ AWS_CONTAINER_CREDENTIALS_FULL_URI: `${aws.url}/container/pod`, AWS_CONTAINER_AUTHORIZATION_TOKEN: 'stolen' }, { home: home() }), (e: unknown) => e instanceof AuthError && /HTTP 401/.test(e.message));
    await assert.rejects(load({ AWS_CONTAINER_CREDENTIALS_FULL_URI: 'http://10.1.2.3/creds' }, { home: home() }), (e: unknown) => e instanceof UsageError && /use https, or plain http to this machine or the ECS\/EKS agent/.test(e.message));
    const settings = { relativeUri: undefined, token: undefined, tokenFile: undefined, relativeHost: 'http://169.254.170.2' };
    for (const ok of ['http://169.254.170.23/v1/credentials', 'http://[fd00:ec2::23]/v1/credentials', 'http://169.254.170.2/creds', 'https://creds.example.com/x', 'http://localhost:8080/x']) {
      assert.equal(containerUrl({ ...settings, fullUri: ok }).href, new URL(ok).href, ok);
    }
    assert.equal(containerUrl({ ...settings, fullUri: undefined, relativeUri: '/v2/credentials/x' }).href, 'http://169.254.170.2/v2/credentials/x');
  });

  test('EC2 instance metadata (IMDSv2): a session token with its TTL first, then the role and its credentials; AWS_EC2_METADATA_DISABLED honoured', async () => {
    const n = aws.issued.length;
    const seen = aws.seen.length;
    const config = await load({ AWS_EC2_METADATA_DISABLED: 'false', AWS_EC2_METADATA_SERVICE_ENDPOINT: aws.url }, { home: home() });
    assert.deepEqual(aws.seen.slice(seen), ['PUT /latest/api/token', 'GET /latest/meta-data/iam/security-credentials/', 'GET /latest/meta-data/iam/security-credentials/fleet-instance-role']);
    assert.equal(config.credentials.source, 'EC2 instance metadata');
    assert.deepEqual(await upload(config), [aws.issued[n]!.accessKeyId]);

    const before = aws.seen.length;
    await assert.rejects(load({ AWS_EC2_METADATA_DISABLED: 'true', AWS_EC2_METADATA_SERVICE_ENDPOINT: aws.url }, { home: home() }), (e: unknown) => e instanceof UsageError && /EC2 instance metadata \(off: AWS_EC2_METADATA_DISABLED\)/.test(e.message));
    assert.equal(aws.seen.length, before, 'not asked');
    assert.equal(imdsEndpoint(undefined, undefined).href, 'http://169.254.169.254/');
    assert.equal(imdsEndpoint(undefined, 'IPv6').href, 'http://[fd00:ec2::254]/');
  });

  test('SSO: the cached token of the sso-session (or of a legacy start URL) traded at the portal; a missing or expired sign-in says to sign in again', async () => {
    const startUrl = 'https://fleet.awsapps.com/start';
    const valid = { accessToken: SSO_TOKEN, expiresAt: new Date(clock + 8 * 3600_000).toISOString(), region: 'eu-west-1', startUrl };
    const config = [
      '[profile sso]\nsso_session = fleet\nsso_account_id = 111122223333\nsso_role_name = LakeWriter\nregion = eu-west-1',
      `[sso-session fleet]\nsso_start_url = ${startUrl}\nsso_region = eu-west-1\nsso_registration_scopes = sso:account:access`,
      `[profile legacy]\nsso_start_url = ${startUrl}\nsso_region = eu-west-1\nsso_account_id = 111122223333\nsso_role_name = LegacyWriter`,
      '',
    ].join('\n');
    let n = aws.issued.length;
    const sso = await load({ AWS_PROFILE: 'sso', AWS_ENDPOINT_URL_SSO: aws.url }, { home: home({ config, sso: { fleet: valid } }) });
    assert.deepEqual(aws.issued.slice(n).map((i) => [i.by, i.detail.accountId, i.detail.roleName]), [['sso', '111122223333', 'LakeWriter']]);
    assert.deepEqual(await upload(sso), [aws.issued[n]!.accessKeyId]);

    n = aws.issued.length;
    await load({ AWS_PROFILE: 'legacy', AWS_ENDPOINT_URL_SSO: aws.url }, { home: home({ config, sso: { [startUrl]: valid } }) });
    assert.deepEqual(aws.issued.slice(n).map((i) => i.detail.roleName), ['LegacyWriter'], 'the cache file named by the start URL');

    const expired = { ...valid, expiresAt: new Date(clock - 60_000).toISOString() };
    await assert.rejects(load({ AWS_PROFILE: 'sso', AWS_ENDPOINT_URL_SSO: aws.url }, { home: home({ config, sso: { fleet: expired } }) }), (e: unknown) => e instanceof AuthError && /expired/.test(e.message) && /aws sso login --profile sso/.test(String(e.hint)));
    await assert.rejects(load({ AWS_PROFILE: 'sso', AWS_ENDPOINT_URL_SSO: aws.url }, { home: home({ config }) }), (e: unknown) => e instanceof AuthError && /no SSO sign-in/.test(e.message));
    const revoked = { ...valid, accessToken: 'revoked' };
    await assert.rejects(load({ AWS_PROFILE: 'sso', AWS_ENDPOINT_URL_SSO: aws.url }, { home: home({ config, sso: { fleet: revoked } }) }), (e: unknown) => e instanceof AuthError && /HTTP 401/.test(e.message));
  });

  test('temporary credentials are fetched again 5 minutes before they expire, once for callers at the same moment; a failed refresh keeps them while they are good', async () => {
    const tokenFile = join(dir, 'refresh-token');
    writeFileSync(tokenFile, WEB_TOKEN);
    const start = clock;
    try {
      const n = aws.issued.length;
      const config = await load({ AWS_WEB_IDENTITY_TOKEN_FILE: tokenFile, AWS_ROLE_ARN: ROLE, AWS_ENDPOINT_URL_STS: aws.url }, { home: home() });
      const first = aws.issued[n]!.accessKeyId;
      clock = start + 54 * 60_000;
      assert.equal((await config.credentials.get()).accessKeyId, first, 'six minutes before expiry: the same');
      assert.equal(aws.issued.length, n + 1, 'and STS not asked');

      clock = start + 55 * 60_000 + 1000;
      const [a, b] = await Promise.all([config.credentials.get(), config.credentials.get()]);
      assert.equal(aws.issued.length, n + 2, 'one AssumeRoleWithWebIdentity for two callers');
      const second = aws.issued[n + 1]!.accessKeyId;
      assert.deepEqual([a.accessKeyId, b.accessKeyId], [second, second]);
      assert.deepEqual(await upload(config), [second], 'the S3 client signs with the new key');

      // The new ones expire an hour after this clock; STS now refuses (the token rotated badly).
      const refreshed = clock;
      writeFileSync(tokenFile, 'rotated-wrong');
      clock = refreshed + 56 * 60_000;
      assert.equal((await config.credentials.get()).accessKeyId, second, 'refresh failed, but four minutes are left: kept');
      clock = refreshed + 59 * 60_000 + 30_000;
      await assert.rejects(config.credentials.get(), (e: unknown) => e instanceof AuthError && /InvalidIdentityToken/.test(e.message), 'thirty seconds left: the failure shows');
      writeFileSync(tokenFile, WEB_TOKEN);
      assert.equal((await config.credentials.get()).accessKeyId, aws.issued[aws.issued.length - 1]!.accessKeyId, 'and the next call fetches again');
      assert.equal(aws.issued.length, n + 3);
    } finally {
      clock = start;
    }
  });

  test('the order of the AWS SDK: keys in the environment, the profile, web identity, the container endpoint, then instance metadata', async () => {
    const tokenFile = join(dir, 'order-token');
    writeFileSync(tokenFile, WEB_TOKEN);
    const all = {
      AWS_WEB_IDENTITY_TOKEN_FILE: tokenFile,
      AWS_ROLE_ARN: ROLE,
      AWS_ENDPOINT_URL_STS: aws.url,
      AWS_CONTAINER_CREDENTIALS_FULL_URI: `${aws.url}/container/order`,
      AWS_CONTAINER_AUTHORIZATION_TOKEN: CONTAINER_TOKEN,
      AWS_EC2_METADATA_DISABLED: 'false',
      AWS_EC2_METADATA_SERVICE_ENDPOINT: aws.url,
    };
    const withKeys = home({ credentials: '[default]\naws_access_key_id = AKIAPROFILE\naws_secret_access_key = profile-secret\n' });
    const n = aws.issued.length;
    assert.equal((await load({ ...all, AWS_ACCESS_KEY_ID: 'AKIAENV', AWS_SECRET_ACCESS_KEY: 'env-secret' }, { home: withKeys })).credentials.source, 'the environment (AWS_ACCESS_KEY_ID)');
    assert.equal((await load(all, { home: withKeys })).credentials.source, 'the AWS profile "default"');
    assert.equal(aws.issued.length, n, 'keys at hand: nothing fetched');
    const onlyRegion = home({ config: '[default]\nregion = us-east-1\n' });
    assert.match((await load(all, { home: onlyRegion })).credentials.source, /^web identity/);
    const { AWS_WEB_IDENTITY_TOKEN_FILE: _t, AWS_ROLE_ARN: _r, ...noWeb } = all;
    assert.equal((await load(noWeb, { home: onlyRegion })).credentials.source, 'container credentials');
    const { AWS_CONTAINER_CREDENTIALS_FULL_URI: _c, ...imdsOnly } = noWeb;
    assert.equal((await load(imdsOnly, { home: onlyRegion })).credentials.source, 'EC2 instance metadata');
    assert.deepEqual(issuedSince(n).map((s) => s.split(' ')[0]), ['AssumeRoleWithWebIdentity', 'container', 'imds']);
  });

  test('none found: a usage error naming every source tried, the unreachable metadata service too', async () => {
    const port = await closedPort();
    const h = home();
    await assert.rejects(load({ AWS_EC2_METADATA_DISABLED: '', AWS_EC2_METADATA_SERVICE_ENDPOINT: `http://127.0.0.1:${port}` }, { home: h }), (e: unknown) => {
      assert.ok(e instanceof UsageError, String(e));
      for (const part of ['no AWS credentials for s3://', 'the environment (AWS_ACCESS_KEY_ID)', `the "default" profile of ${join(h, '.aws', 'credentials')}`, 'web identity (AWS_WEB_IDENTITY_TOKEN_FILE)', 'container credentials', `EC2 instance metadata at 127.0.0.1:${port}`]) {
        assert.ok(e.message.includes(part), `"${part}" in: ${e.message}`);
      }
      return true;
    });
  });
});
