/**
 * The credential exchanges of s3:// try as hard as the run says: STS and the SSO portal take
 * --retries and --timeout as the object store's client does; the link-local endpoints (the
 * container agent, instance metadata) take --retries, and a wait no longer than they need.
 * Against the fake endpoints of test/helpers/fake-aws.ts, answering 503 a set number of times
 * or never. No network.
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadS3Config } from '../../src/lake/s3/config.js';
import { startFakeAws, temporaryKeys, type FakeAwsOptions } from '../helpers/fake-aws.js';

const KEYS = temporaryKeys('LIM', 4);
const WEB_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.limits.sig';
const CONTAINER_TOKEN = 'limits-container-token';
const ROLE = 'arn:aws:iam::111122223333:role/fleet-lake';
const home = mkdtempSync(join(tmpdir(), 'trackctl-s3-limits-'));
const tokenFile = join(home, 'web-token');
writeFileSync(tokenFile, WEB_TOKEN);
after(() => rmSync(home, { recursive: true, force: true }));

/** Loads the credentials of `source` from a fake that behaves as `fake` says; what it saw, and the outcome. */
async function load(fake: Omit<FakeAwsOptions, 'keys'>, source: 'sts' | 'container', limits: { retries: number; timeoutMs: number }) {
  const aws = await startFakeAws({ keys: KEYS, webIdentityTokens: [WEB_TOKEN], containerToken: CONTAINER_TOKEN, ...fake });
  const env =
    source === 'sts'
      ? { AWS_WEB_IDENTITY_TOKEN_FILE: tokenFile, AWS_ROLE_ARN: ROLE, AWS_ENDPOINT_URL_STS: aws.url }
      : { AWS_CONTAINER_CREDENTIALS_FULL_URI: `${aws.url}/v2/credentials/pod`, AWS_CONTAINER_AUTHORIZATION_TOKEN: CONTAINER_TOKEN };
  const started = Date.now();
  try {
    const config = await loadS3Config({ AWS_REGION: 'us-east-1', AWS_EC2_METADATA_DISABLED: 'true', ...env }, { home, limits });
    return { ok: await config.credentials.get(), seen: aws.seen.length, ms: Date.now() - started };
  } catch (err) {
    return { err: err as Error, seen: aws.seen.length, ms: Date.now() - started };
  } finally {
    await aws.close();
  }
}

/**
 * A source answering 503 `n` times: `--retries n` gets its first key on try n + 1; `--retries n - 1`
 * fails after n tries. Returns the failed load.
 */
async function enoughAndTooFew(source: 'sts' | 'container', n: number) {
  const ok = await load({ unavailable: n }, source, { retries: n, timeoutMs: 10_000 });
  assert.equal(ok.ok?.accessKeyId, KEYS[0]!.accessKeyId, String(ok.err));
  assert.equal(ok.seen, n + 1);
  const failed = await load({ unavailable: n }, source, { retries: n - 1, timeoutMs: 10_000 });
  assert.equal(failed.ok, undefined);
  assert.equal(failed.seen, n);
  return failed;
}

describe('credential exchanges take --retries and --timeout', () => {
  test('STS answering 503 twice: --retries 2 gets the role\'s key on the third try; --retries 1 fails naming STS and the 503', async () => {
    const failed = await enoughAndTooFew('sts', 2);
    assert.match(failed.err!.message, /STS AssumeRoleWithWebIdentity .*ServiceUnavailable/);
  });

  test('an STS that never answers: the run\'s --timeout ends the wait (not a fixed 30 s)', async () => {
    const r = await load({ silent: true }, 'sts', { retries: 0, timeoutMs: 400 });
    assert.equal(r.ok, undefined);
    assert.match(r.err!.message, /STS AssumeRoleWithWebIdentity/);
    assert.equal(r.seen, 1);
    assert.ok(r.ms < 20_000, `gave up after ${r.ms} ms`);
  });

  test('the container endpoint answering 503 once: --retries 1 gets the key, --retries 0 fails', async () => {
    await enoughAndTooFew('container', 1);
  });
});
