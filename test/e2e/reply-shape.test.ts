/**
 * A 200 reply without the field its endpoint must carry (a proxy in front of the service
 * answering `{"success":"Reports."}`, `{"success":true}` or `{"success":"false"}`): in every
 * command an error naming the status and quoting the body (exit 1), nothing printed as data,
 * no checkpoint moved; watch reports no event from it and wait never says the condition held.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, type Harness, type RunResult } from '../helpers/cli.js';
import { startProxy, type Proxy } from '../helpers/proxy.js';

const HOUR = 3600;
// Mid-afternoon in the Americas (15:00 UTC) of the last day: vehicles are out driving.
const T0 = Math.floor(Date.now() / 1000 / 86400) * 86400 - 9 * HOUR;

/** Bodies that are JSON but not the reply the endpoint gives: each lacks its `result`, `features` or a `success` text. */
const BODIES = ['{"success":"Reports."}', '{"success":true}', '{"success":"false"}'];

interface UnitRec {
  did?: number;
  lastGPSTimestamp?: number;
}

describe('a 200 reply without the field it must carry', () => {
  let h: Harness;
  let proxy: Proxy;
  let clock = T0 * 1000;
  /** The device that reported last before T0: driving, not stale. */
  let driving = 0;

  /** Runs trackctl through the proxy, which answers `body` to the requests whose path starts with `prefix`. */
  const through = (prefix: string, body: string, args: string[]): Promise<RunResult> => {
    proxy.rules = { answer: (_method, path) => (path.startsWith(prefix) ? { status: 200, body } : undefined) };
    return h.run(args, { env: { TRACKCTL_BASE_URL: proxy.url }, timeoutMs: 60_000 });
  };

  const refused = (r: RunResult, body: string, what: string): void => {
    assert.equal(r.code, 1, `${what}: ${r.stderr}`);
    assert.equal(r.stdout, '', `${what}: nothing printed as data`);
    assert.match(r.stderr, /200/, `${what}: the status is named`);
    assert.ok(r.stderr.includes(body), `${what}: the body is quoted: ${r.stderr}`);
  };

  before(async () => {
    h = await startHarness({ now: () => clock, sessionTtl: 30 * 86400, inProcess: true });
    proxy = await startProxy(h.sandbox.url);
    const list = await h.json<UnitRec[]>(['units', '--category', 'device']);
    const newest = list.filter((u) => u.did !== undefined).sort((a, b) => (b.lastGPSTimestamp ?? 0) - (a.lastGPSTimestamp ?? 0))[0];
    driving = newest?.did ?? 0;
    assert.ok(driving > 0 && T0 - (newest?.lastGPSTimestamp ?? 0) < 300, 'some device reported in the last 5 minutes');
  });
  after(async () => {
    await proxy.close();
    await h.close();
  });

  for (const body of BODIES) {
    test(`${body}: units, devices list and get, history and report exit 1 and print nothing`, async () => {
      refused(await through('/all-units/', body, ['units', '-o', 'json']), body, 'units');
      refused(await through('/v2/devices/', body, ['devices', 'list', '-o', 'json']), body, 'devices list');
      refused(await through('/v2/devices/did/', body, ['devices', 'get', '2004', '-o', 'json']), body, 'devices get');
      refused(await through('/reports/history/', body, ['history', '2004', '--from', String(T0 - HOUR), '-o', 'ndjson']), body, 'history');
      refused(await through('/reports/history/', body, ['report', 'trips', '2004', '--from', String(T0 - 6 * HOUR), '-o', 'json']), body, 'report trips');
    });

    test(`${body}: history --category device --checkpoint exits 1 and leaves the checkpoint as it was`, async () => {
      const ck = join(mkdtempSync(join(h.dir, 'ck-')), 'ck.json');
      const first = await h.run(['history', '--category', 'device', '--from', String(T0 - HOUR), '--checkpoint', ck, '-o', 'ndjson']);
      assert.equal(first.code, 0, first.stderr);
      const saved = readFileSync(ck, 'utf8');
      clock = (T0 + HOUR) * 1000;
      try {
        const r = await through('/reports/history/', body, ['history', '--category', 'device', '--from', String(T0 - HOUR), '--checkpoint', ck, '-o', 'ndjson']);
        refused(r, body, 'history --checkpoint');
        assert.equal(readFileSync(ck, 'utf8'), saved, 'the checkpoint did not move');
      } finally {
        clock = T0 * 1000;
      }
    });

    test(`${body}: watch gives the unit up with the error and reports no event from the reply`, async () => {
      const r = await through('/reports/history/', body, ['watch', String(driving), '--interval', '1s', '-o', 'ndjson']);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /200/);
      assert.ok(r.stderr.includes(body), r.stderr);
      const events = r.stdout.split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { event: string }).event);
      assert.deepEqual(events.filter((e) => e === 'report' || e === 'stale'), [], `no event from the reply: ${r.stdout}`);
    });

    test(`${body}: wait --for stale=10m exits 1, never "stale"`, async () => {
      const r = await through('/reports/history/', body, ['wait', String(driving), '--for', 'stale=10m', '--timeout', '20s', '--interval', '1s', '-o', 'json']);
      refused(r, body, 'wait');
    });
  }

  test('{"success":"false"} to a delete is no deletion', async () => {
    const r = await through('/v2/devices/did/', '{"success":"false"}', ['devices', 'delete', '2004', '--yes']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /200/);
    assert.doesNotMatch(r.stdout + r.stderr, /Deleted/i);
  });
});
