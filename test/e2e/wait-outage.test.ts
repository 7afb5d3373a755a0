/**
 * wait through an outage: when no history request of the unit succeeds for the whole
 * --timeout, the wait fails with the last error (1 for a 502, 6 for the network), never 8
 * ("timed out: the condition did not hold"), which a script reads as "still reporting".
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness, type RunResult } from '../helpers/cli.js';
import { startProxy, type Proxy, type ProxyAnswer } from '../helpers/proxy.js';

const HOUR = 3600;
// Mid-afternoon in the Americas (15:00 UTC) of the last day: vehicles are out driving.
const T0 = Math.floor(Date.now() / 1000 / 86400) * 86400 - 9 * HOUR;

describe('wait when every history request fails', () => {
  let h: Harness;
  let proxy: Proxy;

  const failing = (answer: ProxyAnswer, args: string[]): Promise<RunResult> => {
    proxy.rules = { answer: (_method, path) => (path.startsWith('/reports/history/') ? answer : undefined) };
    return h.run(args, { env: { TRACKCTL_BASE_URL: proxy.url }, timeoutMs: 60_000 });
  };

  before(async () => {
    h = await startHarness({ now: () => T0 * 1000, sessionTtl: 30 * 86400, inProcess: true });
    proxy = await startProxy(h.sandbox.url);
  });
  after(async () => {
    await proxy.close();
    await h.close();
  });

  test('502 on every request: exit 1 naming the 502, not 8', async () => {
    const r = await failing({ status: 502, body: '{"message":"Bad Gateway"}' }, ['wait', '2004', '--for', 'stale=10m', '--timeout', '3s', '--interval', '1s']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /error: no reply for unit 2004 in 3s, so --for stale=600s could not be checked: .*\(502\)/);
    assert.doesNotMatch(r.stderr, /did not meet/);
    assert.ok(proxy.answered.length >= 2, `polled through the timeout: ${proxy.answered.length} requests`);
  });

  test('a dropped connection on every request: exit 6', async () => {
    const r = await failing('drop', ['wait', '2004', '2005', '--for', 'reporting', '--timeout', '3s', '--interval', '1s', '-o', 'ndjson']);
    assert.equal(r.code, 6, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /error: no reply for units 2004, 2005 in 3s/);
    assert.doesNotMatch(r.stderr, /did not meet/);
  });
});
