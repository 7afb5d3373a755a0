import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { parseFaults, startSandbox } from '../../src/sandbox/index.js';
import { assertError, keys, passwordGrant, req, str, T0 } from './helpers.js';

/** A GET that reports how the connection ended instead of throwing. */
function rawGet(url: string, token: string): Promise<{ status: number; bytes: number; complete: boolean; error?: string }> {
  return new Promise((resolve) => {
    const r = request(url, { headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('error', () => undefined);
      res.on('close', () => resolve({ status: res.statusCode ?? 0, bytes, complete: res.complete }));
    });
    r.on('error', (err) => resolve({ status: 0, bytes: 0, complete: false, error: err.message }));
    r.end();
  });
}

async function statuses(faults: string, n: number): Promise<number[]> {
  const sb = await startSandbox({ now: () => T0 * 1000 });
  try {
    const token = str((await passwordGrant(sb.url)).json.access_token);
    await req(sb.url, 'POST', '/_sandbox/faults', { body: { spec: faults } });
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await req(sb.url, 'GET', '/v2/groups/', { token })).status);
    return out;
  } finally {
    await sb.close();
  }
}

describe('fault injection', () => {
  test('the spec parser names what is wrong', () => {
    assert.throws(() => parseFaults('explode=1'), /unknown kind "explode"/);
    assert.throws(() => parseFaults('error=2'), /"error=2".*between 0 and 1/);
    assert.throws(() => parseFaults('error=0.7,drop=0.5'), /add up to/);
    assert.throws(() => parseFaults('status=404'), /5xx/);
    assert.throws(() => parseFaults('latency=fast'), /duration/);
    assert.throws(() => parseFaults('latency'), /kind=value/);
    assert.deepEqual(parseFaults('latency=20-80ms').latency, [20, 80]);
    assert.deepEqual(parseFaults('latency=1s').latency, [1000, 1000]);
    assert.equal(parseFaults('').error, 0);
    const full = parseFaults('latency=50ms,error=0.1,status=500|502|503,429=0.05,retry-after=1,drop=0.05,drop-after=0.05,truncate=0.02,html=0.02,seed=7');
    assert.deepEqual(full.statuses, [500, 502, 503]);
    assert.equal(full.seed, 7);
  });

  test('same seed → same fault sequence; another seed → another', async () => {
    const spec = 'error=0.3,status=500|503,429=0.15,seed=7';
    const a = await statuses(spec, 40);
    assert.deepEqual(await statuses(spec, 40), a);
    assert.notDeepEqual(await statuses('error=0.3,status=500|503,429=0.15,seed=8', 40), a);
    for (const s of [200, 429, 500, 503]) assert.ok(a.includes(s), `${s} in ${a.join(',')}`);
    assert.deepEqual(await statuses('', 5), [200, 200, 200, 200, 200]);
  });

  test('429 carries Retry-After; errors and html 502 have their shapes', async () => {
    const sb = await startSandbox({ now: () => T0 * 1000, faults: '429=1,retry-after=3' });
    try {
      const r = await req(sb.url, 'GET', '/v2/groups/');
      assertError(r, 429, 'rate_limited');
      assert.equal(r.headers['retry-after'], '3');
      await req(sb.url, 'POST', '/_sandbox/faults', { body: { spec: 'error=1,status=503' } });
      assertError(await req(sb.url, 'GET', '/v2/groups/'), 503, 'server_error');
      await req(sb.url, 'POST', '/_sandbox/faults', { body: { spec: 'html=1' } });
      const h = await req(sb.url, 'GET', '/v2/groups/');
      assert.equal(h.status, 502);
      assert.match(String(h.headers['content-type']), /text\/html/);
      assert.match(h.text, /<html>/);
      // control endpoints are never faulted
      assert.equal((await req(sb.url, 'GET', '/_sandbox/requests')).status, 200);
      const bad = await req(sb.url, 'POST', '/_sandbox/faults', { body: { spec: 'nope=1' } });
      assertError(bad, 422, 'invalid_value', 'spec');
      assert.equal(str((await req(sb.url, 'GET', '/_sandbox/faults')).json.spec), 'html=1');
    } finally {
      await sb.close();
    }
  });

  test('drop closes the connection without applying; drop-after applies the write then drops', async () => {
    const sb = await startSandbox({ now: () => T0 * 1000 });
    try {
      const token = str((await passwordGrant(sb.url)).json.access_token);
      const count = async (): Promise<number> => keys((await req(sb.url, 'GET', '/v2/groups/', { token })).json.result).length;
      const n0 = await count();
      await req(sb.url, 'POST', '/_sandbox/faults', { body: { spec: 'drop=1' } });
      await assert.rejects(req(sb.url, 'POST', '/v2/groups/', { token, body: { name: 'dropped' } }));
      await req(sb.url, 'POST', '/_sandbox/faults', { body: { spec: '' } });
      assert.equal(await count(), n0);
      await req(sb.url, 'POST', '/_sandbox/faults', { body: { spec: 'drop-after=1' } });
      await assert.rejects(req(sb.url, 'POST', '/v2/groups/', { token, body: { name: 'applied' } }));
      await req(sb.url, 'POST', '/_sandbox/faults', { body: { spec: 'none' } });
      assert.equal(await count(), n0 + 1);
      const log = sb.requests.filter((e) => e.fault);
      assert.deepEqual(log.map((e) => [e.fault, e.status]), [['drop', 0], ['drop-after', 200]]);
    } finally {
      await sb.close();
    }
  });

  test('truncate sends part of the body; latency delays', async () => {
    const sb = await startSandbox({ now: () => T0 * 1000 });
    try {
      const token = str((await passwordGrant(sb.url)).json.access_token);
      await req(sb.url, 'POST', '/_sandbox/faults', { body: { spec: 'truncate=1' } });
      const r = await rawGet(`${sb.url}/v2/devices/`, token);
      assert.equal(r.status, 200);
      assert.equal(r.complete, false);
      assert.ok(r.bytes > 0);
      await req(sb.url, 'POST', '/_sandbox/faults', { body: { spec: 'latency=120ms' } });
      const t = Date.now();
      assert.equal((await req(sb.url, 'GET', '/v2/groups/', { token })).status, 200);
      assert.ok(Date.now() - t >= 110);
    } finally {
      await sb.close();
    }
  });

  test('startSandbox rejects a bad spec naming it', async () => {
    await assert.rejects(startSandbox({ faults: 'error=lots' }), /error=lots/);
    await assert.rejects(startSandbox({ port: 70000 }), /port/);
    assert.equal(parseFaults('retry-after=0').retryAfter, 0);
  });
});
