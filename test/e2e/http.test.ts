import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { FaultInjector, parseFaults } from '../../src/sandbox/faults.js';
import { startHarness, type Harness } from '../helpers/cli.js';

async function setFaults(h: Harness, spec: string): Promise<void> {
  const res = await fetch(`${h.sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ spec }),
  });
  assert.equal(res.status, 200, await res.text());
}

const statuses = (h: Harness, path: string) => h.sandbox.requests.filter((r) => r.path === path).map((r) => r.status);

describe('HTTP layer against a faulty sandbox', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inProcess: true });
  });
  after(async () => h.close());

  test('GET is retried on 503 and on 429 (honouring Retry-After) and then succeeds', async () => {
    // Rates that sum to 1: every request fails until the spec is cleared by the third request's success.
    await setFaults(h, 'error=0.5,status=503,429=0.5,retry-after=0,seed=11');
    h.sandbox.clearRequests();
    const r = await h.run(['devices', 'list', '-o', 'json'], { env: { TRACKCTL_RETRIES: '3' } });
    // With every request faulted, retries run out: exit 1 (the service failed), after 1 + 3 attempts.
    // A 429 with Retry-After is the service saying when to come back: those waits are not attempts.
    assert.equal(r.code, 1, r.stderr);
    const seen = statuses(h, '/v2/devices/');
    assert.equal(seen.filter((s) => s === 503).length, 4, seen.join(','));
    assert.ok(seen.filter((s) => s === 429).length > 0, 'some were rate-limited');
    assert.ok(seen.every((s) => s === 503 || s === 429));
    await setFaults(h, 'error=0.5,status=502|503|504,seed=4');
    let ok = 0;
    for (let i = 0; i < 5; i++) if ((await h.run(['devices', 'list', '-o', 'json'], { env: { TRACKCTL_RETRIES: '6' } })).code === 0) ok++;
    assert.equal(ok, 5, 'with retries every run gets through a 50% 5xx rate');
    await setFaults(h, '');
  });

  test('a 500 is retried like a 502 for a GET (answered 500 once, then 200: exit 0); a POST answered 500 is not repeated', async () => {
    // A seed whose fault sequence (the sandbox's own) is a 500, then none.
    const spec = (seed: number): string => `error=0.5,status=500,seed=${seed}`;
    const once = (seed: number): boolean => {
      const faults = new FaultInjector(parseFaults(spec(seed)), 0);
      return faults.next().kind === 'error' && faults.next().kind === 'none';
    };
    let seed = 0;
    while (!once(seed)) seed++;
    await setFaults(h, spec(seed));
    h.sandbox.clearRequests();
    const r = await h.run(['devices', 'list', '-o', 'json'], { env: { TRACKCTL_RETRIES: '3' } });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(Array.isArray(JSON.parse(r.stdout)));
    assert.deepEqual(statuses(h, '/v2/devices/'), [500, 200]);
    await setFaults(h, 'error=1,status=500');
    h.sandbox.clearRequests();
    const post = await h.run(['groups', 'create', '--name', 'Asked once'], { env: { TRACKCTL_RETRIES: '3' } });
    assert.equal(post.code, 1, post.stderr);
    assert.match(post.stderr, /500/);
    assert.deepEqual(h.sandbox.requests.filter((q) => q.method === 'POST').map((q) => q.status), [500], 'one POST, not repeated');
    // Nor after a 429: a create or a sign-in is asked once.
    await setFaults(h, '429=1,retry-after=0');
    h.sandbox.clearRequests();
    const limited = await h.run(['groups', 'create', '--name', 'Asked once'], { env: { TRACKCTL_RETRIES: '3' } });
    assert.equal(limited.code, 1, limited.stderr);
    assert.match(limited.stderr, /429/);
    assert.deepEqual(h.sandbox.requests.filter((q) => q.method === 'POST').map((q) => q.status), [429], 'one POST after a 429');
    await setFaults(h, '');
  });

  test('a GET waits out at most 20 replies of 429 with Retry-After beyond --retries, and none with --retries 0', async () => {
    await setFaults(h, '429=1,retry-after=0');
    h.sandbox.clearRequests();
    const r = await h.run(['devices', 'get', '2004', '-o', 'json'], { env: { TRACKCTL_RETRIES: '1' } });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(statuses(h, '/v2/devices/did/2004').length, 1 + 20 + 1, 'the first try, 20 waits the service asked for, 1 retry');
    h.sandbox.clearRequests();
    const none = await h.run(['devices', 'get', '2004', '-o', 'json'], { env: { TRACKCTL_RETRIES: '0' } });
    assert.equal(none.code, 1, none.stderr);
    assert.deepEqual(statuses(h, '/v2/devices/did/2004'), [429]);
    await setFaults(h, '');
  });

  test('dropped connections and truncated bodies are retried for a GET; exhausted retries are exit 6', async () => {
    await setFaults(h, 'drop=0.25,truncate=0.25,seed=9');
    for (let i = 0; i < 4; i++) {
      const r = await h.run(['devices', 'list', '-o', 'json'], { env: { TRACKCTL_RETRIES: '8' } });
      assert.equal(r.code, 0, r.stderr);
      assert.ok(Array.isArray(JSON.parse(r.stdout)));
    }
    await setFaults(h, 'drop=1');
    const r = await h.run(['devices', 'list'], { env: { TRACKCTL_RETRIES: '2' } });
    assert.equal(r.code, 6, r.stderr);
    assert.match(r.stderr, /after 3 attempts/);
    await setFaults(h, '');
  });

  test('a POST is not retried once it may have reached the server', async () => {
    await setFaults(h, 'drop-after=1');
    h.sandbox.clearRequests();
    const r = await h.run(['groups', 'create', '--name', 'Once only'], { env: { TRACKCTL_RETRIES: '3' } });
    assert.equal(r.code, 6, r.stderr);
    assert.equal(h.sandbox.requests.filter((q) => q.method === 'POST').length, 1);
    await setFaults(h, '');
  });

  test('an HTML error page is a clear error naming the status', async () => {
    await setFaults(h, 'html=1');
    const r = await h.run(['devices', 'list'], { env: { TRACKCTL_RETRIES: '0' } });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /502/);
    await setFaults(h, '');
  });

  test('--timeout bounds a slow reply: exit 6', async () => {
    await setFaults(h, 'latency=20s');
    const started = Date.now();
    const r = await h.run(['devices', 'list', '--timeout', '300ms', '--retries', '1']);
    assert.equal(r.code, 6, r.stderr);
    assert.match(r.stderr, /timed out/);
    assert.ok(Date.now() - started < 15_000, 'gave up long before the reply came');
    await setFaults(h, '');
  });
});

describe('HTTP layer: addresses and bodies', () => {
  let h: Harness;
  let odd: Server;
  let oddUrl = '';
  before(async () => {
    h = await startHarness({ inProcess: true });
    odd = createServer((req, res) => {
      if (req.url === '/v2/devices/') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"success":"ok","result":[1,2,3]}');
      } else if (req.url === '/v2/devices/did/404') {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end('<html><head><title>404 Not Found</title></head><body>nginx</body></html>');
      } else {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>hello</html>');
      }
    });
    await new Promise<void>((r) => odd.listen(0, '127.0.0.1', r));
    oddUrl = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
  });
  after(async () => {
    odd.close();
    await h.close();
  });

  test('plain http:// to a non-loopback host is refused with exit 2', async () => {
    const r = await h.run(['devices', 'list', '--base-url', 'http://fleet.example.com']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /http/);
  });

  test('connection refused is exit 6', async () => {
    const r = await h.run(['devices', 'list', '--base-url', 'http://127.0.0.1:9', '--retries', '1']);
    assert.equal(r.code, 6);
    assert.match(r.stderr, /connection refused/);
  });

  test('a wrongly shaped or non-JSON success body is exit 1 naming the status and an excerpt', async () => {
    const env = { TRACKCTL_BASE_URL: oddUrl, TRACKCTL_TOKEN: 'x.y.z' };
    const shaped = await h.run(['devices', 'list'], { env });
    assert.equal(shaped.code, 1);
    assert.match(shaped.stderr, /unexpected shape \(status 200\)/);
    const html = await h.run(['devices', 'get', '5'], { env });
    assert.equal(html.code, 1);
    assert.match(html.stderr, /not JSON \(status 200\).*<html>hello/);
    // A 404 without the service's words (a proxy's page) names the request and the status.
    const page = await h.run(['devices', 'get', '404'], { env });
    assert.equal(page.code, 4);
    assert.match(page.stderr, /GET \/v2\/devices\/did\/404: not found \(404\): <html><head><title>404 Not Found/);
  });

  test('HTTP_PROXY is honoured, and NO_PROXY bypasses it', async () => {
    const seen: string[] = [];
    // A tunnelling proxy, as HTTPS needs: CONNECT host:port, then bytes both ways.
    const proxy = createServer((_req, res) => res.writeHead(405).end());
    proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
      seen.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      // Spawned: undici's proxy agent reads the proxy variables from the process's environment.
      const via = await h.spawn(['devices', 'list', '-o', 'json'], { env: { HTTP_PROXY: proxyUrl } });
      assert.equal(via.code, 0, via.stderr);
      assert.deepEqual(seen, [new URL(h.sandbox.url).host], 'the request went through the proxy');
      seen.length = 0;
      const direct = await h.spawn(['devices', 'list', '-o', 'json'], { env: { HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' } });
      assert.equal(direct.code, 0, direct.stderr);
      assert.deepEqual(seen, []);
    } finally {
      proxy.close();
    }
  });

  test('path segments are percent-encoded', async () => {
    h.sandbox.clearRequests();
    const r = await h.run(['devices', 'get', '--tracker-id', 'A:B.C']);
    assert.equal(r.code, 4);
    assert.equal(h.sandbox.requests.at(-1)?.path, '/v2/devices/trackerID/A%3AB.C');
    // A segment of dots alone would be resolved away (RFC 3986): its dots are encoded too.
    for (const [id, sent] of [['..', '%2E%2E'], ['.', '%2E']]) {
      const dots = await h.run(['devices', 'get', '--tracker-id', id]);
      assert.equal(dots.code, 4, dots.stderr);
      assert.equal(h.sandbox.requests.at(-1)?.path, `/v2/devices/trackerID/${sent}`);
    }
  });

  test('api passes any request through with the stored credentials', async () => {
    const body = await h.run(['api', '/v2/groups/', '-X', 'POST', '-d', '{"name":"From api"}']);
    assert.equal(body.code, 0, body.stderr);
    const created = JSON.parse(body.stdout) as { id: number; success: string };
    assert.equal(created.success, 'Group has been created successfully!');
    const viaStdin = await h.run(['api', `/v2/groups/${created.id}`, '-X', 'PATCH', '-d', '-'], { input: '{"name":"Renamed"}' });
    assert.equal(viaStdin.code, 0, viaStdin.stderr);
    assert.equal(h.sandbox.requests.at(-1)?.method, 'PATCH');
    // An error reply's body is printed as well, as gh api does: a script reads the service's own words.
    const missing = await h.run(['api', '/v2/groups/999999']);
    assert.equal(missing.code, 4);
    assert.ok(typeof (JSON.parse(missing.stdout) as { message?: unknown }).message === 'string', missing.stdout);
    // With a body and no -X: a POST, as gh api sends it.
    const posted = await h.run(['api', '/v2/groups/', '-d', '{"name":"Posted"}']);
    assert.equal(posted.code, 0, posted.stderr);
    assert.equal(h.sandbox.requests.at(-1)?.method, 'POST');
    assert.equal((await h.run(['api', '/v2/groups/'])).code, 0);
    assert.equal(h.sandbox.requests.at(-1)?.method, 'GET');
    const bad = await h.run(['api', '/v2/groups/', '-X', 'POST', '-d', '{nope']);
    assert.equal(bad.code, 2);
    const rel = await h.run(['api', 'v2/groups/']);
    assert.equal(rel.code, 2);
  });
});
