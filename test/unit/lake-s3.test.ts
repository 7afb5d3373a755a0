/**
 * The S3 side of the lake, piece by piece:
 * - settings from the environment and the shared files (profiles, precedence, endpoints);
 * - the signature of every request, checked by an independent SigV4 verifier written here
 *   (itself checked against AWS's published example) on a loopback server;
 * - against a real S3 API server (s3rver): put, list, delete, a multipart upload read back
 *   byte for byte, a multipart upload failing part way (aborted: no object), and uploads
 *   SIGKILLed at random moments that leave no object (or a whole one).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { S3Client } from '../../src/lake/s3/client.js';
import { loadS3Config, parseIni, parseS3Url, type S3Config } from '../../src/lake/s3/config.js';
import { fixedCredentials } from '../../src/lake/s3/refresh.js';
import { MULTIPART_PART_BYTES, S3Storage } from '../../src/lake/storage.js';
import { UsageError } from '../../src/errors.js';
import { ROOT } from '../helpers/cli.js';
import { S3_BUCKET, S3_LIMITS, startS3Server, type S3Server } from '../helpers/s3rver.js';
import { expectedSignature, sha256 } from '../helpers/sigv4.js';

const SELF = fileURLToPath(import.meta.url);
const S3RVER_KEYS = fixedCredentials('a test', { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });

// A child that uploads one file through S3Storage (the parent SIGKILLs it): `node SELF` with LAKE_S3_CHILD set.
if (process.env.LAKE_S3_CHILD !== undefined) {
  const { endpoint, key, file } = JSON.parse(process.env.LAKE_S3_CHILD) as { endpoint: string; key: string; file: string };
  const config: S3Config = { credentials: S3RVER_KEYS, region: 'us-east-1', endpoint: new URL(endpoint) };
  const storage = new S3Storage(`s3://${S3_BUCKET}`, new S3Client(config, S3_BUCKET, S3_LIMITS), '', 'text/plain');
  process.stderr.write('uploading\n'); // the parent times its kill from here, not from a process start a busy machine stretches
  await storage.upload(key, file);
  await storage.close();
  process.exit(0);
}


test('the verifier gives the signature of AWS\'s published example (GET /test.txt with a Range)', () => {
  const sig = expectedSignature(
    {
      method: 'GET',
      path: '/test.txt',
      headers: { host: 'examplebucket.s3.amazonaws.com', range: 'bytes=0-9', 'x-amz-content-sha256': sha256(''), 'x-amz-date': '20130524T000000Z' },
      body: Buffer.alloc(0),
    },
    'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    ['host', 'range', 'x-amz-content-sha256', 'x-amz-date'],
    '20130524/us-east-1/s3/aws4_request',
  );
  assert.equal(sig, 'f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41');
});

test('every request the client sends carries a valid SigV4 signature (path-style, query, body, session token)', async () => {
  const seen: string[] = [];
  const problems: string[] = [];
  const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const auth = String(req.headers.authorization ?? '');
      const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/([^,]+), SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(auth);
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      if (!m) problems.push(`${req.method} ${req.url}: no SigV4 header: ${auth}`);
      else {
        const signed = m[3]!.split(';');
        if (!signed.includes('host') || !signed.includes('x-amz-date') || !signed.includes('x-amz-content-sha256')) problems.push(`signed headers ${m[3]}`);
        if (headers['x-amz-content-sha256'] !== sha256(body)) problems.push(`${req.url}: the payload hash is not the body's`);
        if (m[1] !== 'AKIDEXAMPLE' || !m[2]!.endsWith('/eu-west-3/s3/aws4_request')) problems.push(`credential scope ${m[1]}/${m[2]}`);
        if (headers['x-amz-security-token'] !== 'TOKEN/with+chars' || !signed.includes('x-amz-security-token')) problems.push('the session token is not sent and signed');
        const want = expectedSignature({ method: req.method!, path: req.url!, headers, body }, secret, signed, m[2]!);
        if (want !== m[4]) problems.push(`${req.method} ${req.url}: signature ${m[4]}, expected ${want}`);
      }
      seen.push(`${req.method} ${req.url}`);
      const xml = req.url!.includes('uploads') ? '<InitiateMultipartUploadResult><UploadId>up/1+2</UploadId></InitiateMultipartUploadResult>' : '<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>';
      res.writeHead(200, { etag: '"abc"', 'content-type': 'application/xml' });
      res.end(xml);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const client = new S3Client({ credentials: fixedCredentials('a test', { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: secret, sessionToken: 'TOKEN/with+chars' }), region: 'eu-west-3', endpoint: new URL(`http://127.0.0.1:${port}/base/`) }, 'my-bucket', S3_LIMITS);
  try {
    await client.list('fleet/day=2026-11-24/');
    await client.put('fleet/day=2026-11-24/part-x-0.parquet', Buffer.from('PAR1 data'), 'application/vnd.apache.parquet');
    const id = await client.createUpload('a key with spaces & (odd) chars*.ndjson');
    assert.equal(id, 'up/1+2');
    await client.uploadPart('a key with spaces & (odd) chars*.ndjson', id, 1, randomBytes(1000));
    await client.completeUpload('a key with spaces & (odd) chars*.ndjson', id, ['"abc"']);
    await client.remove('fleet/day=2026-11-24/part-x-0.parquet');
  } finally {
    await client.close();
    server.close();
  }
  assert.deepEqual(problems, []);
  assert.equal(seen.length, 6);
  assert.ok(seen.every((s) => s.includes(' /base/my-bucket')), `path-style under the endpoint's path: ${seen.join(', ')}`);
  assert.ok(seen.some((s) => s.includes('a%20key%20with%20spaces%20%26%20%28odd%29%20chars%2A.ndjson')), 'keys are URI-encoded as S3 wants');
  assert.ok(seen.some((s) => s.includes('day%3D2026-11-24/part-x-0.parquet')), '"=" is encoded, "/" kept');
});

describe('settings', () => {
  let home: string;
  before(() => {
    home = mkdtempSync(join(tmpdir(), 'trackctl-aws-'));
    mkdirSync(join(home, '.aws'));
    writeFileSync(join(home, '.aws', 'credentials'), '# comment\n[default]\naws_access_key_id = DEFAULTKEY\naws_secret_access_key = defaultsecret\n\n[ci]\naws_access_key_id=CIKEY\naws_secret_access_key=cisecret\naws_session_token = citoken\n');
    writeFileSync(join(home, '.aws', 'config'), '[default]\nregion = eu-central-1\n[profile ci]\nregion = ap-south-1\nendpoint_url = https://minio.example.com:9000\n[profile keys-here]\naws_access_key_id = CFGKEY\naws_secret_access_key = cfgsecret\n');
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  test('the environment first, then the profile of the shared files', async () => {
    const env = await loadS3Config({ AWS_ACCESS_KEY_ID: 'ENVKEY', AWS_SECRET_ACCESS_KEY: 'envsecret', AWS_SESSION_TOKEN: 'envtoken', AWS_REGION: 'us-west-2', AWS_ENDPOINT_URL: 'http://127.0.0.1:9000' }, { home });
    assert.deepEqual(await env.credentials.get(), { accessKeyId: 'ENVKEY', secretAccessKey: 'envsecret', sessionToken: 'envtoken' });
    assert.equal(env.region, 'us-west-2');
    assert.equal(env.endpoint?.href, 'http://127.0.0.1:9000/');
    const s3First = await loadS3Config({ AWS_ENDPOINT_URL: 'https://a.example', AWS_ENDPOINT_URL_S3: 'https://s3.example' }, { home });
    assert.equal(s3First.endpoint?.host, 's3.example', 'AWS_ENDPOINT_URL_S3 wins over AWS_ENDPOINT_URL');
    const byDefault = await loadS3Config({}, { home });
    assert.deepEqual(await byDefault.credentials.get(), { accessKeyId: 'DEFAULTKEY', secretAccessKey: 'defaultsecret' });
    assert.deepEqual([byDefault.region, byDefault.endpoint], ['eu-central-1', undefined]);
    const ci = await loadS3Config({ AWS_PROFILE: 'ci' }, { home });
    assert.deepEqual(await ci.credentials.get(), { accessKeyId: 'CIKEY', secretAccessKey: 'cisecret', sessionToken: 'citoken' });
    assert.equal(ci.region, 'ap-south-1');
    assert.equal(ci.endpoint?.host, 'minio.example.com:9000');
    assert.equal((await (await loadS3Config({ AWS_PROFILE: 'keys-here' }, { home })).credentials.get()).accessKeyId, 'CFGKEY', 'keys in the config file count too');
    const files = await loadS3Config({ AWS_SHARED_CREDENTIALS_FILE: join(home, '.aws', 'credentials'), AWS_CONFIG_FILE: join(home, 'none') }, { home: '/nonexistent' });
    assert.equal(files.region, 'us-east-1', 'no config file: us-east-1');
  });

  test('clear errors: no credentials, half of a key pair, plain http off this machine, a bad URL', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'trackctl-aws-empty-'));
    try {
      await assert.rejects(loadS3Config({ AWS_EC2_METADATA_DISABLED: 'true' }, { home: empty }), (e: unknown) => e instanceof UsageError && /no AWS credentials/.test(e.message));
      await assert.rejects(loadS3Config({ AWS_PROFILE: 'nope' }, { home }), (e: unknown) => e instanceof UsageError && /AWS profile "nope" \(AWS_PROFILE\) is in neither/.test(e.message));
      await assert.rejects(loadS3Config({ AWS_ACCESS_KEY_ID: 'X' }, { home: empty }), /AWS_ACCESS_KEY_ID is set without AWS_SECRET_ACCESS_KEY/);
      await assert.rejects(loadS3Config({ AWS_ACCESS_KEY_ID: 'X', AWS_SECRET_ACCESS_KEY: 'Y', AWS_ENDPOINT_URL: 'http://10.0.0.5:9000' }, { home: empty }), /use https/);
      await assert.rejects(loadS3Config({ AWS_ACCESS_KEY_ID: 'X', AWS_SECRET_ACCESS_KEY: 'Y', AWS_ENDPOINT_URL_S3: 'not a url' }, { home: empty }), /AWS_ENDPOINT_URL_S3 .* not a URL/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  test('s3:// URLs and INI files', () => {
    assert.deepEqual(parseS3Url('s3://fleet-lake/history/'), { bucket: 'fleet-lake', prefix: 'history' });
    assert.deepEqual(parseS3Url('s3://fleet-lake'), { bucket: 'fleet-lake', prefix: '' });
    assert.deepEqual(parseS3Url('s3://b.c-d/a/b/c'), { bucket: 'b.c-d', prefix: 'a/b/c' });
    for (const bad of ['s3://', 's3:///x', 's3://UPPER/x', 's3://a/../x', 's3://ab/x//y']) assert.throws(() => parseS3Url(bad), UsageError, bad);
    assert.deepEqual(parseIni('[a]\nk = v = w\n; c\n#d\n[ b ]\nK=1\nstray\n'), { a: { k: 'v = w' }, b: { k: '1' } });
  });
});

describe('against a real S3 API server (s3rver)', () => {
  let s3: S3Server;
  let client: S3Client;
  let dir: string;
  before(async () => {
    s3 = await startS3Server(ROOT);
    client = new S3Client({ credentials: S3RVER_KEYS, region: 'us-east-1', endpoint: new URL(s3.endpoint) }, S3_BUCKET, S3_LIMITS);
    dir = mkdtempSync(join(tmpdir(), 'trackctl-s3-unit-'));
  });
  after(async () => {
    await client?.close();
    await s3?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('put, list (by prefix), get, delete', async () => {
    await client.put('unit/day=2026-11-24/part-a-0.ndjson', Buffer.from('{"a":1}\n'));
    await client.put('unit/day=2026-11-25/part-a-0.ndjson', Buffer.from('{"a":2}\n'));
    await client.put('other/x', Buffer.from('x'));
    assert.deepEqual((await client.list('unit/')).sort(), ['unit/day=2026-11-24/part-a-0.ndjson', 'unit/day=2026-11-25/part-a-0.ndjson']);
    assert.equal((await client.send('GET', 'unit/day=2026-11-25/part-a-0.ndjson')).text, '{"a":2}\n');
    await client.remove('unit/day=2026-11-24/part-a-0.ndjson');
    await client.remove('unit/never-there');
    assert.deepEqual(await client.list('unit/'), ['unit/day=2026-11-25/part-a-0.ndjson']);
  });

  test('a large part goes up as a multipart upload and reads back byte for byte', async () => {
    const file = join(dir, 'big.txt');
    const text = randomBytes(Math.ceil(MULTIPART_PART_BYTES * 2.3 * 0.75)).toString('base64');
    writeFileSync(file, text);
    // The real client, counting the parts it sends (s3rver's ETag does not tell a multipart object).
    const parts: number[] = [];
    const counting = new (class extends S3Client {
      override uploadPart(key: string, uploadId: string, n: number, body: Buffer): Promise<string> {
        parts.push(body.length);
        return super.uploadPart(key, uploadId, n, body);
      }
    })({ credentials: S3RVER_KEYS, region: 'us-east-1', endpoint: new URL(s3.endpoint) }, S3_BUCKET, S3_LIMITS);
    const storage = new S3Storage(`s3://${S3_BUCKET}/mp`, counting, 'mp', 'text/plain');
    await storage.upload('mp/big.txt', file);
    await counting.close();
    assert.equal(parts.length, 3, `three parts: ${parts.join(', ')}`);
    assert.ok(parts[0] === MULTIPART_PART_BYTES && parts[1] === MULTIPART_PART_BYTES, 'all but the last are the part size');
    assert.equal(await client.list('mp/').then((k) => k.join()), 'mp/big.txt');
    const got = await client.send('GET', 'mp/big.txt');
    assert.equal(got.text.length, text.length);
    assert.ok(got.text === text, 'the same bytes');
  });

  test('a multipart upload that fails part way leaves no object; the abort is tried, and its own failure does not hide the first', async () => {
    const file = join(dir, 'fails.txt');
    writeFileSync(file, randomBytes(Math.ceil(MULTIPART_PART_BYTES * 2.5 * 0.75)).toString('base64'));
    const aborts: Array<{ key: string; uploadId: string; outcome: string }> = [];
    const failing = new (class extends S3Client {
      override uploadPart(key: string, uploadId: string, n: number, body: Buffer): Promise<string> {
        return n === 2 ? Promise.reject(new Error('connection reset in part 2')) : super.uploadPart(key, uploadId, n, body);
      }
      override async abortUpload(key: string, uploadId: string): Promise<void> {
        const entry = { key, uploadId, outcome: 'aborted' };
        aborts.push(entry);
        try {
          await super.abortUpload(key, uploadId);
        } catch (err) {
          entry.outcome = `refused: ${(err as Error).message}`;
          throw err;
        }
      }
    })({ credentials: S3RVER_KEYS, region: 'us-east-1', endpoint: new URL(s3.endpoint) }, S3_BUCKET, S3_LIMITS);
    const storage = new S3Storage(`s3://${S3_BUCKET}/fails`, failing, 'fails', 'text/plain');
    try {
      await assert.rejects(storage.upload('fails/big.txt', file), /connection reset in part 2/, 'the part\'s failure, not the abort\'s');
    } finally {
      await failing.close();
    }
    assert.equal(aborts.length, 1, 'the upload was aborted');
    assert.equal(aborts[0]!.key, 'fails/big.txt');
    assert.ok(aborts[0]!.uploadId.length > 0);
    // s3rver has no AbortMultipartUpload (it answers 405); real S3 drops the parts. Either way nothing is at the key.
    assert.match(aborts[0]!.outcome, /^aborted$|405|MethodNotAllowed/);
    assert.deepEqual(await client.list('fails/'), [], 'no object listed');
    await assert.rejects(client.send('GET', 'fails/big.txt'), /NoSuchKey/, 'and none to read');
  });

  test('uploads SIGKILLed at random moments leave no object, or a whole one', async () => {
    const file = join(dir, 'killed.txt');
    const text = randomBytes(Math.ceil(MULTIPART_PART_BYTES * 3.5 * 0.75)).toString('base64');
    writeFileSync(file, text);
    const upload = (key: string, killAfterMs: number): Promise<string> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [SELF], { env: { ...process.env, LAKE_S3_CHILD: JSON.stringify({ endpoint: s3.endpoint, key, file }) }, stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        let timer: NodeJS.Timeout | undefined;
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          if (timer === undefined && stderr.includes('uploading\n')) {
            started = Date.now();
            timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
          }
        });
        child.on('error', reject);
        child.on('close', (code, signal) => {
          clearTimeout(timer);
          if (signal === null && code !== 0) reject(new Error(`the uploader failed: ${stderr}`));
          else resolve(signal ?? 'done');
        });
      });
    let started = 0;
    assert.equal(await upload('killed/probe.txt', 600_000), 'done');
    const full = Date.now() - started;
    const outcomes: string[] = [];
    // Three kills at random moments, then more, earlier ones until one cut an upload short (the
    // machine's load makes one upload's time a poor guess of the next's).
    for (let i = 0; i < 12 && (i < 3 || !outcomes.includes('SIGKILL:0')); i++) {
      const key = `killed/try-${i}.txt`;
      const outcome = await upload(key, Math.floor(full * (i < 3 ? 0.2 + 0.6 * Math.random() : 0.1)));
      const listed = await client.list(key);
      if (listed.length > 0) assert.equal((await client.send('GET', key)).text, text, `${key} is whole when it is there`);
      else assert.equal(outcome, 'SIGKILL', `${key} is missing only when killed`);
      outcomes.push(`${outcome}:${listed.length}`);
    }
    assert.ok(outcomes.some((o) => o === 'SIGKILL:0'), `at least one upload was cut short and left nothing: ${outcomes.join(', ')}`);
  });
});
