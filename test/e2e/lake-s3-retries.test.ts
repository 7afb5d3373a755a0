/**
 * history --layout hive to S3 tries as hard as --retries and --timeout say, as the service's
 * client does: an object store (a small fake on 127.0.0.1) that answers 503 twice and then
 * works takes the run with --retries 2 and fails it with --retries 0 (exit 1, the store's words,
 * nothing asked of the service); TRACKCTL_RETRIES and the profile's retries count the same way;
 * a store that never answers is given up after --timeout on each of 1 + --retries tries (exit 6).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { Harness } from '../helpers/cli.js';
import { FROM, startLakeHarness } from '../helpers/lake.js';

interface FakeStore {
  endpoint: string;
  env: Record<string, string>;
  /** "METHOD path status" of every request, in order. */
  log: string[];
  /** The next `n` requests are answered 503 SlowDown; `hang`: every request is left unanswered. */
  fail(n: number): void;
  hang: boolean;
  keys: Set<string>;
  close(): Promise<void>;
}

async function startFakeStore(): Promise<FakeStore> {
  let failing = 0;
  const store: FakeStore = { endpoint: '', env: {}, log: [], fail: (n) => (failing = n), hang: false, keys: new Set(), close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://store');
      const key = decodeURIComponent(url.pathname.replace(/^\/lake\/?/, ''));
      if (store.hang) {
        store.log.push(`${req.method} ${url.pathname} -`);
        return; // never answered: the client's --timeout ends it
      }
      if (failing > 0) {
        failing--;
        store.log.push(`${req.method} ${url.pathname} 503`);
        res.writeHead(503, { 'content-type': 'application/xml' });
        return void res.end('<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>');
      }
      store.log.push(`${req.method} ${url.pathname} 200`);
      if (req.method === 'PUT') store.keys.add(key);
      if (req.method === 'DELETE') store.keys.delete(key);
      res.writeHead(req.method === 'DELETE' ? 204 : 200, { 'content-type': 'application/xml', etag: '"e"' });
      if (req.method === 'GET' && url.searchParams.get('list-type') === '2') {
        const prefix = url.searchParams.get('prefix') ?? '';
        const listed = [...store.keys].filter((k) => k.startsWith(prefix)).map((k) => `<Contents><Key>${k}</Key></Contents>`);
        return void res.end(`<ListBucketResult>${listed.join('')}<IsTruncated>false</IsTruncated></ListBucketResult>`);
      }
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  store.endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  store.env = { AWS_ACCESS_KEY_ID: 'FAKE', AWS_SECRET_ACCESS_KEY: 'FAKE', AWS_REGION: 'us-east-1', AWS_ENDPOINT_URL_S3: store.endpoint };
  store.close = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  return store;
}

describe('history --layout hive to S3: --retries and --timeout', () => {
  let h: Harness;
  let store: FakeStore;
  const args = (prefix: string): string[] => ['history', '--all-units', '--from', FROM, '--out-dir', `s3://lake/${prefix}`, '--layout', 'hive', '-o', 'ndjson'];
  before(async () => {
    ({ h } = await startLakeHarness());
    store = await startFakeStore();
  });
  after(async () => {
    await store?.close();
    await h?.close();
  });

  test('--retries 2 is two tries after the first: a store answering 503 twice, then OK, takes the lake (exit 0); three 503s fail it (exit 1)', async () => {
    store.fail(2);
    store.log.length = 0;
    const r = await h.run([...args('twice'), '--retries', '2'], { env: store.env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(store.log.slice(0, 3), ['GET /lake/ 503', 'GET /lake/ 503', 'GET /lake/ 200'], 'the probe, tried three times');
    assert.ok([...store.keys].some((k) => /^twice\/day=\d{4}-\d{2}-\d{2}\/part-.+\.ndjson$/.test(k)), `parts written: ${[...store.keys].join(', ')}`);

    store.fail(3);
    store.log.length = 0;
    const thrice = await h.run([...args('thrice'), '--retries', '2'], { env: store.env });
    assert.equal(thrice.code, 1, thrice.stderr);
    assert.deepEqual(store.log, ['GET /lake/ 503', 'GET /lake/ 503', 'GET /lake/ 503']);
    store.fail(0);
  });

  test('the setting counts too: TRACKCTL_RETRIES=1, and the profile\'s retries 1 without it', async () => {
    store.fail(2);
    store.log.length = 0;
    const r = await h.run(args('env'), { env: { ...store.env, TRACKCTL_RETRIES: '1' } });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(store.log.length, 2, store.log.join(', '));

    const set = await h.run(['config', 'set', 'retries', '1']);
    assert.equal(set.code, 0, set.stderr);
    try {
      store.fail(1);
      store.log.length = 0;
      const ok = await h.run(args('profile'), { env: { ...store.env, TRACKCTL_RETRIES: undefined } });
      assert.equal(ok.code, 0, ok.stderr);
      assert.deepEqual(store.log.slice(0, 2), ['GET /lake/ 503', 'GET /lake/ 200']);
      store.fail(2);
      store.log.length = 0;
      const failed = await h.run(args('profile2'), { env: { ...store.env, TRACKCTL_RETRIES: undefined } });
      assert.equal(failed.code, 1, failed.stderr);
      assert.deepEqual(store.log, ['GET /lake/ 503', 'GET /lake/ 503']);
    } finally {
      store.fail(0);
      await h.run(['config', 'unset', 'retries']);
    }
  });

  test('--retries 0: the first 503 fails the run, exit 1 naming the store\'s code, before the service is asked', async () => {
    store.fail(2);
    store.log.length = 0;
    h.sandbox.clearRequests();
    const r = await h.run([...args('never'), '--retries', '0'], { env: store.env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /S3 GET s3:\/\/lake\/: SlowDown \(Please reduce your request rate\.\)/);
    assert.deepEqual(store.log, ['GET /lake/ 503'], 'one try, no retry');
    assert.deepEqual(h.sent(), [], 'nothing asked of the service');
    assert.ok(![...store.keys].some((k) => k.startsWith('never/')));
  });

  test('--timeout bounds each wait for a store that never answers: given up after 1 + --retries tries, exit 6', async () => {
    store.fail(0);
    store.hang = true;
    store.log.length = 0;
    try {
      const r = await h.run([...args('hang'), '--timeout', '500ms', '--retries', '1'], { env: store.env, timeoutMs: 50_000 });
      assert.equal(r.code, 6, r.stderr);
      assert.match(r.stderr, /S3 GET s3:\/\/lake\/: timed out after 2 attempts/);
      assert.match(r.stderr, /--timeout and --retries adjust the limits/);
      assert.deepEqual(store.log, ['GET /lake/ -', 'GET /lake/ -']);
    } finally {
      store.hang = false;
    }
  });
});
