/**
 * The service's clock from the service's data: behind a proxy whose Date header runs an hour
 * ahead, a history checkpoint of units that sent nothing stays at what the replies prove (the
 * window's start), so the next run delivers every report that arrived meanwhile.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/cli.js';
import { startProxy, type Proxy } from '../helpers/proxy.js';

const HOUR = 3600;
// Mid-afternoon in the Americas (15:00 UTC) of the last day: vehicles are out driving.
const T0 = Math.floor(Date.now() / 1000 / 86400) * 86400 - 9 * HOUR;

interface Props {
  did: number;
  date: number;
  reportType: string;
}

const keys = (ndjson: string): string[] =>
  ndjson
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const p = (JSON.parse(l) as { properties: Props }).properties;
      return `${p.did}/${p.date}/${p.reportType}`;
    })
    .sort();

describe('a proxy whose Date header runs an hour ahead', () => {
  let h: Harness;
  let proxy: Proxy;
  let clock = T0 * 1000;

  before(async () => {
    h = await startHarness({ now: () => clock, sessionTtl: 30 * 86400, inProcess: true });
    proxy = await startProxy(h.sandbox.url);
    proxy.rules = { dateShiftS: HOUR };
  });
  after(async () => {
    await proxy.close();
    await h.close();
  });

  test('a silent unit\'s cursor stays within the service\'s clock; the next run gets what arrived meanwhile', async () => {
    const ck = join(mkdtempSync(join(h.dir, 'ck-')), 'ck.json');
    const args = ['history', '--category', 'device', '--from', String(T0), '--checkpoint', ck, '-o', 'ndjson'];
    const viaProxy = { env: { TRACKCTL_BASE_URL: proxy.url } };
    // At T0, nothing has been received after T0: every unit is silent.
    const first = await h.run(args, viaProxy);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, '');
    const units = (JSON.parse(readFileSync(ck, 'utf8')) as { units: Record<string, { lastQueryTime: number }> }).units;
    assert.ok(Object.keys(units).length > 0, 'the checkpoint holds the units');
    for (const [did, entry] of Object.entries(units)) assert.ok(entry.lastQueryTime <= T0, `unit ${did}: cursor ${entry.lastQueryTime} is past the service's clock ${T0}`);

    clock = (T0 + HOUR / 2) * 1000;
    try {
      const next = await h.run(args, viaProxy);
      assert.equal(next.code, 0, next.stderr);
      const arrived = await h.run(['history', '--category', 'device', '--received-after', String(T0), '-o', 'ndjson']);
      assert.equal(arrived.code, 0, arrived.stderr);
      assert.ok(keys(arrived.stdout).length > 0, 'reports arrived in the half hour');
      assert.deepEqual(keys(next.stdout), keys(arrived.stdout), 'the next run delivers every report received since');
    } finally {
      clock = T0 * 1000;
    }
  });
});

describe('a proxy whose Date header runs an hour ahead, on the service\'s own time', () => {
  let h: Harness;
  let proxy: Proxy;

  before(async () => {
    // The sandbox on this machine's clock: the proxy's Date is an hour ahead of both.
    h = await startHarness({ inProcess: true });
    proxy = await startProxy(h.sandbox.url);
    proxy.rules = { dateShiftS: HOUR };
  });
  after(async () => {
    await proxy.close();
    await h.close();
  });

  test('wait --for stale=D does not call a unit stale that reported within D', async () => {
    const list = await h.json<Array<{ did?: number; lastGPSTimestamp?: number }>>(['units', '--category', 'device']);
    const newest = list.filter((u) => u.did !== undefined && (u.lastGPSTimestamp ?? 0) > 0).sort((a, b) => b.lastGPSTimestamp! - a.lastGPSTimestamp!)[0];
    assert.ok(newest?.did !== undefined, 'some device has reported');
    // Silent for `gap` now: stale after gap + 30 min by the service's clock, at once by the proxy's.
    const gap = Math.floor(Date.now() / 1000) - newest.lastGPSTimestamp!;
    const minutes = Math.ceil((gap + HOUR / 2) / 60);
    const r = await h.run(['wait', String(newest.did), '--for', `stale=${minutes}m`, '--timeout', '3s', '--interval', '1s', '-o', 'json'], { env: { TRACKCTL_BASE_URL: proxy.url } });
    assert.equal(r.code, 8, `not stale: ${r.stdout}${r.stderr}`);
    assert.equal(r.stdout, '');
  });
});
